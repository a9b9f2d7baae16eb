// Alerts as a use case (docs/reference/behaviour.md, "Alerts"): at each tick, the problems now
// (alert-problems.ts) and the stored state go to the pure decision (core/alerts/decide.ts); each
// message it asks for goes to every configured channel; the new state and the messages are stored
// together, so a restart sends no duplicate. A message that reached no channel is decided again
// at the next tick. The state is also kept in memory: with the database not writable (itself a
// problem that alerts) a tick must not forget what it sent and send it again.
import { decideAlerts, undelivered, type AlertState, type Problem } from '../core/alerts/decide.ts';
import type { Clock } from '../core/clock.ts';
import type { Messages } from '../core/i18n/index.ts';
import type { Logger } from '../log.ts';
import type { AlertStore, SentAlert } from '../store/alert-store.ts';
import type { AlertsSection } from '../status/status-document.ts';

/** A channel as the use case sees it (alerts/sender.ts implements it). */
export interface AlertChannel {
  name: string;
  send(m: { event: 'problem' | 'recovered'; key: string; sentence: string; since: string; status_url: string }): Promise<void>;
}

export interface AlertingDeps {
  store: AlertStore;
  channels: readonly AlertChannel[];
  clock: Clock;
  log: Logger;
  afterMs: number;
  /** {server.public_url}/status */
  statusUrl: string;
  problems(): Problem[];
  /** In server.locale. */
  words: Pick<Messages['alerts'], 'recovered' | 'statusLink'>;
}

export class Alerting {
  private memory: AlertState[] | undefined;
  private sentHere: SentAlert[] = [];

  constructor(private readonly d: AlertingDeps) {}

  /** One tick: returns the messages sent (tried) in it. */
  async tick(): Promise<SentAlert[]> {
    const { clock, log } = this.d;
    const now = clock.now();
    const stored = this.memory ?? this.d.store.states();
    const decision = decideAlerts({ now, afterMs: this.d.afterMs, problems: this.d.problems(), stored });
    let next = decision.next;
    const sent: SentAlert[] = [];
    for (const m of decision.send) {
      // The sentence as sent: ours (worded as resolved for a recovery), then where to look.
      const { words } = this.d;
      const sentence = `${m.event === 'recovered' ? words.recovered(m.sentence) : m.sentence} ${words.statusLink(this.d.statusUrl)}`;
      const out = { event: m.event, key: m.key, sentence, since: new Date(m.since).toISOString(), status_url: this.d.statusUrl };
      const channels: Record<string, string> = {};
      await Promise.all(
        this.d.channels.map(async (c) => {
          try {
            await c.send(out);
            channels[c.name] = 'sent';
          } catch (e) {
            channels[c.name] = e instanceof Error ? e.message : 'failed';
          }
        }),
      );
      const reached = Object.values(channels).includes('sent');
      log[reached ? 'info' : 'warn']({ event: m.event, key: m.key, channels }, reached ? 'alert sent' : 'alert reached no channel');
      if (!reached) next = undelivered(next, m, stored);
      // Without channels nothing is sent, but the decision stands: the status page shows it.
      if (reached || this.d.channels.length === 0) sent.push({ at: now, event: m.event, key: m.key, sentence, since: m.since, channels });
    }
    this.memory = next;
    this.sentHere = [...sent.reverse(), ...this.sentHere].slice(0, 10);
    try {
      this.d.store.save(next, sent);
    } catch (e) {
      log.warn({ err: e }, 'could not store the alert state; it is kept in memory until the database takes writes');
    }
    return sent;
  }

  /** The `alerts` section of status: the problems now (whether or not a tick has run in this process) and the last messages. */
  status(): Omit<AlertsSection, 'enabled'> {
    let recent: SentAlert[];
    let states: AlertState[];
    try {
      recent = this.d.store.recent(10);
      states = this.memory ?? this.d.store.states();
    } catch {
      recent = this.sentHere;
      states = this.memory ?? [];
    }
    const iso = (t: number) => new Date(t).toISOString();
    return {
      channels: this.d.channels.map((c) => c.name),
      after_minutes: Math.round(this.d.afterMs / 60_000),
      problems: this.d.problems().map((p) => {
        const state = states.find((s) => s.key === p.key && s.active);
        return { key: p.key, sentence: p.sentence, since: state ? iso(state.since) : null, sent: state?.announced ?? false };
      }),
      last_sent: recent.map((m) => ({
        at: iso(m.at),
        event: m.event,
        key: m.key,
        sentence: m.sentence,
        since: iso(m.since),
        channels: m.channels,
      })),
    };
  }
}
