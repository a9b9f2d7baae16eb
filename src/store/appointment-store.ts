// Stored appointment state: one row per appointment_key, revision bumped only on material change.
import type { Db } from './db.ts';
import type { Clock } from '../core/clock.ts';
import { materialView, type Appointment } from '../core/appointment.ts';
import { hashOf } from '../core/hash.ts';

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
export function nextChangedAt(previous: number, now: number): number {
  return Math.max(now, Math.floor(previous / 1000) * 1000 + 1000);
}

export type ChangeListener = (key: string, revision: number) => void;

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
  private readonly listeners = new Set<ChangeListener>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Called after every committed material change (feeds drop their cache, the Google writer wakes). */
  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get(key: string): StoredAppointment | undefined {
    const row = this.db.prepare('SELECT * FROM appointments WHERE appointment_key = ?').get(key) as Row | undefined;
    return row && fromRow(row);
  }

  /** Stores what the source says now. A gone appointment that reappears is revived. */
  upsert(a: Appointment): UpsertResult {
    const now = this.clock.now();
    const hash = hashOf(materialView(a));
    const result = this.db.transaction((): UpsertResult => {
      const row = this.db
        .prepare('SELECT material_hash, revision, gone_at_ms, changed_at_ms FROM appointments WHERE appointment_key = ?')
        .get(a.key) as Pick<Row, 'material_hash' | 'revision' | 'gone_at_ms' | 'changed_at_ms'> | undefined;
      if (!row) {
        this.db
          .prepare(
            `INSERT INTO appointments (appointment_key, status, start_ms, end_ms, calendar_key, data, material_hash, revision, changed_at_ms, seen_at_ms)
             VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
          )
          .run(a.key, a.status, a.start, a.end, a.calendar.calendarKey, JSON.stringify(a), hash, now, now);
        return { outcome: 'created', revision: 1 };
      }
      const revived = row.gone_at_ms !== null;
      if (row.material_hash === hash && !revived) {
        this.db.prepare('UPDATE appointments SET data = ?, seen_at_ms = ? WHERE appointment_key = ?').run(JSON.stringify(a), now, a.key);
        return { outcome: 'unchanged', revision: row.revision };
      }
      const revision = row.revision + 1;
      this.db
        .prepare(
          `UPDATE appointments SET status = ?, start_ms = ?, end_ms = ?, calendar_key = ?, data = ?, material_hash = ?,
             revision = ?, changed_at_ms = ?, seen_at_ms = ?, gone_at_ms = NULL, gone_reason = NULL
           WHERE appointment_key = ?`,
        )
        .run(a.status, a.start, a.end, a.calendar.calendarKey, JSON.stringify(a), hash, revision, nextChangedAt(row.changed_at_ms, now), now, a.key);
      return { outcome: revived ? 'revived' : 'changed', revision };
    })();
    if (result.outcome !== 'unchanged') this.emit(a.key, result.revision);
    return result;
  }

  /** Marks an appointment gone (404 from the source, or out of scope); the row is kept. */
  markGone(key: string, reason: string): boolean {
    const now = this.clock.now();
    const revision = this.db.transaction((): number | null => {
      const row = this.db.prepare('SELECT revision, gone_at_ms, changed_at_ms FROM appointments WHERE appointment_key = ?').get(key) as
        | Pick<Row, 'revision' | 'gone_at_ms' | 'changed_at_ms'>
        | undefined;
      if (!row || row.gone_at_ms !== null) return null;
      this.db
        .prepare('UPDATE appointments SET revision = ?, changed_at_ms = ?, gone_at_ms = ?, gone_reason = ? WHERE appointment_key = ?')
        .run(row.revision + 1, nextChangedAt(row.changed_at_ms, now), now, reason, key);
      return row.revision + 1;
    })();
    if (revision === null) return false;
    this.emit(key, revision);
    return true;
  }

  /** Appointments (not gone) whose start lies in [fromMs, toMs). */
  listInWindow(fromMs: number, toMs: number): StoredAppointment[] {
    const rows = this.db
      .prepare('SELECT * FROM appointments WHERE gone_at_ms IS NULL AND start_ms >= ? AND start_ms < ? ORDER BY start_ms')
      .all(fromMs, toMs) as Row[];
    return rows.map(fromRow);
  }

  /** Every stored appointment, gone ones included when asked, ordered by start. */
  listAll(options: { includeGone?: boolean } = {}): StoredAppointment[] {
    const where = options.includeGone ? '' : 'WHERE gone_at_ms IS NULL';
    return (this.db.prepare(`SELECT * FROM appointments ${where} ORDER BY start_ms, appointment_key`).all() as Row[]).map(fromRow);
  }

  /** Largest changed_at over all rows: a cheap "did anything change" stamp for caches. */
  lastChangeAt(): number {
    const row = this.db.prepare('SELECT MAX(changed_at_ms) AS t FROM appointments').get() as { t: number | null };
    return row.t ?? 0;
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

  private emit(key: string, revision: number): void {
    for (const listener of this.listeners) listener(key, revision);
  }
}
