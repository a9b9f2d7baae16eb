// The delivery worker: pending deliveries, coalesced per appointment, each appointment re-read
// from the booking API (a notification is a hint) and applied, together with marking its
// deliveries done. Idempotent: a repeat, or a crash before that commit, only re-reads and stores the
// same state again. In serve it takes turns with the webhook receiver (receiver-gate.ts).
import type { Logger } from '../log.ts';
import type { Clock } from '../core/clock.ts';
import { errorMessage } from '../core/errors.ts';
import { backoffMs } from '../core/backoff.ts';
import type { BookingApi } from '../booking/port.ts';
import { BookingError, isNotFound } from '../booking/errors.ts';
import type { DeliveryStore, DueAppointment } from '../store/delivery-store.ts';
import type { Job, JobResult, Progress } from '../jobs/job.ts';
import { applyNotFound, applyRecord, isChange, type ApplyDeps } from './apply-record.ts';
import type { BookingHealth } from './booking-health.ts';
import type { IngestMetrics } from './ingest-metrics.ts';
import { mapLimit } from './map-limit.ts';
import type { ReceiverGate } from './receiver-gate.ts';

// Due deliveries looked at per step: their appointments are re-read, each settling every pending
// delivery of its appointment. Small, so no synchronous step of the worker holds the event loop long.
const SLICE = 64;
// Re-reads in flight at once. Their answers are settled together, several to one commit.
const CONCURRENCY = 8;
// The longest one settling step keeps the event loop (what is left waits for the next turn). 1 ms
// rather than 2: measured in turns, shorter steps let more webhooks be acknowledged and kept their
// p99 lower (the whole-daemon bench, BENCHMARKS.md; the comparison is in its git history).
const SETTLE_BUDGET_MS = 1;
// A run ends after this long (the next is woken by the next commit or the 2 s schedule): the summary
// line and the lease stay meaningful while a receiver that never pauses keeps the backlog full.
const MAX_RUN_MS = 10_000;
const yieldToIo = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface DeliveryWorkerDeps extends ApplyDeps {
  booking: BookingApi;
  deliveries: DeliveryStore;
  health: BookingHealth;
  metrics: IngestMetrics;
  clock: Clock;
  log: Logger;
  random?: () => number;
  /** Background work takes turns with the receiver (serve); absent: runs flat out (`sync`). */
  receiver?: Pick<ReceiverGate, 'turn' | 'spent'>;
}

/** No delivery waits longer for its next attempt, whatever the backoff or a Retry-After says. */
export const MAX_DELIVERY_BACKOFF_MS = 30 * 60_000;
const RETRY_BACKOFF = { baseMs: 5_000, maxMs: MAX_DELIVERY_BACKOFF_MS };

/** Steps of 5 s, 10 s, 20 s ... (core/backoff.ts), at most 30 min; a rate limit's Retry-After is a floor under that cap. */
export function retryDelayMs(attempts: number, error: unknown, random: () => number = Math.random): number {
  const floor = error instanceof BookingError && error.retryAfterMs !== undefined ? error.retryAfterMs : 0;
  return Math.min(Math.max(backoffMs(attempts, RETRY_BACKOFF, random), floor), MAX_DELIVERY_BACKOFF_MS);
}

type KeyOutcome = 'changed' | 'unchanged' | 'gone' | 'held' | 'retry' | 'failed';

interface BookingAnswer {
  key: string;
  /** The due rows of this appointment due() saw (besides the ones the store remembers). */
  ids: number[];
  requestedAt: number;
  /** The record; undefined with notFound. */
  raw: unknown;
  notFound: boolean;
}

interface Settled {
  outcome: KeyOutcome;
  deliveries: number[];
  unreadable?: string;
}

type Result = { ok: true; settled: Settled } | { ok: false; error: unknown };

/**
 * Settles answers in groups: every answer ready when the event loop comes round shares one
 * transaction, up to SETTLE_BUDGET_MS of work; the rest waits for the next turn, after the I/O
 * that arrived meanwhile. A commit per answer cost more than the work.
 */
function answerSettler(deps: DeliveryWorkerDeps): (answer: BookingAnswer) => Promise<Settled> {
  const queue: { answer: BookingAnswer; resolve(s: Settled): void; reject(e: unknown): void }[] = [];
  let scheduled = false;

  // Apply and "done" in one transaction: a crash leaves neither, and the appointment is simply re-read.
  function settleOne({ key, ids, requestedAt, raw, notFound }: BookingAnswer): Settled {
    let unreadable: string | undefined;
    const r = deps.deliveries.settle(
      key,
      requestedAt,
      deps.clock.now(),
      (): { value: KeyOutcome; failed?: string } => {
        if (notFound) return { value: applyNotFound(deps, key) };
        const applied = applyRecord(deps, raw, requestedAt, key);
        if (applied.kind === 'unreadable') {
          unreadable = applied.reason;
          return { value: 'failed', failed: applied.reason };
        }
        // A held one is done here too: the deletion breaker lists it and the poll re-reads it.
        const outcome = isChange(applied)
          ? applied.kind === 'out_of_scope'
            ? 'gone'
            : 'changed'
          : applied.kind === 'out_of_scope' && applied.held
            ? 'held'
            : 'unchanged';
        return { value: outcome };
      },
      ids,
    );
    return { outcome: r.value, deliveries: r.receivedAt, ...(unreadable === undefined ? {} : { unreadable }) };
  }

  function flush(): void {
    scheduled = false;
    const started = performance.now();
    const taken: typeof queue = [];
    let results: Result[];
    try {
      // Listeners (feeds, writers, activity) hear of the changes once they are committed.
      results = deps.appointments.changes.hold(() => {
        try {
          return deps.deliveries.together(() => {
            const settled: Result[] = [];
            while (queue.length && (taken.length === 0 || performance.now() - started < SETTLE_BUDGET_MS)) {
              const item = queue.shift()!;
              taken.push(item);
              settled.push({ ok: true, settled: settleOne(item.answer) });
            }
            return settled;
          });
        } catch (error) {
          // One answer failed, and the group's transaction with it (no savepoint each: they cost
          // more than the work, DeliveryStore.together): each again alone, so the others stand.
          // What the failed attempt emitted is still announced: at worst a listener finds nothing new.
          if (taken.length === 1) return [{ ok: false, error }];
          return taken.map((item): Result => {
            try {
              return { ok: true, settled: deps.deliveries.together(() => settleOne(item.answer)) };
            } catch (alone) {
              return { ok: false, error: alone };
            }
          });
        }
      });
    } catch (error) {
      for (const item of taken) item.reject(error);
      schedule();
      return;
    } finally {
      deps.receiver?.spent(performance.now() - started);
    }
    taken.forEach((item, i) => {
      const r = results[i]!;
      if (r.ok) item.resolve(r.settled);
      else item.reject(r.error);
    });
    schedule();
  }

  function schedule(): void {
    if (scheduled || queue.length === 0) return;
    scheduled = true;
    setImmediate(flush);
  }

  return (answer) =>
    new Promise((resolve, reject) => {
      queue.push({ answer, resolve, reject });
      schedule();
    });
}

export function createDeliveryWorker(deps: DeliveryWorkerDeps): Job {
  let inFlight: Promise<JobResult> | null = null;
  const settle = answerSettler(deps);

  /**
   * One re-read of the appointment settles every delivery of it that arrived before the question
   * (state, not messages: a hundred webhooks about one appointment cost one GET).
   */
  async function processKey({ key, ids }: DueAppointment): Promise<{ outcome: KeyOutcome; deliveries: number }> {
    const requestedAt = deps.clock.now();
    let raw: unknown;
    let notFound = false;
    try {
      const asked = performance.now();
      const answer = deps.booking.getAppointment(key);
      deps.receiver?.spent(performance.now() - asked);
      raw = await answer;
      deps.health.ok();
    } catch (e) {
      if (isNotFound(e)) {
        deps.health.ok();
        notFound = true;
      } else {
        const message = errorMessage(e);
        if (!(e instanceof BookingError) || e.kind !== 'invalid') deps.health.failed(message);
        const retried = deps.deliveries.retry(
          key,
          requestedAt,
          message,
          (attempts) => deps.clock.now() + retryDelayMs(attempts, e, deps.random),
          ids,
        );
        deps.log.warn({ appointment: key, attempts: retried.attempts + 1, err: message }, 'delivery not applied; will retry');
        return { outcome: 'retry', deliveries: retried.deliveries };
      }
    }
    const settled = await settle({ key, ids, requestedAt, raw, notFound });
    if (settled.unreadable !== undefined)
      deps.log.warn({ appointment: key, reason: settled.unreadable }, 'delivery failed: the record cannot be read');
    const now = deps.clock.now();
    for (const at of settled.deliveries) deps.metrics.lag.observe(Math.max(0, now - at) / 1000);
    return { outcome: settled.outcome, deliveries: settled.deliveries.length };
  }

  async function runOnce(progress?: Progress): Promise<JobResult> {
    const tally: Record<KeyOutcome, number> = { changed: 0, unchanged: 0, gone: 0, held: 0, retry: 0, failed: 0 };
    let deliveries = 0;
    let keys = 0;
    const started = deps.clock.now();
    while (deps.clock.now() - started < MAX_RUN_MS) {
      const due = deps.deliveries.due(deps.clock.now(), SLICE);
      if (due.length === 0) break;
      let done = 0;
      let settled = 0;
      await mapLimit(due, CONCURRENCY, async (appointment) => {
        // The receiver first: webhooks being answered, or that arrived meanwhile, go ahead of this.
        await (deps.receiver?.turn() ?? yieldToIo());
        const r = await processKey(appointment);
        tally[r.outcome]++;
        deliveries += r.deliveries;
        settled += r.deliveries;
        deps.metrics.processed.inc({ outcome: r.outcome }, r.deliveries);
        progress?.(++done, due.length);
      });
      keys += due.length;
      // Nothing settled although deliveries were due (each arrived after its re-read was asked, a
      // clock that went back): leave them to the next run rather than asking again at once.
      if (settled === 0) break;
    }
    housekeeping();
    if (deliveries === 0) return { status: 'success', summary: 'no pending deliveries', idle: true };
    const failed = tally.retry + tally.failed + tally.held;
    const summary =
      `${deliveries} deliver${deliveries === 1 ? 'y' : 'ies'} for ${keys} appointment${keys === 1 ? '' : 's'}: ` +
      `${tally.changed} changed, ${tally.gone} gone, ${tally.unchanged} unchanged` +
      (tally.held ? `, ${tally.held} held by the deletion breaker` : '') +
      (tally.retry ? `, ${tally.retry} to retry` : '') +
      (tally.failed ? `, ${tally.failed} unreadable` : '');
    return { status: 'success', summary, failed };
  }

  // Every 2 s: from counters and the index of pending rows, never a pass over the table. Pruning is
  // the retention job's (src/sync/retention.ts).
  function housekeeping(): void {
    const counts = deps.deliveries.counts();
    const now = deps.clock.now();
    deps.metrics.pending.set(counts.pending);
    deps.metrics.oldestPending.set(counts.oldestPendingAt === null ? 0 : Math.max(0, now - counts.oldestPendingAt) / 1000);
  }

  return {
    name: 'deliveries',
    schedule: { everyMs: 2000 },
    leaseMs: 5 * 60_000,
    // A second caller in this process joins the run in flight instead of starting another.
    run(progress) {
      inFlight ??= runOnce(progress).finally(() => {
        inFlight = null;
      });
      return inFlight;
    },
  };
}
