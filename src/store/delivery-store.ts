// Raw webhook deliveries: stored (deduplicated) before the 200, processed later by the worker.
import type { Db } from './db.ts';

export interface NewDelivery {
  dedupeKey: string;
  appointmentKey: string;
  event: string | null;
  body: string;
  receivedAt: number;
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

  // Prepared once: /readyz, status and the worker's housekeeping ask for counts all the time.
  private readonly countsQuery;
  private readonly oldestQuery;

  private readonly dueKeysQuery;
  private readonly settle_;
  private readonly retry_;

  constructor(private readonly db: Db) {
    this.countsQuery = db.prepare(`SELECT bucket, n FROM delivery_counts WHERE bucket IN ('pending', 'retrying', 'done', 'failed')`);
    // Named: left to itself, SQLite picks deliveries_pending (state = ?) and visits every pending row.
    this.oldestQuery = db.prepare(`SELECT MIN(received_at_ms) AS at FROM deliveries INDEXED BY deliveries_pending_since WHERE state = 'pending'`);
    // Prepared once: this is the receiver's hot path. A repeat of a delivery still pending is a
    // duplicate; a repeat of one already processed is a new hint (an appointment moved back, say,
    // sends the same bytes again), so it is queued again and the appointment re-read.
    const insert = db.prepare(
      `INSERT INTO deliveries (dedupe_key, appointment_key, event, body, received_at_ms, next_attempt_ms)
       VALUES (?, ?, ?, ?, ?, 0)
       ON CONFLICT (dedupe_key) DO UPDATE SET state = 'pending', next_attempt_ms = 0, received_at_ms = excluded.received_at_ms,
         body = excluded.body, processed_at_ms = NULL, last_error = NULL
       WHERE state != 'pending'`,
    );
    const seenAgain = db.prepare(`UPDATE deliveries SET last_seen_ms = ? WHERE dedupe_key = ? AND state = 'pending'`);
    // Named: the index's order (next_attempt_ms, then rowid) is the order wanted, so nothing is sorted.
    this.dueKeysQuery = db.prepare(
      `SELECT appointment_key FROM deliveries INDEXED BY deliveries_pending
       WHERE state = 'pending' AND next_attempt_ms <= ? AND appointment_key IS NOT NULL ORDER BY next_attempt_ms, id LIMIT ?`,
    );
    // The rows an answer requested at @requestedAt covers (deliveries_pending_by_key).
    const covered = `appointment_key = @key AND state = 'pending' AND received_at_ms <= @requestedAt AND COALESCE(last_seen_ms, 0) <= @requestedAt`;
    // The body is only needed until the delivery is processed: nothing reads it afterwards.
    const settleRows = db.prepare(
      `UPDATE deliveries SET state = @state, body = '', processed_at_ms = @now, attempts = attempts + 1, last_error = @error,
         next_attempt_ms = 0, last_seen_ms = NULL
       WHERE ${covered} RETURNING received_at_ms`,
    );
    const announce = db.prepare(
      `INSERT INTO webhook_announcements (appointment_key, last_received_at_ms) VALUES (?, ?)
       ON CONFLICT (appointment_key) DO UPDATE SET last_received_at_ms = MAX(last_received_at_ms, excluded.last_received_at_ms)`,
    );
    this.settle_ = db.transaction((key: string, requestedAt: number, now: number, apply: () => { value: unknown; failed?: string }) => {
      const { value, failed } = apply();
      const rows = settleRows.all({ key, requestedAt, now, state: failed === undefined ? 'done' : 'failed', error: failed ?? null }) as { received_at_ms: number }[];
      const receivedAt = rows.map((r) => r.received_at_ms);
      if (receivedAt.length) announce.run(key, receivedAt.reduce((a, b) => Math.max(a, b)));
      return { value, receivedAt };
    });
    const attemptsOf = db.prepare(`SELECT COUNT(*) AS n, COALESCE(MAX(attempts), 0) AS attempts FROM deliveries WHERE ${covered}`);
    const retryRows = db.prepare(`UPDATE deliveries SET attempts = attempts + 1, next_attempt_ms = @next, last_error = @error WHERE ${covered}`);
    this.retry_ = db.transaction((key: string, requestedAt: number, error: string, nextAttemptAt: (attempts: number) => number) => {
      const { n, attempts } = attemptsOf.get({ key, requestedAt }) as { n: number; attempts: number };
      if (n > 0) retryRows.run({ key, requestedAt, error, next: nextAttemptAt(attempts) });
      return { deliveries: n, attempts };
    });
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
    return this.insertMany_.immediate(deliveries);
  }

  /**
   * The appointments of the next `rows` due deliveries (fresh ones first, oldest first, then retries
   * by due time), each once. Walks the pending index in its own order, no sort: a short step
   * whatever the backlog.
   */
  dueKeys(now: number, rows: number): string[] {
    const found = this.dueKeysQuery.all(now, rows) as { appointment_key: string }[];
    return [...new Set(found.map((r) => r.appointment_key))];
  }

  /**
   * In one transaction: `apply` (what the re-read found, stored), then every pending delivery of
   * the appointment that arrived at or before `requestedAt` settled: done, or failed with the reason
   * `apply` gives. One commit per re-read, however many deliveries announced the appointment; a
   * crash before it leaves both undone, so the appointment is re-read. A delivery that arrived (or
   * was repeated) after `requestedAt` may announce a state the answer predates: it stays pending.
   * Returns when each settled delivery arrived.
   */
  settle<T>(key: string, requestedAt: number, now: number, apply: () => { value: T; failed?: string }): { value: T; receivedAt: number[] } {
    return this.settle_.immediate(key, requestedAt, now, apply) as { value: T; receivedAt: number[] };
  }

  /** Runs fn in one transaction: several settlements (each its own savepoint) share one commit. */
  together<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /**
   * Leaves the appointment's deliveries that arrived at or before `requestedAt` pending, to be tried
   * again at `nextAttemptAt(attempts so far)`, with the error visible. Returns how many, and their attempts.
   */
  retry(key: string, requestedAt: number, error: string, nextAttemptAt: (attempts: number) => number): { deliveries: number; attempts: number } {
    return this.retry_.immediate(key, requestedAt, error, nextAttemptAt);
  }

  /** From the counters the triggers keep and the index of pending rows: no pass over the table. */
  counts(): DeliveryCounts {
    const rows = this.countsQuery.all() as { bucket: string; n: number }[];
    const n = (bucket: string) => rows.find((r) => r.bucket === bucket)?.n ?? 0;
    const oldest = this.oldestQuery.get() as { at: number | null };
    return { pending: n('pending') + n('retrying'), retrying: n('retrying'), failed: n('failed'), done: n('done'), oldestPendingAt: oldest.at };
  }

  /** The latest errors of deliveries still pending or failed, newest first. */
  lastErrors(limit = 5): DeliveryError[] {
    const rows = this.db
      .prepare(
        `SELECT appointment_key, state, attempts, last_error, COALESCE(processed_at_ms, received_at_ms) AS at FROM deliveries
         WHERE last_error IS NOT NULL AND state != 'done' ORDER BY id DESC LIMIT ?`,
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

  /**
   * Forgets up to `limit` deliveries processed (done or failed) before `before`; a pending one is never
   * forgotten. A later repeat of a forgotten one is simply stored as a new delivery.
   */
  prune(before: number, limit: number): number {
    return this.db
      .prepare(
        `DELETE FROM deliveries WHERE id IN (
           SELECT id FROM deliveries WHERE state != 'pending' AND processed_at_ms < ? ORDER BY processed_at_ms LIMIT ?)`,
      )
      .run(before, limit).changes;
  }

  /** Forgets up to `limit` announcements older than `before` (see `announced`). */
  pruneAnnouncements(before: number, limit: number): number {
    return this.db
      .prepare(
        `DELETE FROM webhook_announcements WHERE appointment_key IN (
           SELECT appointment_key FROM webhook_announcements WHERE last_received_at_ms < ? ORDER BY last_received_at_ms LIMIT ?)`,
      )
      .run(before, limit).changes;
  }
}
