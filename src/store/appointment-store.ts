// Stored appointment state: one row per appointment_key, revision bumped only on material change.
import type { Db, Statement } from './db.ts';
import type { Clock } from '../core/clock.ts';
import { materialView, type Appointment } from '../core/appointment.ts';
import type { FilterFacts } from '../core/appointment-filter.ts';
import { hashOf } from '../core/hash.ts';
import { Signal } from '../core/signal.ts';
import { ListingSpool } from './listing-spool.ts';
import { atomicOf } from './atomic.ts';

export interface StoredAppointment {
  appointment: Appointment;
  revision: number;
  /** Time of the last material change (or of becoming gone). */
  changedAt: number;
  seenAt: number;
  goneAt: number | null;
  goneReason: string | null;
}

export type UpsertOutcome = 'created' | 'changed' | 'unchanged' | 'revived';

export interface UpsertResult {
  outcome: UpsertOutcome;
  revision: number;
}

/**
 * The time stamped on a material change: now, but always a later whole second than the previous
 * change, since feeds show LAST-MODIFIED in seconds and phones update an event only when it grows.
 */
function nextChangedAt(previous: number, now: number): number {
  return Math.max(now, Math.floor(previous / 1000) * 1000 + 1000);
}

/** A committed material change (or becoming gone): the appointment and its new revision. */
export interface AppointmentChange {
  key: string;
  revision: number;
  /** What it was before: absent for a new appointment. */
  before?: PreviousState;
  /** A new appointment stored by a bulk import (batch's `imported`): told once for all, not on its own. */
  imported?: true;
}

export interface BatchOptions {
  /** The new appointments of this batch are part of a bulk import (their changes say `imported`). */
  imported?: boolean;
}

/** An appointment's start, status and whether it was gone, before a change. */
export interface PreviousState {
  start: number;
  status: string;
  gone: boolean;
}

/** One appointment as filters see it: the light read feeds make of every row. */
export interface FilterRow {
  key: string;
  revision: number;
  changedAt: number;
  start: number;
  gone: boolean;
  facts: FilterFacts;
}

interface Row {
  appointment_key: string;
  data: string;
  material_hash: string;
  revision: number;
  changed_at_ms: number;
  seen_at_ms: number;
  gone_at_ms: number | null;
  gone_reason: string | null;
}

interface FilterColumns {
  appointment_key: string;
  revision: number;
  changed_at_ms: number;
  start_ms: number;
  gone_at_ms: number | null;
  status: string;
  calendar_key: string | null;
  client_key: string | null;
  person_key: string | null;
  owner_user: string | null;
  /** JSON arrays of keys, written by columnsOf. */
  service_keys: string;
  tag_keys: string;
}

/** The columns filters read, as upsert writes them (migration 008 filled them for older rows). */
function columnsOf(a: Appointment) {
  return {
    status: a.status,
    calendar_key: a.calendar.calendarKey,
    client_key: a.clientKey,
    person_key: a.person.personKey,
    owner_user: a.ownerUser,
    service_keys: JSON.stringify(a.services.map((s) => s.serviceKey)),
    tag_keys: JSON.stringify(a.tagKeys),
  };
}

function filterRowOf(r: FilterColumns): FilterRow {
  return {
    key: r.appointment_key,
    revision: r.revision,
    changedAt: r.changed_at_ms,
    start: r.start_ms,
    gone: r.gone_at_ms !== null,
    facts: {
      status: r.status,
      calendarKey: r.calendar_key,
      clientKey: r.client_key,
      personKey: r.person_key,
      serviceKeys: JSON.parse(r.service_keys) as string[],
      tagKeys: JSON.parse(r.tag_keys) as string[],
      ownerUser: r.owner_user,
    },
  };
}

function fromRow(r: Row): StoredAppointment {
  return {
    appointment: JSON.parse(r.data) as Appointment,
    revision: r.revision,
    changedAt: r.changed_at_ms,
    seenAt: r.seen_at_ms,
    goneAt: r.gone_at_ms,
    goneReason: r.gone_reason,
  };
}

export class AppointmentStore {
  /** Announced after every committed material change (feeds drop their cache, the Google writer wakes). */
  readonly changes = new Signal<AppointmentChange>();
  private versionQuery: Statement<[], { data_version: number }> | undefined;
  /** Inside batch(): the changes made so far, announced once the batch has committed. */
  private held: AppointmentChange[] | null = null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** When the appointment was last seen at the source and whether it is gone, without parsing its stored record. */
  seen(key: string): { seenAt: number; goneAt: number | null } | undefined {
    return this.db.prepare('SELECT seen_at_ms AS seenAt, gone_at_ms AS goneAt FROM appointments WHERE appointment_key = ?').get(key) as
      | { seenAt: number; goneAt: number | null }
      | undefined;
  }

  get(key: string): StoredAppointment | undefined {
    const row = this.db.prepare('SELECT * FROM appointments WHERE appointment_key = ?').get(key) as Row | undefined;
    return row && fromRow(row);
  }

  /**
   * Runs `apply` (upserts, markGone) in one transaction: many rows for one commit. Its changes are
   * announced after the commit, all in one transaction of their own, so what listeners write (the
   * activity) is committed once too. If `apply` throws, nothing of it stays and nothing is announced.
   */
  batch<T>(apply: () => T, options: BatchOptions = {}): T {
    if (this.held) return apply();
    const held: AppointmentChange[] = [];
    this.held = held;
    let result: T;
    try {
      result = atomicOf(this.db)(apply);
    } finally {
      this.held = null;
    }
    const told = (c: AppointmentChange): AppointmentChange => (options.imported && !c.before ? { ...c, imported: true } : c);
    if (held.length) {
      atomicOf(this.db)(() => {
        for (const c of held) this.changes.emit(told(c));
      });
    }
    return result;
  }

  /** One write's statements in a transaction of its own, or in the batch's (a throw there undoes the whole batch). */
  private atomically<T>(write: () => T): T {
    return this.held ? write() : atomicOf(this.db)(write);
  }

  private announce(change: AppointmentChange): void {
    if (this.held) this.held.push(change);
    else this.changes.emit(change);
  }

  /**
   * Stores what the source says now. A gone appointment that reappears is revived. `sourceHash`:
   * the hash of the record it was read from (see migration 012), or null when there is none.
   */
  upsert(a: Appointment, sourceHash: string | null = null): UpsertResult {
    const now = this.clock.now();
    const hash = hashOf(materialView(a));
    let before: PreviousState | undefined;
    const result = this.atomically((): UpsertResult => {
      const row = this.db
        .prepare('SELECT material_hash, revision, gone_at_ms, changed_at_ms, start_ms, status FROM appointments WHERE appointment_key = ?')
        .get(a.key) as
        | (Pick<Row, 'material_hash' | 'revision' | 'gone_at_ms' | 'changed_at_ms'> & { start_ms: number; status: string })
        | undefined;
      before = row && { start: row.start_ms, status: row.status, gone: row.gone_at_ms !== null };
      const columns = { key: a.key, start: a.start, end: a.end, data: JSON.stringify(a), hash, source: sourceHash, now, ...columnsOf(a) };
      if (!row) {
        this.db
          .prepare(
            `INSERT INTO appointments (appointment_key, status, start_ms, end_ms, calendar_key, client_key, person_key, owner_user,
               service_keys, tag_keys, data, material_hash, source_hash, revision, changed_at_ms, seen_at_ms)
             VALUES (@key, @status, @start, @end, @calendar_key, @client_key, @person_key, @owner_user,
               @service_keys, @tag_keys, @data, @hash, @source, 1, @now, @now)`,
          )
          .run(columns);
        return { outcome: 'created', revision: 1 };
      }
      const revived = row.gone_at_ms !== null;
      // The filter columns are material (materialView holds them): an unchanged state keeps them.
      if (row.material_hash === hash && !revived) {
        this.db
          .prepare('UPDATE appointments SET data = ?, source_hash = ?, seen_at_ms = ? WHERE appointment_key = ?')
          .run(columns.data, sourceHash, now, a.key);
        return { outcome: 'unchanged', revision: row.revision };
      }
      const revision = row.revision + 1;
      this.db
        .prepare(
          `UPDATE appointments SET status = @status, start_ms = @start, end_ms = @end, calendar_key = @calendar_key,
             client_key = @client_key, person_key = @person_key, owner_user = @owner_user, service_keys = @service_keys,
             tag_keys = @tag_keys, data = @data, material_hash = @hash, source_hash = @source, revision = @revision, changed_at_ms = @changed,
             seen_at_ms = @now, gone_at_ms = NULL, gone_reason = NULL
           WHERE appointment_key = @key`,
        )
        .run({ ...columns, revision, changed: nextChangedAt(row.changed_at_ms, now) });
      return { outcome: revived ? 'revived' : 'changed', revision };
    });
    if (result.outcome !== 'unchanged') this.announce({ key: a.key, revision: result.revision, ...(before ? { before } : {}) });
    return result;
  }

  /** Marks an appointment gone (404 from the source, or out of scope); the row is kept. */
  markGone(key: string, reason: string): boolean {
    const now = this.clock.now();
    let before: PreviousState | undefined;
    const revision = this.atomically((): number | null => {
      const row = this.db
        .prepare('SELECT revision, gone_at_ms, changed_at_ms, start_ms, status FROM appointments WHERE appointment_key = ?')
        .get(key) as (Pick<Row, 'revision' | 'gone_at_ms' | 'changed_at_ms'> & { start_ms: number; status: string }) | undefined;
      if (!row || row.gone_at_ms !== null) return null;
      before = { start: row.start_ms, status: row.status, gone: false };
      this.db
        .prepare('UPDATE appointments SET revision = ?, changed_at_ms = ?, gone_at_ms = ?, gone_reason = ? WHERE appointment_key = ?')
        .run(row.revision + 1, nextChangedAt(row.changed_at_ms, now), now, reason, key);
      return row.revision + 1;
    });
    if (revision === null) return false;
    this.announce({ key, revision, ...(before ? { before } : {}) });
    return true;
  }

  /** When each appointment that became gone at or after `fromMs` did so, oldest first (the deletion breaker's rate). */
  goneTimesSince(fromMs: number): number[] {
    const rows = this.db.prepare('SELECT gone_at_ms AS t FROM appointments WHERE gone_at_ms >= ? ORDER BY gone_at_ms').all(fromMs) as {
      t: number;
    }[];
    return rows.map((r) => r.t);
  }

  /** Appointments (not gone) whose start lies in [fromMs, toMs). */
  listInWindow(fromMs: number, toMs: number): StoredAppointment[] {
    const rows = this.db
      .prepare('SELECT * FROM appointments WHERE gone_at_ms IS NULL AND start_ms >= ? AND start_ms < ? ORDER BY start_ms')
      .all(fromMs, toMs) as Row[];
    return rows.map(fromRow);
  }

  /** Somewhere on disk to hold a poll's listing until it is complete. */
  listingSpool(): ListingSpool {
    return new ListingSpool(this.db);
  }

  /** Every stored appointment, gone ones included when asked, ordered by start. */
  listAll(options: { includeGone?: boolean } = {}): StoredAppointment[] {
    const where = options.includeGone ? '' : 'WHERE gone_at_ms IS NULL';
    return (this.db.prepare(`SELECT * FROM appointments ${where} ORDER BY start_ms, appointment_key`).all() as Row[]).map(fromRow);
  }

  /**
   * Every appointment (gone ones too, so they can leave feeds), with only what filters read, one row
   * at a time: 20,000 of them never sit in memory at once. Run no other statement until it is done.
   */
  *filterRows(): IterableIterator<FilterRow> {
    const rows = this.db
      .prepare(
        `SELECT appointment_key, revision, changed_at_ms, start_ms, gone_at_ms, status, calendar_key, client_key, person_key,
                owner_user, service_keys, tag_keys
         FROM appointments`,
      )
      .iterate() as IterableIterator<FilterColumns>;
    for (const row of rows) yield filterRowOf(row);
  }

  /**
   * The same rows a page at a time, in key order after `after`: read at once, so the caller may
   * write between pages (feeds record which rows they hold as they go).
   */
  filterRowPage(after: string, limit: number): FilterRow[] {
    const rows = this.db
      .prepare(
        `SELECT appointment_key, revision, changed_at_ms, start_ms, gone_at_ms, status, calendar_key, client_key, person_key,
                owner_user, service_keys, tag_keys
         FROM appointments WHERE appointment_key > ? ORDER BY appointment_key LIMIT ?`,
      )
      .all(after, limit) as FilterColumns[];
    return rows.map(filterRowOf);
  }

  /** The rows of these keys (those still stored), with only what filters read. */
  filterRowsOf(keys: readonly string[]): FilterRow[] {
    if (keys.length === 0) return [];
    const rows = this.db
      .prepare(
        `SELECT appointment_key, revision, changed_at_ms, start_ms, gone_at_ms, status, calendar_key, client_key, person_key,
                owner_user, service_keys, tag_keys
         FROM appointments WHERE appointment_key IN (${keys.map(() => '?').join(', ')})`,
      )
      .all(...keys) as FilterColumns[];
    return rows.map(filterRowOf);
  }

  /** Changes whenever a revision grows or a row appears, whichever process wrote it. */
  changeStamp(): string {
    const r = this.db.prepare('SELECT COUNT(*) AS n, TOTAL(revision) AS s FROM appointments').get() as { n: number; s: number };
    return `${r.n}:${r.s}`;
  }

  /** SQLite's PRAGMA data_version: differs after another connection (process) committed anything. */
  dataVersion(): number {
    // Asked on every feed request, so the statement is prepared once.
    this.versionQuery ??= this.db.prepare<[], { data_version: number }>('PRAGMA data_version');
    return this.versionQuery.get()!.data_version;
  }

  /** Stored rows: those not gone by status class (as core/appointment.ts's statusClass), and the gone ones. */
  counts(): { total: number; active: number; done: number; cancelled: number; gone: number } {
    const row = this.db
      .prepare(
        `SELECT COUNT(*) AS total,
                COALESCE(SUM(gone_at_ms IS NOT NULL), 0) AS gone,
                COALESCE(SUM(gone_at_ms IS NULL AND status LIKE 'CANCEL%'), 0) AS cancelled,
                COALESCE(SUM(gone_at_ms IS NULL AND status IN ('ATTENDED', 'NO_SHOW')), 0) AS done
         FROM appointments`,
      )
      .get() as { total: number; gone: number; cancelled: number; done: number };
    return { ...row, active: row.total - row.gone - row.cancelled - row.done };
  }
}
