// Recent activity (table activity): what changed, in which direction and why, in words, for the
// status page, /api/status and the demo's log. One call records it: `activity.record(fact)` from the
// few places where changes happen. The latest 1,000 entries are kept (migration 009's trigger).
import type { Db } from './db.ts';
import type { Clock } from '../core/clock.ts';
import {
  activityWords,
  backfillWords,
  BULK_ABOVE,
  ENGLISH,
  importWords,
  isOwnEcho,
  type ActivityDirection,
  type ActivityFact,
  type ActivityWords,
  type Voice,
} from '../core/activity-words.ts';
import type { AppointmentStore } from './appointment-store.ts';
import type { RescheduleStore } from './reschedule-store.ts';

export type { ActivityDirection, ActivityFact };

export interface ActivityEntry {
  id: number;
  at: number;
  appointmentKey: string | null;
  /** The search code (AG00012), else the key. */
  label: string | null;
  kind: string;
  direction: ActivityDirection;
  summary: string;
  reason: string | null;
  start: number | null;
}

interface Row {
  id: number;
  at_ms: number;
  appointment_key: string | null;
  label: string | null;
  kind: string;
  direction: ActivityDirection;
  summary: string;
  reason: string | null;
  start_ms: number | null;
}

const fromRow = (r: Row): ActivityEntry => ({
  id: r.id,
  at: r.at_ms,
  appointmentKey: r.appointment_key,
  label: r.label,
  kind: r.kind,
  direction: r.direction,
  summary: r.summary,
  reason: r.reason,
  start: r.start_ms,
});

export type ActivityListener = (entry: ActivityEntry) => void;

/** A bulk import's entry while the import runs (ActivityStore.importEntry). */
export interface ImportEntry {
  /** `n` more new appointments stored, in the transaction that stored them. */
  stored(n: number): void;
  /** The import is over: its entry, if any was written. */
  done(): ActivityEntry | undefined;
}

/** A target's backfill's entry while the writer's passes run (ActivityStore.backfillEntry). */
export interface BackfillEntry {
  /** One more new event written; `one`: its own entry, recorded while the backfill is small. */
  added(one?: () => ActivityEntry | undefined): void;
  /** The backfill is over (the writer caught up): listeners hear of its entry, if it has one. */
  done(): void;
}

export class ActivityStore {
  private readonly listeners = new Set<ActivityListener>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly appointments: AppointmentStore,
    /** Every target's reverse-sync actions: the latest of an appointment's, whichever target it came from. */
    private readonly reverseActions: Pick<RescheduleStore, 'latest'>,
    /** Configured secrets, masked in what other services said (a reason), as everywhere else. */
    private readonly secrets: readonly string[] = [],
    /** server.locale, and the configured outputs ("removed from the CalDAV calendar and the feeds"). */
    private readonly voice: Voice = ENGLISH,
  ) {}

  /** Called after each entry is stored (the demo prints them). */
  onRecord(listener: ActivityListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Records what happened to an appointment, in words; nothing when it is not news (our own echo). */
  record(fact: ActivityFact): ActivityEntry | undefined {
    const stored = this.appointments.get(fact.key);
    if (!stored) return undefined;
    const a = stored.appointment;
    const words = activityWords(
      fact,
      {
        label: a.searchCode ?? a.key,
        zone: a.timezone,
        start: a.start,
        status: a.status,
        gone: stored.goneAt !== null,
        goneReason: stored.goneReason,
      },
      this.voice,
    );
    if (!words) return undefined;
    if (fact.kind === 'booking' && isOwnEcho(words, this.reverseActions.latest(fact.key))) return undefined;
    if (words.reason !== null) words.reason = this.secrets.reduce((text, secret) => text.split(secret).join('********'), words.reason);
    return this.insert(a.key, a.searchCode ?? a.key, words);
  }

  /**
   * The one entry of a bulk import (a poll over `window`, told in `zone`), instead of one for each
   * new appointment. `stored(n)` in each batch's transaction: the entry is written with the first
   * and its count kept in step, so a crash mid-import leaves it true to what was stored. Listeners
   * hear of it once, at `done()`, with the final count.
   */
  importEntry(window: { from: number; to: number }, zone: string): ImportEntry {
    let entry: ActivityEntry | undefined;
    let count = 0;
    return {
      stored: (n) => {
        if (n <= 0) return;
        count += n;
        const words = importWords(count, window, zone, this.voice);
        if (!entry) entry = this.insert(null, null, words, false);
        else this.resummarise(entry, words);
      },
      done: () => {
        if (entry) this.tell(entry);
        return entry;
      },
    };
  }

  /**
   * The one entry of a target's backfill (`place`: "Google Calendar (primary)"). The first
   * BULK_ABOVE new events keep their own entries, so a small batch reads as ever; the next one
   * folds them into one entry, in one transaction, whose count is then kept in step with every
   * write, so a backfill cut short says how many it added.
   */
  backfillEntry(place: string): BackfillEntry {
    let count = 0;
    let entry: ActivityEntry | undefined;
    const ones: number[] = [];
    const remove = this.db.prepare('DELETE FROM activity WHERE id = ?');
    return {
      added: (one) => {
        count++;
        if (count <= BULK_ABOVE) {
          const own = one?.();
          if (own) ones.push(own.id);
          return;
        }
        const words = backfillWords(count, place, this.voice);
        if (entry) return this.resummarise(entry, words);
        this.db.transaction(() => {
          for (const id of ones) remove.run(id);
          entry = this.insert(null, null, words, false);
        })();
      },
      done: () => {
        if (entry) this.tell(entry);
      },
    };
  }

  /** A running bulk entry's new count. */
  private resummarise(entry: ActivityEntry, words: ActivityWords): void {
    this.db.prepare('UPDATE activity SET summary = ? WHERE id = ?').run(words.summary, entry.id);
    entry.summary = words.summary;
  }

  private insert(key: string | null, label: string | null, words: ActivityWords, tell = true): ActivityEntry {
    const at = this.clock.now();
    const { lastInsertRowid } = this.db
      .prepare(
        'INSERT INTO activity (at_ms, appointment_key, label, kind, direction, summary, reason, start_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(at, key, label, words.kind, words.direction, words.summary, words.reason, words.start);
    const entry: ActivityEntry = { id: Number(lastInsertRowid), at, appointmentKey: key, label, ...words };
    if (tell) this.tell(entry);
    return entry;
  }

  private tell(entry: ActivityEntry): void {
    for (const listener of this.listeners) listener(entry);
  }

  /** The latest entries, newest first. */
  recent(limit = 50): ActivityEntry[] {
    return (this.db.prepare('SELECT * FROM activity ORDER BY id DESC LIMIT ?').all(limit) as Row[]).map(fromRow);
  }
}
