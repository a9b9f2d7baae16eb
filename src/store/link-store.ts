// links: what we last wrote to a calendar target per appointment, and the retry state of failed
// writes. One table for every target, its rows keyed by the account ({kind}.{name}, e.g.
// google.default); a store sees only its own account's rows. Each write's outcome is recorded in
// one statement, so the link never disagrees with itself.
import type { Db } from './db.ts';
import type { Clock } from '../core/clock.ts';
import type { Deferral, LinkState } from '../core/mirror/link.ts';

/** What the mirror core decides from (its LinkState), plus the appointment, the revision written and the retry state. */
export interface Link extends LinkState {
  appointmentKey: string;
  writtenRevision: number | null;
  attempts: number;
  nextAttemptMs: number;
  lastError: string | null;
  /** What the last failed write tried to make the target show (core/mirror/retry-due.ts contentOf); null once one succeeds. */
  failedContent: string | null;
}

interface Row {
  appointment_key: string;
  calendar_id: string;
  event_id: string;
  generation: number;
  present: number;
  written_hash: string | null;
  etag: string | null;
  written_start_ms: number | null;
  written_end_ms: number | null;
  written_revision: number | null;
  attempts: number;
  next_attempt_ms: number;
  last_error: string | null;
  updated_at_ms: number;
  deferred_etag: string | null;
  deferred_since_ms: number | null;
  write_started_ms: number | null;
  failed_hash: string | null;
}

const fromRow = (r: Row): Link => ({
  appointmentKey: r.appointment_key,
  calendarId: r.calendar_id,
  eventId: r.event_id,
  generation: r.generation,
  present: r.present === 1,
  writtenHash: r.written_hash,
  etag: r.etag,
  writtenStart: r.written_start_ms,
  writtenEnd: r.written_end_ms,
  writtenRevision: r.written_revision,
  attempts: r.attempts,
  nextAttemptMs: r.next_attempt_ms,
  lastError: r.last_error,
  failedContent: r.failed_hash,
  updatedAt: r.updated_at_ms,
  writeInFlight: r.write_started_ms !== null,
  deferral: r.deferred_since_ms === null ? null : { etag: r.deferred_etag, since: r.deferred_since_ms },
});

/** One stored appointment as the writer plans from it: its revision, whether it is gone, and its link. */
export interface PlanRow {
  key: string;
  revision: number;
  gone: boolean;
  link: Link | undefined;
}

export interface WrittenEvent {
  calendarId: string;
  eventId: string;
  generation: number;
  /** false after a delete: the link stays, so a later insert knows the id generation. */
  present: boolean;
  hash: string | null;
  etag: string | null;
  start: number | null;
  end: number | null;
  revision: number | null;
}

export interface LinkFailure {
  appointmentKey: string;
  eventId: string;
  attempts: number;
  nextAttemptMs: number;
  lastError: string;
}

type PlanColumns = Row & { key: string; revision: number; gone_at_ms: number | null };

function planRowOf(r: PlanColumns): PlanRow {
  return { key: r.key, revision: r.revision, gone: r.gone_at_ms !== null, link: r.appointment_key === null ? undefined : fromRow(r) };
}

const LINK_COLUMNS = `l.appointment_key, l.calendar_id, l.event_id, l.generation, l.present, l.written_hash, l.etag,
  l.written_start_ms, l.written_end_ms, l.written_revision, l.attempts, l.next_attempt_ms, l.last_error, l.updated_at_ms,
  l.deferred_etag, l.deferred_since_ms, l.write_started_ms, l.failed_hash`;

/** An account's booking calendars as a JSON list for IN_SCOPE, or null when it maps every calendar ("*"). */
function scopeOf(calendarKeys: readonly string[] | undefined): string | null {
  return calendarKeys && !calendarKeys.includes('*') ? JSON.stringify(calendarKeys) : null;
}

const IN_SCOPE = `(a.calendar_key IN (SELECT value FROM json_each(?)) OR l.appointment_key IS NOT NULL)`;

export class LinkStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    /** The account whose links these are: `{kind}.{name}`, e.g. google.default. */
    private readonly target: string,
  ) {}

  get(key: string): Link | undefined {
    const row = this.db.prepare(`SELECT * FROM links WHERE target = ? AND appointment_key = ?`).get(this.target, key) as Row | undefined;
    return row && fromRow(row);
  }

  /**
   * Every stored appointment with its link (none yet for a new one): what the writer compares.
   * With `calendarKeys` (the booking calendars the account maps, no "*"), only appointments of those
   * calendars and those that already have an event here: another account's appointments cost this
   * account nothing, not even a row (ten accounts over 20,000 stored, BENCHMARKS.md "Named accounts").
   */
  plannable(calendarKeys?: readonly string[]): PlanRow[] {
    const scoped = scopeOf(calendarKeys);
    const rows = this.db
      .prepare(
        `SELECT a.appointment_key AS key, a.revision AS revision, a.gone_at_ms AS gone_at_ms, ${LINK_COLUMNS}
         FROM appointments AS a LEFT JOIN links AS l ON l.target = ? AND l.appointment_key = a.appointment_key
         ${scoped ? `WHERE ${IN_SCOPE}` : ''}`,
      )
      .all(this.target, ...(scoped ? [scoped] : [])) as PlanColumns[];
    return rows.map(planRowOf);
  }

  /** One appointment with its link, as plannable() lists it; undefined when none is stored or it is out of scope. */
  plannableOne(key: string, calendarKeys?: readonly string[]): PlanRow | undefined {
    const scoped = scopeOf(calendarKeys);
    const r = this.db
      .prepare(
        `SELECT a.appointment_key AS key, a.revision AS revision, a.gone_at_ms AS gone_at_ms, ${LINK_COLUMNS}
         FROM appointments AS a LEFT JOIN links AS l ON l.target = ? AND l.appointment_key = a.appointment_key
         WHERE a.appointment_key = ? ${scoped ? `AND ${IN_SCOPE}` : ''}`,
      )
      .get(this.target, key, ...(scoped ? [scoped] : [])) as PlanColumns | undefined;
    return r && planRowOf(r);
  }

  /** The link of one of our events (reverse sync: which appointment is this event?). */
  byEvent(calendarId: string, eventId: string): Link | undefined {
    const row = this.db
      .prepare(`SELECT * FROM links WHERE target = ? AND calendar_id = ? AND event_id = ?`)
      .get(this.target, calendarId, eventId) as Row | undefined;
    return row && fromRow(row);
  }

  /**
   * A write is about to be sent (before the call, so a crash while its answer is awaited leaves a
   * trace): the link says its outcome is unknown until recordWrite. A new appointment's row is
   * created here, naming the event, without claiming it is present.
   */
  recordIntent(key: string, target: { calendarId: string; eventId: string; generation: number }): void {
    this.db
      .prepare(
        `INSERT INTO links (target, appointment_key, calendar_id, event_id, generation, present, write_started_ms, updated_at_ms)
         VALUES (?, ?, ?, ?, ?, 0, ?, ?)
         ON CONFLICT (target, appointment_key) DO UPDATE SET write_started_ms = excluded.write_started_ms, updated_at_ms = excluded.updated_at_ms`,
      )
      .run(this.target, key, target.calendarId, target.eventId, target.generation, this.clock.now(), this.clock.now());
  }

  /** A successful write: what the target now holds; retry state (what failed too), the write's intent and any deferral cleared. */
  recordWrite(key: string, w: WrittenEvent): void {
    this.db
      .prepare(
        `INSERT INTO links (target, appointment_key, calendar_id, event_id, generation, present, written_hash, etag,
           written_start_ms, written_end_ms, written_revision, attempts, next_attempt_ms, last_error, updated_at_ms)
         VALUES (@target, @key, @calendarId, @eventId, @generation, @present, @hash, @etag, @start, @end, @revision, 0, 0, NULL, @now)
         ON CONFLICT (target, appointment_key) DO UPDATE SET calendar_id = excluded.calendar_id, event_id = excluded.event_id,
           generation = excluded.generation, present = excluded.present, written_hash = excluded.written_hash,
           etag = excluded.etag, written_start_ms = excluded.written_start_ms, written_end_ms = excluded.written_end_ms,
           written_revision = excluded.written_revision, attempts = 0, next_attempt_ms = 0, last_error = NULL, failed_hash = NULL,
           updated_at_ms = excluded.updated_at_ms, deferred_etag = NULL, deferred_since_ms = NULL, write_started_ms = NULL`,
      )
      .run({ ...w, target: this.target, key, present: w.present ? 1 : 0, now: this.clock.now() });
  }

  /** Nothing to write for this revision: noted, and any earlier failure no longer matters. */
  recordRevision(key: string, revision: number): void {
    this.db
      .prepare(
        `UPDATE links SET written_revision = ?, last_error = NULL, attempts = 0, next_attempt_ms = 0, failed_hash = NULL WHERE target = ? AND appointment_key = ?`,
      )
      .run(revision, this.target, key);
  }

  /** The recorded failure no longer matters (a different write is planned); attempts and next attempt stay. */
  forgetError(key: string): void {
    this.db.prepare(`UPDATE links SET last_error = NULL WHERE target = ? AND appointment_key = ?`).run(this.target, key);
  }

  /**
   * A person's change is left to the reverse sync: which state of the event and since when (kept
   * across passes and restarts), and no new look before `lookAgainAt`. Not a failure: the wait is
   * the deferral's now, not a failed write's backoff, so no failed content is left to compare.
   */
  leaveToReverse(key: string, deferral: Deferral, lookAgainAt: number): void {
    this.db
      .prepare(
        `UPDATE links SET deferred_etag = ?, deferred_since_ms = ?, next_attempt_ms = ?, failed_hash = NULL WHERE target = ? AND appointment_key = ?`,
      )
      .run(deferral.etag, deferral.since, lookAgainAt, this.target, key);
  }

  /**
   * A failed write: attempts, error, next attempt and `content`, what it tried to make the target
   * show (its backoff holds only while that is still wanted; null: whatever is wanted); `target`
   * creates the row when none exists yet, without claiming an event is present.
   */
  recordFailure(
    key: string,
    target: { calendarId: string; eventId: string; generation: number },
    error: string,
    nextAttemptMs: number,
    content: string | null,
  ): void {
    this.db
      .prepare(
        `INSERT INTO links (target, appointment_key, calendar_id, event_id, generation, present, attempts, next_attempt_ms, last_error, failed_hash, updated_at_ms)
         VALUES (?, ?, ?, ?, ?, 0, 1, ?, ?, ?, ?)
         ON CONFLICT (target, appointment_key) DO UPDATE SET attempts = attempts + 1, next_attempt_ms = excluded.next_attempt_ms,
           last_error = excluded.last_error, failed_hash = excluded.failed_hash, updated_at_ms = excluded.updated_at_ms`,
      )
      .run(this.target, key, target.calendarId, target.eventId, target.generation, nextAttemptMs, error, content, this.clock.now());
  }

  /** Google refused to revive the deleted id: the next insert uses a new generation of it. */
  bumpGeneration(key: string, calendarId: string, eventId: string, generation: number): void {
    this.db
      .prepare(
        `INSERT INTO links (target, appointment_key, calendar_id, event_id, generation, present, updated_at_ms) VALUES (?, ?, ?, ?, ?, 0, ?)
         ON CONFLICT (target, appointment_key) DO UPDATE SET calendar_id = excluded.calendar_id, event_id = excluded.event_id,
           generation = excluded.generation, present = 0, updated_at_ms = excluded.updated_at_ms`,
      )
      .run(this.target, key, calendarId, eventId, generation, this.clock.now());
  }

  // Reverse sync: how it asks this level-triggered writer to put an event back. No second writer
  // exists; the writer records the etag of its write, so the echo of the revert is quiet.

  /** Our events that should exist in a calendar (a full re-list compares against these). */
  mirroredIn(calendarId: string): { appointmentKey: string; eventId: string }[] {
    return this.db
      .prepare(
        `SELECT appointment_key AS appointmentKey, event_id AS eventId FROM links WHERE target = ? AND calendar_id = ? AND present = 1`,
      )
      .all(this.target, calendarId) as { appointmentKey: string; eventId: string }[];
  }

  /**
   * The event no longer shows the booking state: forget the written hash so the writer updates it,
   * conditionally on the etag Google showed (a newer edit gives 412, then a re-read).
   */
  requestRewrite(key: string, observedEtag: string | null): void {
    this.db
      .prepare(
        `UPDATE links SET written_hash = NULL, etag = COALESCE(?, etag), next_attempt_ms = 0, updated_at_ms = ?
         WHERE target = ? AND appointment_key = ? AND present = 1`,
      )
      .run(observedEtag, this.clock.now(), this.target, key);
  }

  /** The event was deleted in Google: the writer inserts it again (409 on the tombstone, revived). */
  requestRecreate(key: string): void {
    this.db
      .prepare(
        `UPDATE links SET present = 0, written_hash = NULL, etag = NULL, next_attempt_ms = 0, updated_at_ms = ? WHERE target = ? AND appointment_key = ?`,
      )
      .run(this.clock.now(), this.target, key);
  }

  /**
   * A person's edit the booking service now agrees with (core adoptAfterReschedule, adoptsAgreement):
   * the link takes its etag and times, and with `hash` the hash of what it shows, as if we had
   * written it (the writer then has nothing to write; an earlier failure or cut-off write of it no
   * longer matters). Only if the link is still as read at `unchangedSince` (nothing wrote it meanwhile).
   */
  adoptEdit(key: string, edit: { etag: string; start: number; end: number; hash?: string }, unchangedSince: number): void {
    if (edit.hash === undefined) {
      this.db
        .prepare(
          `UPDATE links SET etag = ?, written_start_ms = ?, written_end_ms = ?, next_attempt_ms = 0
           WHERE target = ? AND appointment_key = ? AND present = 1 AND updated_at_ms = ?`,
        )
        .run(edit.etag, edit.start, edit.end, this.target, key, unchangedSince);
      return;
    }
    this.db
      .prepare(
        `UPDATE links SET etag = ?, written_start_ms = ?, written_end_ms = ?, written_hash = ?, attempts = 0, next_attempt_ms = 0,
           last_error = NULL, failed_hash = NULL, write_started_ms = NULL, deferred_etag = NULL, deferred_since_ms = NULL
         WHERE target = ? AND appointment_key = ? AND present = 1 AND updated_at_ms = ?`,
      )
      .run(edit.etag, edit.start, edit.end, edit.hash, this.target, key, unchangedSince);
  }

  counts(): { mirrored: number; failed: number } {
    const r = this.db
      .prepare(
        `SELECT COALESCE(SUM(present), 0) AS mirrored, COALESCE(SUM(last_error IS NOT NULL), 0) AS failed FROM links WHERE target = ?`,
      )
      .get(this.target) as { mirrored: number; failed: number };
    return r;
  }

  failures(limit = 20): LinkFailure[] {
    const rows = this.db
      .prepare(`SELECT * FROM links WHERE target = ? AND last_error IS NOT NULL ORDER BY next_attempt_ms LIMIT ?`)
      .all(this.target, limit) as Row[];
    return rows.map((r) => ({
      appointmentKey: r.appointment_key,
      eventId: r.event_id,
      attempts: r.attempts,
      nextAttemptMs: r.next_attempt_ms,
      lastError: r.last_error ?? '',
    }));
  }
}
