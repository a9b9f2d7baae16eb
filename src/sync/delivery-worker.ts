// The delivery worker: pending deliveries, coalesced per appointment, each appointment re-read
// from the booking API (a notification is a hint) and applied. Idempotent: a repeat, or a crash
// between apply and "done", only re-reads and stores the same state again.
import type { Logger } from '../log.ts';
import type { Clock } from '../core/clock.ts';
import { errorMessage } from '../core/errors.ts';
import { backoffMs } from '../core/backoff.ts';
import type { BookingApi } from '../booking/port.ts';
import { BookingError, isNotFound } from '../booking/errors.ts';
import type { DeliveryStore, PendingDelivery } from '../store/delivery-store.ts';
import type { Job, JobResult, Progress } from '../jobs/job.ts';
import { applyNotFound, applyRecord, isChange, type ApplyDeps } from './apply-record.ts';
import type { BookingHealth } from './booking-health.ts';
import type { IngestMetrics } from './ingest-metrics.ts';
import { mapLimit } from './map-limit.ts';

const BATCH = 1000;
const yieldToIo = () => new Promise<void>((resolve) => setImmediate(resolve));
const CONCURRENCY = 4;

export interface DeliveryWorkerDeps extends ApplyDeps {
  booking: BookingApi;
  deliveries: DeliveryStore;
  health: BookingHealth;
  metrics: IngestMetrics;
  clock: Clock;
  log: Logger;
  random?: () => number;
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

export function createDeliveryWorker(deps: DeliveryWorkerDeps): Job {
  let inFlight: Promise<JobResult> | null = null;

  async function processKey(key: string, items: PendingDelivery[]): Promise<KeyOutcome> {
    const ids = items.map((d) => d.id);
    const requestedAt = deps.clock.now();
    let outcome: KeyOutcome;
    try {
      const raw = await deps.booking.getAppointment(key);
      deps.health.ok();
      const applied = applyRecord(deps, raw, requestedAt, key);
      if (applied.kind === 'unreadable') {
        deps.deliveries.markFailed(ids, applied.reason, deps.clock.now());
        deps.log.warn({ appointment: key, reason: applied.reason }, 'delivery failed: the record cannot be read');
        outcome = 'failed';
      } else {
        // A held one is done here too: the deletion breaker lists it and the poll re-reads it.
        deps.deliveries.markDone(ids, deps.clock.now(), requestedAt);
        outcome = isChange(applied) ? (applied.kind === 'out_of_scope' ? 'gone' : 'changed') : applied.kind === 'out_of_scope' && applied.held ? 'held' : 'unchanged';
      }
    } catch (e) {
      if (isNotFound(e)) {
        deps.health.ok();
        const verdict = applyNotFound(deps, key);
        deps.deliveries.markDone(ids, deps.clock.now(), requestedAt);
        outcome = verdict;
      } else {
        const message = errorMessage(e);
        if (!(e instanceof BookingError) || e.kind !== 'invalid') deps.health.failed(message);
        const attempts = Math.max(...items.map((d) => d.attempts));
        deps.deliveries.markRetry(ids, message, deps.clock.now() + retryDelayMs(attempts, e, deps.random));
        deps.log.warn({ appointment: key, attempts: attempts + 1, err: message }, 'delivery not applied; will retry');
        return 'retry';
      }
    }
    const now = deps.clock.now();
    for (const d of items) deps.metrics.lag.observe(Math.max(0, now - d.receivedAt) / 1000);
    return outcome;
  }

  async function runOnce(progress?: Progress): Promise<JobResult> {
    const tally: Record<KeyOutcome, number> = { changed: 0, unchanged: 0, gone: 0, held: 0, retry: 0, failed: 0 };
    let deliveries = 0;
    let keys = 0;
    for (;;) {
      const due = deps.deliveries.due(deps.clock.now(), BATCH);
      if (due.length === 0) break;
      const byKey = new Map<string, PendingDelivery[]>();
      for (const d of due) byKey.set(d.appointmentKey, [...(byKey.get(d.appointmentKey) ?? []), d]);
      let done = 0;
      const total = byKey.size;
      await mapLimit([...byKey], CONCURRENCY, async ([key, items]) => {
        // Background work yields to I/O before each appointment: webhooks that arrived meanwhile are
        // read and acknowledged first, so a draining backlog does not slow the receiver's answers.
        await yieldToIo();
        const outcome = await processKey(key, items);
        tally[outcome]++;
        deps.metrics.processed.inc({ outcome }, items.length);
        progress?.(++done, total);
      });
      deliveries += due.length;
      keys += byKey.size;
      if (due.length < BATCH) break;
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
  // the retention job's (src/wiring/retention-part.ts).
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
