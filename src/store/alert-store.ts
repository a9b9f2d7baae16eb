// Alerts (migration 020): each problem key's state between ticks and restarts, and the latest
// messages sent, for the status page and /api/status.
import type { Db } from './db.ts';
import type { AlertEvent, AlertState } from '../core/alerts/decide.ts';

/** One message as sent, with what each channel answered ("sent", or why not). */
export interface SentAlert {
  at: number;
  event: AlertEvent;
  key: string;
  sentence: string;
  since: number;
  channels: Record<string, string>;
}

interface StateRow {
  key: string;
  since_ms: number;
  active: number;
  announced: number;
  last_sent_ms: number | null;
  sentence: string;
}

interface MessageRow {
  sent_at_ms: number;
  event: AlertEvent;
  key: string;
  sentence: string;
  since_ms: number;
  channels: string;
}

export class AlertStore {
  private readonly selectState;
  private readonly clearState;
  private readonly insertState;
  private readonly insertMessage;
  private readonly selectMessages;

  constructor(private readonly db: Db) {
    this.selectState = db.prepare('SELECT key, since_ms, active, announced, last_sent_ms, sentence FROM alert_state ORDER BY key');
    this.clearState = db.prepare('DELETE FROM alert_state');
    this.insertState = db.prepare(
      'INSERT INTO alert_state (key, since_ms, active, announced, last_sent_ms, sentence) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.insertMessage = db.prepare(
      'INSERT INTO alert_messages (sent_at_ms, event, key, sentence, since_ms, channels) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.selectMessages = db.prepare(
      'SELECT sent_at_ms, event, key, sentence, since_ms, channels FROM alert_messages ORDER BY id DESC LIMIT ?',
    );
  }

  states(): AlertState[] {
    return (this.selectState.all() as StateRow[]).map((r) => ({
      key: r.key,
      since: r.since_ms,
      active: r.active === 1,
      announced: r.announced === 1,
      lastSentAt: r.last_sent_ms,
      sentence: r.sentence,
    }));
  }

  /** Replaces every key's state and records the messages sent, in one transaction. */
  save(states: readonly AlertState[], sent: readonly SentAlert[]): void {
    this.db.transaction(() => {
      this.clearState.run();
      for (const s of states) this.insertState.run(s.key, s.since, s.active ? 1 : 0, s.announced ? 1 : 0, s.lastSentAt, s.sentence);
      for (const m of sent) this.insertMessage.run(m.at, m.event, m.key, m.sentence, m.since, JSON.stringify(m.channels));
    })();
  }

  /** The latest messages, newest first. */
  recent(limit = 10): SentAlert[] {
    return (this.selectMessages.all(limit) as MessageRow[]).map((r) => ({
      at: r.sent_at_ms,
      event: r.event,
      key: r.key,
      sentence: r.sentence,
      since: r.since_ms,
      channels: JSON.parse(r.channels) as Record<string, string>,
    }));
  }
}
