// Raw webhook deliveries: stored (deduplicated) before the 200, processed later by the worker.
import type { Db } from './db.ts';

export interface NewDelivery {
  dedupeKey: string;
  appointmentKey: string;
  event: string | null;
  body: string;
  receivedAt: number;
}

export interface PendingDelivery {
  id: number;
  appointmentKey: string;
  event: string | null;
  receivedAt: number;
  attempts: number;
}

export interface DeliveryCounts {
  pending: number;
  /** Pending deliveries that failed at least once and wait for their next attempt. */
  retrying: number;
  failed: number;
  done: number;
  oldestPendingAt: number | null;
}

export interface DeliveryError {
  appointmentKey: string;
  state: string;
  attempts: number;
  error: string;
  at: number;
}

export class DeliveryStore {
  private readonly insertMany_;

  constructor(private readonly db: Db) {
    // Prepared once: this is the receiver's hot path. A repeat of a delivery still pending is a
    // duplicate; a repeat of one already processed is a new hint (an appointment moved back, say,
    // sends the same bytes again), so it is queued again and the appointment re-read.
    const insert = db.prepare(
      `INSERT INTO deliveries (dedupe_key, appointment_key, event, body, received_at_ms, next_attempt_ms)
       VALUES (?, ?, ?, ?, ?, 0)
       ON CONFLICT (dedupe_key) DO UPDATE SET state = 'pending', next_attempt_ms = 0, received_at_ms = excluded.received_at_ms,
         processed_at_ms = NULL, last_error = NULL
       WHERE state != 'pending'`,
    );
    const seenAgain = db.prepare(`UPDATE deliveries SET last_seen_ms = ? WHERE dedupe_key = ? AND state = 'pending'`);
    this.insertMany_ = db.transaction((deliveries: NewDelivery[]) =>
      deliveries.map((d) => {
        if (insert.run(d.dedupeKey, d.appointmentKey, d.event, d.body, d.receivedAt).changes === 1) return true;
        seenAgain.run(d.receivedAt, d.dedupeKey); // a duplicate; markDone decides whether it came too late
        return false;
      }),
    );
  }

  /** Inserts every delivery in one transaction; true at index i when delivery i was new. */
  insertMany(deliveries: NewDelivery[]): boolean[] {
    return this.insertMany_(deliveries);
  }

  /** Pending deliveries whose next attempt is due, oldest first. */
  due(now: number, limit: number): PendingDelivery[] {
    const rows = this.db
      .prepare(
        `SELECT id, appointment_key, event, received_at_ms, attempts FROM deliveries
         WHERE state = 'pending' AND next_attempt_ms <= ? ORDER BY id LIMIT ?`,
      )
      .all(now, limit) as { id: number; appointment_key: string; event: string | null; received_at_ms: number; attempts: number }[];
    return rows.map((r) => ({ id: r.id, appointmentKey: r.appointment_key, event: r.event, receivedAt: r.received_at_ms, attempts: r.attempts }));
  }

  /**
   * Done, unless a repeat arrived after `requestedAt` (when the worker asked the booking service):
   * then the answer may be older than what the repeat announces, and the delivery stays pending.
   */
  markDone(ids: number[], now: number, requestedAt = Number.MAX_SAFE_INTEGER): void {
    const stmt = this.db.prepare(
      `UPDATE deliveries SET state = CASE WHEN COALESCE(last_seen_ms, 0) > ? THEN 'pending' ELSE 'done' END,
         processed_at_ms = ?, attempts = attempts + 1, last_error = NULL, next_attempt_ms = 0, last_seen_ms = NULL
       WHERE id = ? AND state = 'pending'`,
    );
    this.db.transaction(() => ids.forEach((id) => {
        stmt.run(requestedAt, now, id);
        this.recordAnnouncement(id);
      }))();
  }

  /** Remembers that a webhook announced this delivery's appointment (see `announced`). */
  private recordAnnouncement(id: number): void {
    this.db
      .prepare(
        `INSERT INTO webhook_announcements (appointment_key, last_received_at_ms)
         SELECT appointment_key, received_at_ms FROM deliveries WHERE id = ?
         ON CONFLICT (appointment_key) DO UPDATE SET last_received_at_ms = MAX(last_received_at_ms, excluded.last_received_at_ms)`,
      )
      .run(id);
  }

  /** Leaves the deliveries pending, to be tried again at nextAttemptAt, with the error visible. */
  markRetry(ids: number[], error: string, nextAttemptAt: number): void {
    const stmt = this.db.prepare(
      `UPDATE deliveries SET attempts = attempts + 1, next_attempt_ms = ?, last_error = ? WHERE id = ? AND state = 'pending'`,
    );
    this.db.transaction(() => ids.forEach((id) => stmt.run(nextAttemptAt, error, id)))();
  }

  /** Gives up on deliveries that retrying cannot help (an unreadable record); the error stays visible. */
  markFailed(ids: number[], error: string, now: number): void {
    const stmt = this.db.prepare(
      `UPDATE deliveries SET state = 'failed', attempts = attempts + 1, processed_at_ms = ?, last_error = ? WHERE id = ? AND state = 'pending'`,
    );
    this.db.transaction(() => ids.forEach((id) => {
        stmt.run(now, error, id);
        this.recordAnnouncement(id);
      }))();
  }

  counts(): DeliveryCounts {
    const row = this.db
      .prepare(
        `SELECT COALESCE(SUM(state = 'pending'), 0) AS pending,
                COALESCE(SUM(state = 'pending' AND attempts > 0), 0) AS retrying,
                COALESCE(SUM(state = 'failed'), 0) AS failed,
                COALESCE(SUM(state = 'done'), 0) AS done,
                MIN(CASE WHEN state = 'pending' THEN received_at_ms END) AS oldest
         FROM deliveries`,
      )
      .get() as { pending: number; retrying: number; failed: number; done: number; oldest: number | null };
    return { pending: row.pending, retrying: row.retrying, failed: row.failed, done: row.done, oldestPendingAt: row.oldest };
  }

  /** The latest errors of deliveries still pending or failed, newest first. */
  lastErrors(limit = 5): DeliveryError[] {
    const rows = this.db
      .prepare(
        `SELECT appointment_key, state, attempts, last_error, COALESCE(processed_at_ms, received_at_ms) AS at FROM deliveries
         WHERE state != 'done' AND last_error IS NOT NULL ORDER BY id DESC LIMIT ?`,
      )
      .all(limit) as { appointment_key: string; state: string; attempts: number; last_error: string; at: number }[];
    return rows.map((r) => ({ appointmentKey: r.appointment_key, state: r.state, attempts: r.attempts, error: r.last_error, at: r.at }));
  }

  /** True when a delivery for this appointment is pending or arrived at or after `since`. */
  announced(appointmentKey: string, since: number): boolean {
    const row = this.db
      .prepare(
        `SELECT 1 FROM webhook_announcements WHERE appointment_key = ? AND last_received_at_ms >= ?
         UNION ALL
         SELECT 1 FROM deliveries WHERE state = 'pending' AND appointment_key = ?
         LIMIT 1`,
      )
      .get(appointmentKey, since, appointmentKey);
    return row !== undefined;
  }

  /** Forgets processed deliveries older than `before` (a late repeat of one is then just another hint). */
  prune(before: number): number {
    return this.db.prepare(`DELETE FROM deliveries WHERE state != 'pending' AND received_at_ms < ?`).run(before).changes;
  }
}
