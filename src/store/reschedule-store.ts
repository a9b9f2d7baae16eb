// Reverse-sync actions (table reschedules): a person's move or deletion in a calendar target (Google,
// CalDAV; column target: the account, google.default) and what came of it. Reschedules and cancels are stored as pending before anything is sent to the booking service.
import type { Db } from './db.ts';
import { atomicOf } from './atomic.ts';
import type { Clock } from '../core/clock.ts';
import type { ReverseDecision } from '../core/mirror/write-decide.ts';

export type ActionKind = 'reschedule' | 'cancel' | 'recreate' | 'restore' | 'ignore';
export type ActionState = 'pending' | 'done' | 'reverted' | 'failed' | 'dropped' | 'superseded';

export interface ReverseActionRow {
  id: number;
  kind: ActionKind;
  appointmentKey: string;
  newStart: number;
  newEnd: number;
  fromStart: number | null;
  observedEtag: string | null;
  /** The hash the link takes when the booking service accepts this move (core adoptOnAcceptance); null: none. */
  adoptHash: string | null;
  calendarId: string | null;
  eventId: string | null;
  state: ActionState;
  reason: string | null;
  detail: string | null;
  lastError: string | null;
  attempts: number;
  nextAttemptAt: number;
  createdAt: number;
  updatedAt: number;
}

export interface NewAction {
  kind: ActionKind;
  appointmentKey: string;
  newStart: number;
  newEnd: number;
  fromStart?: number | null;
  observedEtag: string | null;
  calendarId: string;
  eventId: string;
  /** pending for work still to do (reschedule, cancel); done for what is settled at once. */
  state: 'pending' | 'done';
  reason?: string | null;
  adoptHash?: string | null;
  /** The times the event showed in the state observed (null: deleted, or not a timed event). */
  shownStart?: number | null;
  shownEnd?: number | null;
}

interface Row {
  id: number;
  kind: ActionKind;
  appointment_key: string;
  new_start_ms: number;
  new_end_ms: number;
  from_start_ms: number | null;
  observed_etag: string | null;
  adopt_hash: string | null;
  shown_start_ms: number | null;
  shown_end_ms: number | null;
  calendar_id: string | null;
  event_id: string | null;
  state: ActionState;
  reason: string | null;
  detail: string | null;
  last_error: string | null;
  attempts: number;
  next_attempt_ms: number;
  created_at_ms: number;
  updated_at_ms: number;
}

const fromRow = (r: Row): ReverseActionRow => ({
  id: r.id,
  kind: r.kind,
  appointmentKey: r.appointment_key,
  newStart: r.new_start_ms,
  newEnd: r.new_end_ms,
  fromStart: r.from_start_ms,
  observedEtag: r.observed_etag,
  adoptHash: r.adopt_hash,
  calendarId: r.calendar_id,
  eventId: r.event_id,
  state: r.state,
  reason: r.reason,
  detail: r.detail,
  lastError: r.last_error,
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_ms,
  createdAt: r.created_at_ms,
  updatedAt: r.updated_at_ms,
});

export interface ActionCounts {
  movesDetected: number;
  rescheduled: number;
  reverted: number;
  conflicts: number;
  refused: number;
  pending: number;
  failed: number;
  recreated: number;
  cancelled: number;
  ignoredDeletes: number;
  restored: number;
}

export class RescheduleStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    /** The account an action came from (`{kind}.{name}`, e.g. google.default); each account's reverse sync sees only its own. */
    private readonly target: string,
  ) {}

  /** Stores an action; a newer move of the same appointment supersedes a pending one. */
  record(a: NewAction): ReverseActionRow {
    const now = this.clock.now();
    return atomicOf(this.db)(() => {
      this.db
        .prepare(
          `UPDATE reschedules SET state = 'superseded', updated_at_ms = ? WHERE appointment_key = ? AND target = ? AND state = 'pending'`,
        )
        .run(now, a.appointmentKey, this.target);
      const { lastInsertRowid } = this.db
        .prepare(
          `INSERT INTO reschedules (appointment_key, kind, new_start_ms, new_end_ms, from_start_ms, observed_etag, calendar_id, event_id,
             state, reason, created_at_ms, updated_at_ms, target, adopt_hash, shown_start_ms, shown_end_ms)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          a.appointmentKey,
          a.kind,
          a.newStart,
          a.newEnd,
          a.fromStart ?? null,
          a.observedEtag,
          a.calendarId,
          a.eventId,
          a.state,
          a.reason ?? null,
          now,
          now,
          this.target,
          a.adoptHash ?? null,
          a.shownStart ?? null,
          a.shownEnd ?? null,
        );
      return this.get(Number(lastInsertRowid))!;
    });
  }

  get(id: number): ReverseActionRow | undefined {
    const row = this.db.prepare('SELECT * FROM reschedules WHERE id = ?').get(id) as Row | undefined;
    return row && fromRow(row);
  }

  /** The latest action for an appointment, whatever its state. */
  latest(appointmentKey: string): ReverseActionRow | undefined {
    const row = this.db
      .prepare('SELECT * FROM reschedules WHERE appointment_key = ? AND target = ? ORDER BY id DESC LIMIT 1')
      .get(appointmentKey, this.target) as Row | undefined;
    return row && fromRow(row);
  }

  /** The latest action for an appointment from any account (the booking service's echo of any of them is not news). */
  latestOfAny(appointmentKey: string): ReverseActionRow | undefined {
    const row = this.db.prepare('SELECT * FROM reschedules WHERE appointment_key = ? ORDER BY id DESC LIMIT 1').get(appointmentKey) as
      | Row
      | undefined;
    return row && fromRow(row);
  }

  /** The latest decision as the writer weighs it: the state of the event it was made on, and whether it is carried out. */
  latestDecision(appointmentKey: string): ReverseDecision | undefined {
    const row = this.db
      .prepare(
        `SELECT observed_etag, state, adopt_hash, created_at_ms, shown_start_ms, shown_end_ms FROM reschedules
         WHERE appointment_key = ? AND target = ? ORDER BY id DESC LIMIT 1`,
      )
      .get(appointmentKey, this.target) as
      | Pick<Row, 'observed_etag' | 'state' | 'adopt_hash' | 'created_at_ms' | 'shown_start_ms' | 'shown_end_ms'>
      | undefined;
    if (!row) return undefined;
    // A superseded move is not what the event shows: nothing of it is taken as the person's edit.
    const adoptHash = row.state === 'superseded' ? null : row.adopt_hash;
    const shown = row.shown_start_ms !== null && row.shown_end_ms !== null ? { start: row.shown_start_ms, end: row.shown_end_ms } : null;
    return { etag: row.observed_etag, settled: row.state !== 'pending', adoptHash, decidedAt: row.created_at_ms, shown };
  }

  /** Where the latest completed reschedule of this appointment put it. */
  lastRescheduledTo(appointmentKey: string): number | null {
    const row = this.db
      .prepare(
        `SELECT new_start_ms FROM reschedules WHERE appointment_key = ? AND target = ? AND kind = 'reschedule' AND state = 'done' ORDER BY id DESC LIMIT 1`,
      )
      .get(appointmentKey, this.target) as { new_start_ms: number } | undefined;
    return row?.new_start_ms ?? null;
  }

  /** Our latest completed reschedule of this appointment: where it put it, and when it settled. */
  lastReschedule(appointmentKey: string): { to: number; settledAt: number } | null {
    const row = this.db
      .prepare(
        `SELECT new_start_ms, updated_at_ms FROM reschedules WHERE appointment_key = ? AND target = ? AND kind = 'reschedule' AND state = 'done' ORDER BY id DESC LIMIT 1`,
      )
      .get(appointmentKey, this.target) as { new_start_ms: number; updated_at_ms: number } | undefined;
    return row ? { to: row.new_start_ms, settledAt: row.updated_at_ms } : null;
  }

  /** Where the reschedules of this appointment still pending would put it (one may have been sent before a crash). */
  pendingTargets(appointmentKey: string): number[] {
    const rows = this.db
      .prepare(
        `SELECT new_start_ms FROM reschedules WHERE appointment_key = ? AND target = ? AND kind = 'reschedule' AND state = 'pending' ORDER BY id DESC LIMIT 5`,
      )
      .all(appointmentKey, this.target) as { new_start_ms: number }[];
    return rows.map((r) => r.new_start_ms);
  }

  /** Where earlier reschedules of this appointment (done, or superseded while perhaps in flight) put it. */
  earlierTargets(appointmentKey: string, beforeId: number): number[] {
    const rows = this.db
      .prepare(
        `SELECT new_start_ms FROM reschedules WHERE appointment_key = ? AND target = ? AND id < ? AND kind = 'reschedule' AND state IN ('done', 'superseded')
         ORDER BY id DESC LIMIT 5`,
      )
      .all(appointmentKey, this.target, beforeId) as { new_start_ms: number }[];
    return rows.map((r) => r.new_start_ms);
  }

  /** Pending actions whose time has come, oldest first. */
  due(limit = 50): ReverseActionRow[] {
    const rows = this.db
      .prepare(`SELECT * FROM reschedules WHERE state = 'pending' AND target = ? AND next_attempt_ms <= ? ORDER BY id LIMIT ?`)
      .all(this.target, this.clock.now(), limit) as Row[];
    return rows.map(fromRow);
  }

  /** The reschedule of this appointment still waiting to be sent, if any. */
  waitingMove(appointmentKey: string): ReverseActionRow | undefined {
    const row = this.db
      .prepare(
        `SELECT * FROM reschedules WHERE appointment_key = ? AND target = ? AND kind = 'reschedule' AND state = 'pending' ORDER BY id DESC LIMIT 1`,
      )
      .get(appointmentKey, this.target) as Row | undefined;
    return row && fromRow(row);
  }

  /** A waiting move the person took back (core withdrawsMove): superseded by what the event shows now, never sent. */
  withdraw(id: number): boolean {
    const r = this.db
      .prepare(`UPDATE reschedules SET state = 'superseded', reason = 'taken-back', updated_at_ms = ? WHERE id = ? AND state = 'pending'`)
      .run(this.clock.now(), id);
    return r.changes === 1;
  }

  /** Settles a pending action. Only a still-pending row changes (a superseded one stays so). */
  finish(id: number, state: Exclude<ActionState, 'pending' | 'superseded'>, reason: string | null, detail: string | null = null): boolean {
    const r = this.db
      .prepare(
        `UPDATE reschedules SET state = ?, reason = COALESCE(?, reason), detail = ?, updated_at_ms = ? WHERE id = ? AND state = 'pending'`,
      )
      .run(state, reason, detail, this.clock.now(), id);
    return r.changes === 1;
  }

  retryLater(id: number, nextAttemptAt: number, error: string): void {
    this.db
      .prepare(
        `UPDATE reschedules SET attempts = attempts + 1, next_attempt_ms = ?, last_error = ?, updated_at_ms = ? WHERE id = ? AND state = 'pending'`,
      )
      .run(nextAttemptAt, error, this.clock.now(), id);
  }

  counts(): ActionCounts {
    const rows = this.db
      .prepare('SELECT kind, state, reason, COUNT(*) AS n FROM reschedules WHERE target = ? GROUP BY kind, state, reason')
      .all(this.target) as { kind: ActionKind; state: ActionState; reason: string | null; n: number }[];
    const sum = (f: (r: (typeof rows)[number]) => boolean) => rows.filter(f).reduce((t, r) => t + r.n, 0);
    return {
      movesDetected: sum((r) => r.kind === 'reschedule'),
      rescheduled: sum((r) => r.kind === 'reschedule' && r.state === 'done'),
      reverted: sum((r) => r.kind === 'reschedule' && r.state === 'reverted'),
      conflicts: sum((r) => r.reason === 'conflict'),
      refused: sum((r) => r.reason === 'refused'),
      pending: sum((r) => r.state === 'pending'),
      failed: sum((r) => r.state === 'failed'),
      recreated: sum((r) => r.kind === 'recreate'),
      cancelled: sum((r) => r.kind === 'cancel' && r.state === 'done'),
      ignoredDeletes: sum((r) => r.kind === 'ignore'),
      restored: sum((r) => r.kind === 'restore'),
    };
  }

  /** Actions given up on; an indexed count (readiness asks it on every call). */
  failedCount(): number {
    return (
      this.db.prepare(`SELECT COUNT(*) AS n FROM reschedules WHERE state = 'failed' AND target = ?`).get(this.target) as { n: number }
    ).n;
  }

  /**
   * Forgets up to `limit` settled actions (of every target) last changed before `before`. Pending ones are never
   * forgotten, nor an appointment's latest action or its latest completed reschedule: the reverse
   * sync compares what it sees in Google with those (`latest`, `lastRescheduledTo`), however old.
   */
  prune(before: number, limit: number): number {
    return this.db
      .prepare(
        `DELETE FROM reschedules WHERE id IN (
           SELECT id FROM reschedules AS r WHERE state != 'pending' AND updated_at_ms < ?
             AND id < (SELECT MAX(id) FROM reschedules WHERE appointment_key = r.appointment_key AND target = r.target)
             AND id IS NOT (SELECT MAX(id) FROM reschedules
                            WHERE appointment_key = r.appointment_key AND target = r.target AND kind = 'reschedule' AND state = 'done')
           ORDER BY updated_at_ms LIMIT ?)`,
      )
      .run(before, limit).changes;
  }

  /**
   * Recent actions that went wrong, with the booking service's reason. A move put back because the
   * slot is taken or the booking service changed the appointment meanwhile is the bridge doing its
   * job: the activity tells it, it is no problem.
   */
  recentProblems(limit = 10): ReverseActionRow[] {
    const rows = this.db
      .prepare(
        `SELECT * FROM reschedules WHERE target = ?
           AND ((state = 'reverted' AND COALESCE(reason, '') NOT IN ('conflict', 'booking-changed')) OR state = 'failed' OR (state = 'pending' AND last_error IS NOT NULL))
         ORDER BY updated_at_ms DESC, id DESC LIMIT ?`,
      )
      .all(this.target, limit) as Row[];
    return rows.map(fromRow);
  }
}
