// Raw webhook deliveries: stored (deduplicated) before the 200, processed later by the worker.
import type { Db } from './db.ts';
import { atomicOf, flatAtomicOf } from './atomic.ts';

export interface NewDelivery {
  /** What makes two deliveries the same while pending: a digest of the raw body (dedupeKeyOf in webhook-routes.ts). */
  dedupeKey: string | Uint8Array;
  appointmentKey: string;
  event: string | null;
  body: string;
  receivedAt: number;
}

/** A pending delivery this process knows of (see DeliveryStore.pending). */
interface Hint {
  id: number;
  receivedAt: number;
  /** Its dedupe key as text (see byDedupe). */
  dedupe: string;
}

/** A dedupe key as a map key: its bytes as latin1 characters (a key stored as text, from before migration 015, as it is). */
function dedupeText(key: string | Uint8Array): string {
  return typeof key === 'string' ? `t:${key}` : `b:${Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString('latin1')}`;
}

interface PendingRow {
  id: number;
  appointment_key: string;
  received_at_ms: number;
  dedupe_key: string | Uint8Array;
}

/** An appointment with due deliveries, and the ids of those due() saw. */
export interface DueAppointment {
  key: string;
  ids: number[];
}

/**
 * Pending deliveries remembered per appointment (see DeliveryStore.pending): a few MB at most, and
 * nothing once the backlog is drained. Past this, due() finds them, and a repeat of one is stored
 * as a new row rather than recognised (the same re-read settles both).
 */
const MAX_HINTS = 100_000;

/** Pending deliveries remembered from the table at first (the oldest): one short read, once. */
const SEED_HINTS = 20_000;

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

  private readonly freshDue;
  private readonly retriesDue;
  private readonly settle_;
  private readonly retry_;

  /**
   * The pending deliveries this process knows, by appointment: what one re-read of the appointment
   * settles. Kept in memory rather than as an index on appointment_key, which would cost every
   * stored webhook an insert at a random place in it (measured: it doubled the receiver's commit).
   * Only a hint: the rows' state decides. Filled from the table once (seed), then by insertMany. A
   * delivery not in it (stored by another process meanwhile, or past the cap) is still found by due()
   * in its turn, just with a re-read of its own.
   */
  private readonly pending = new Map<string, Hint[]>();
  /**
   * The same hints by dedupe key: a webhook repeating a pending delivery is a duplicate. Kept here
   * rather than as a unique index, whose random pages cost most of the receiver's commit (migration
   * 016); the row's state still decides, in the same transaction.
   */
  private readonly byDedupe = new Map<string, number>();
  private hinted = 0;
  /** Whether `pending` was filled from the table (the first time the worker or the receiver asks, see seed()). */
  private seeded = false;
  private readonly pendingRows: (limit: number) => PendingRow[];
  private readonly stillPending: (ids: number[]) => Set<number>;
  private readonly pendingOfKey;

  constructor(private readonly db: Db) {
    this.countsQuery = db.prepare(`SELECT bucket, n FROM delivery_counts WHERE bucket IN ('pending', 'retrying', 'done', 'failed')`);
    // Pending deliveries are in one of two partial indexes (migration 017): fresh ones (never tried,
    // the receiver's) and those tried and left pending. Each query names its index: SQLite uses a
    // partial index only when the query repeats its condition, and fails loudly here otherwise.
    const fresh = `state = 'pending' AND attempts = 0`;
    const retrying = `state = 'pending' AND attempts > 0`;
    // The first entry of each index by arrival.
    this.oldestQuery = db.prepare(
      `SELECT MIN(at) AS at FROM (
         SELECT MIN(received_at_ms) AS at FROM deliveries INDEXED BY deliveries_fresh WHERE ${fresh}
         UNION ALL SELECT MIN(received_at_ms) FROM deliveries INDEXED BY deliveries_retry_since WHERE ${retrying})`,
    );
    // Prepared once: this is the receiver's hot path. A repeat of a delivery still pending is a
    // duplicate (see byDedupe); a repeat of one already processed is a new hint (an appointment moved
    // back, say, sends the same bytes again), so it is stored as a new row and the appointment re-read.
    // OR FAIL and no RETURNING: either made SQLite open a statement journal (a failing row's own
    // writes undone alone) or a table for the returned rows, each starting with a 64 KiB block that
    // malloc, as serve runs it (bin/calbridge.js), maps and unmaps every time: several times the
    // insert's cost, mostly in the kernel. A row that fails still fails, and the whole batch with it.
    const insert = db.prepare(
      `INSERT OR FAIL INTO deliveries (dedupe_key, appointment_key, event, body, received_at_ms, next_attempt_ms)
       VALUES (?, ?, ?, ?, ?, 0)`,
    );
    // By id: a row another process settled meanwhile is no longer pending, and the repeat is stored.
    const seenAgain = db.prepare(`UPDATE deliveries SET last_seen_ms = ? WHERE id = ? AND state = 'pending'`);
    const pendingOf = (index: string, where: string) =>
      db.prepare(`SELECT id, appointment_key, received_at_ms, dedupe_key FROM deliveries INDEXED BY ${index}
                  WHERE ${where} AND appointment_key IS NOT NULL ORDER BY received_at_ms LIMIT ?`);
    const freshRows = pendingOf('deliveries_fresh', fresh);
    const retryingRows = pendingOf('deliveries_retry_since', retrying);
    // The oldest of both kinds.
    this.pendingRows = (limit) =>
      [...(freshRows.all(limit) as PendingRow[]), ...(retryingRows.all(limit) as PendingRow[])]
        .sort((a, b) => a.received_at_ms - b.received_at_ms)
        .slice(0, limit);
    // Each in its index's order, so nothing is sorted: fresh ones by arrival, retries by due time.
    this.freshDue = db.prepare(
      `SELECT id, appointment_key FROM deliveries INDEXED BY deliveries_fresh
       WHERE ${fresh} AND appointment_key IS NOT NULL ORDER BY received_at_ms, id LIMIT ?`,
    );
    this.retriesDue = db.prepare(
      `SELECT id, appointment_key FROM deliveries INDEXED BY deliveries_retry_due
       WHERE ${retrying} AND next_attempt_ms <= ? AND appointment_key IS NOT NULL ORDER BY next_attempt_ms, id LIMIT ?`,
    );
    this.pendingOfKey = db.prepare(
      `SELECT 1 FROM deliveries INDEXED BY deliveries_fresh WHERE ${fresh} AND appointment_key = @key
       UNION ALL SELECT 1 FROM deliveries INDEXED BY deliveries_retry_since WHERE ${retrying} AND appointment_key = @key LIMIT 1`,
    );
    // The rows an answer requested at @requestedAt covers, each found by its id, and then settled.
    // Row by row, with neither RETURNING nor a list in json_each: those made SQLite build tables in
    // memory and open a statement journal for every settle, each starting with a block of 64 KiB or
    // more that malloc, as serve runs it, maps and unmaps: under load that made the settle one of
    // the event loop's largest costs. OR FAIL: a failing row fails the transaction, which the worker rolls back whole.
    const coveredRow = db
      .prepare(
        `SELECT received_at_ms FROM deliveries WHERE id = @id AND appointment_key = @key AND state = 'pending'
           AND received_at_ms <= @requestedAt AND COALESCE(last_seen_ms, 0) <= @requestedAt`,
      )
      .pluck();
    // The body is only needed until the delivery is processed: nothing reads it afterwards.
    const settleRow = db.prepare(
      `UPDATE OR FAIL deliveries SET state = @state, body = '', processed_at_ms = @now, attempts = attempts + 1, last_error = @error,
         next_attempt_ms = 0, last_seen_ms = NULL
       WHERE id = @id`,
    );
    const announce = db.prepare(
      `INSERT INTO webhook_announcements (appointment_key, last_received_at_ms) VALUES (?, ?)
       ON CONFLICT (appointment_key) DO UPDATE SET last_received_at_ms = MAX(last_received_at_ms, excluded.last_received_at_ms)`,
    );
    this.settle_ = (key: string, ids: number[], requestedAt: number, now: number, apply: () => { value: unknown; failed?: string }) =>
      atomicOf(db)(() => {
        const { value, failed } = apply();
        const state = failed === undefined ? 'done' : 'failed';
        const receivedAt: number[] = [];
        const settled: number[] = [];
        let latest = 0;
        for (const id of ids) {
          const at = coveredRow.get({ id, key, requestedAt }) as number | undefined;
          if (at === undefined) continue;
          settleRow.run({ id, state, now, error: failed ?? null });
          receivedAt.push(at);
          settled.push(id);
          latest = Math.max(latest, at);
        }
        if (settled.length) announce.run(key, latest);
        return { value, receivedAt, settled };
      });
    // The rows among @ids an answer requested at @requestedAt covers; each found by its id (NOT
    // INDEXED: else SQLite may walk every pending row through an index of them to test the list).
    const covered = `id IN (SELECT value FROM json_each(@ids)) AND appointment_key = @key AND state = 'pending'
       AND received_at_ms <= @requestedAt AND COALESCE(last_seen_ms, 0) <= @requestedAt`;
    const stillPending = db
      .prepare(`SELECT id FROM deliveries NOT INDEXED WHERE id IN (SELECT value FROM json_each(?)) AND state = 'pending'`)
      .pluck();
    this.stillPending = (ids) => (ids.length ? new Set(stillPending.all(JSON.stringify(ids)) as number[]) : new Set());
    const attemptsOf = db.prepare(
      `SELECT COUNT(*) AS n, COALESCE(MAX(attempts), 0) AS attempts FROM deliveries NOT INDEXED WHERE ${covered}`,
    );
    const retryRows = db.prepare(
      `UPDATE deliveries NOT INDEXED SET attempts = attempts + 1, next_attempt_ms = @next, last_error = @error WHERE ${covered}`,
    );
    this.retry_ = db.transaction(
      (key: string, ids: string, requestedAt: number, error: string, nextAttemptAt: (attempts: number) => number) => {
        const { n, attempts } = attemptsOf.get({ key, ids, requestedAt }) as { n: number; attempts: number };
        if (n > 0) retryRows.run({ key, ids, requestedAt, error, next: nextAttemptAt(attempts) });
        return { deliveries: n, attempts };
      },
    );
    this.insertMany_ = db.transaction((deliveries: NewDelivery[]) => {
      const inBatch = new Map<string, number>();
      return deliveries.map((d) => {
        const dedupe = dedupeText(d.dedupeKey);
        const known = inBatch.get(dedupe) ?? this.byDedupe.get(dedupe);
        // A duplicate; settle decides whether it came too late (after the re-read was asked).
        if (known !== undefined && seenAgain.run(d.receivedAt, known).changes === 1) return undefined;
        const id = Number(insert.run(d.dedupeKey, d.appointmentKey, d.event, d.body, d.receivedAt).lastInsertRowid);
        inBatch.set(dedupe, id);
        return id;
      });
    });
  }

  /** Inserts every delivery in one transaction; true at index i when delivery i was new. */
  insertMany(deliveries: NewDelivery[]): boolean[] {
    if (!this.seeded) this.seed(); // the repeats of what was pending before this process started
    const ids = this.insertMany_.immediate(deliveries);
    // Only once committed: a rolled-back batch leaves no hint behind.
    ids.forEach((id, i) => {
      if (id === undefined) return;
      const d = deliveries[i]!;
      this.remember(d.appointmentKey, { id, receivedAt: d.receivedAt, dedupe: dedupeText(d.dedupeKey) });
    });
    return ids.map((id) => id !== undefined);
  }

  private remember(key: string, hint: Hint): void {
    if (this.hinted >= MAX_HINTS) return;
    const list = this.pending.get(key);
    if (list) list.push(hint);
    else this.pending.set(key, [hint]);
    this.byDedupe.set(hint.dedupe, hint.id);
    this.hinted++;
  }

  /**
   * The appointments of the next `rows` due deliveries (fresh ones first, oldest first, then retries
   * by due time), each once, with the ids of those rows. Walks the two indexes of pending rows in their own order,
   * no sort: a short step whatever the backlog.
   */
  due(now: number, rows: number): DueAppointment[] {
    if (!this.seeded) this.seed();
    const found = this.freshDue.all(rows) as { id: number; appointment_key: string }[];
    if (found.length < rows) found.push(...(this.retriesDue.all(now, rows - found.length) as typeof found));
    const byKey = new Map<string, number[]>();
    for (const r of found) byKey.set(r.appointment_key, [...(byKey.get(r.appointment_key) ?? []), r.id]);
    return [...byKey].map(([key, ids]) => ({ key, ids }));
  }

  /**
   * Remembers every pending delivery the table holds (up to the cap), once: after a restart, a
   * backlog left by the process before is settled one re-read per appointment too, and a repeat of
   * one of them is a duplicate. Done when the worker or the receiver first asks, not when the store
   * is opened: a `status` never pays for it.
   */
  private seed(): void {
    this.seeded = true;
    this.pending.clear();
    this.byDedupe.clear();
    this.hinted = 0;
    for (const r of this.pendingRows(SEED_HINTS))
      this.remember(r.appointment_key, { id: r.id, receivedAt: r.received_at_ms, dedupe: dedupeText(r.dedupe_key) });
  }

  /**
   * In one transaction: `apply` (what the re-read found, stored), then every pending delivery of
   * the appointment that arrived at or before `requestedAt` settled: done, or failed with the reason
   * `apply` gives. One commit per re-read, however many deliveries announced the appointment; a
   * crash before it leaves both undone, so the appointment is re-read. A delivery that arrived (or
   * was repeated) after `requestedAt` may announce a state the answer predates: it stays pending.
   * The deliveries are those this process stored (see `pending`) and `scanned` (from due()).
   * Returns when each settled delivery arrived.
   */
  settle<T>(
    key: string,
    requestedAt: number,
    now: number,
    apply: () => { value: T; failed?: string },
    scanned: number[] = [],
  ): { value: T; receivedAt: number[] } {
    const hints = this.pending.get(key) ?? [];
    const r = this.settle_(key, this.candidates(hints, requestedAt, scanned), requestedAt, now, apply) as {
      value: T;
      receivedAt: number[];
      settled: number[];
    };
    this.forget(key, hints, requestedAt, new Set(r.settled));
    return { value: r.value, receivedAt: r.receivedAt };
  }

  /**
   * Leaves the appointment's deliveries that arrived at or before `requestedAt` pending, to be tried
   * again at `nextAttemptAt(attempts so far)`, with the error visible. Returns how many, and their attempts.
   */
  retry(
    key: string,
    requestedAt: number,
    error: string,
    nextAttemptAt: (attempts: number) => number,
    scanned: number[] = [],
  ): { deliveries: number; attempts: number } {
    return this.retry_.immediate(
      key,
      JSON.stringify(this.candidates(this.pending.get(key) ?? [], requestedAt, scanned)),
      requestedAt,
      error,
      nextAttemptAt,
    );
  }

  /** The ids a re-read asked at `requestedAt` may settle. */
  private candidates(hints: Hint[], requestedAt: number, scanned: number[]): number[] {
    return [...new Set([...scanned, ...hints.filter((h) => h.receivedAt <= requestedAt).map((h) => h.id)])];
  }

  /**
   * Lets go of the hints of deliveries no longer pending: those just settled, and (rarely: another
   * process settled them) those the re-read covered that are not pending any more.
   */
  private forget(key: string, hints: Hint[], requestedAt: number, settled: Set<number>): void {
    if (hints.length === 0) return;
    const unsettled = hints.filter((h) => !settled.has(h.id));
    const pending = this.stillPending(unsettled.filter((h) => h.receivedAt <= requestedAt).map((h) => h.id));
    const kept = unsettled.filter((h) => h.receivedAt > requestedAt || pending.has(h.id));
    const keptIds = new Set(kept.map((h) => h.id));
    for (const h of hints) if (!keptIds.has(h.id) && this.byDedupe.get(h.dedupe) === h.id) this.byDedupe.delete(h.dedupe);
    this.hinted -= hints.length - kept.length;
    if (kept.length) this.pending.set(key, kept);
    else this.pending.delete(key);
  }

  /**
   * Runs fn in one transaction: several settlements share one commit. Flat (store/atomic.ts): a
   * settlement is not a savepoint of its own, so one that throws undoes them all; the worker then
   * settles each alone.
   */
  together<T>(fn: () => T): T {
    return flatAtomicOf(this.db)(fn);
  }

  /** From the counters the triggers keep and the index of pending rows: no pass over the table. */
  counts(): DeliveryCounts {
    const rows = this.countsQuery.all() as { bucket: string; n: number }[];
    const n = (bucket: string) => rows.find((r) => r.bucket === bucket)?.n ?? 0;
    const oldest = this.oldestQuery.get() as { at: number | null };
    return {
      pending: n('pending') + n('retrying'),
      retrying: n('retrying'),
      failed: n('failed'),
      done: n('done'),
      oldestPendingAt: oldest.at,
    };
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
      .prepare(`SELECT 1 FROM webhook_announcements WHERE appointment_key = ? AND last_received_at_ms >= ?`)
      .get(appointmentKey, since);
    return row !== undefined || this.pendingOfKey.get({ key: appointmentKey }) !== undefined;
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
