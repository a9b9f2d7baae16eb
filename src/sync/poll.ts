// The poll: reconciliation for everything webhooks missed. Lists the whole window first (a failed
// listing changes nothing), trips the breaker on a suspicious one, applies every record through the
// same path as the worker, and re-reads one by one what the listing did not return (and what the
// deletion breaker holds): only a 404 or a cancelled status makes those gone. Changes no webhook
// announced are counted; records the reader refuses (an unusable key) are skipped and reported.
import { DateTime } from 'luxon';
import type { Logger } from '../log.ts';
import type { Clock } from '../core/clock.ts';
import { isCancelled } from '../core/appointment.ts';
import { errorMessage } from '../core/errors.ts';
import { appointmentKeyOf } from '../core/reader.ts';
import type { ListedRecord, ListingSpool } from '../store/listing-spool.ts';
import type { Config } from '../config/schema.ts';
import type { BookingApi, ListFilters } from '../booking/port.ts';
import { isNotFound } from '../booking/errors.ts';
import type { DeliveryStore } from '../store/delivery-store.ts';
import type { StoredAppointment } from '../store/appointment-store.ts';
import type { ActivityStore } from '../store/activity-store.ts';
import type { Job, JobResult, Progress } from '../jobs/job.ts';
import { applyNotFound, applyRecord, isChange, sourceHashOf, type ApplyDeps, type ApplyOutcome } from './apply-record.ts';
import type { BookingHealth } from './booking-health.ts';
import type { IngestMetrics } from './ingest-metrics.ts';
import { breakerVerdict } from './poll-breaker.ts';
import type { PollHistory, PollOutcome, PollReport } from './poll-history.ts';
import { pollWindow } from './poll-window.ts';
import { mapLimit } from './map-limit.ts';

const REREAD_CONCURRENCY = 4;
/** Listed records applied in one transaction at most: one commit for many rows. */
const BATCH = 500;
/**
 * And at most this long (ms) applying them: the transaction then commits and the event loop is let
 * go, so a webhook waits about this long for its acknowledgement while an import runs, never the
 * far longer time a whole batch of new rows can take (parsing, normalising, indexes, a slow disk).
 */
const BATCH_MS = 15;
const yieldToIo = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Reasons of skipped records kept in the pass's report (status shows them); the log has every one. */
const MAX_SKIPPED_SHOWN = 5;
/**
 * More new appointments than this in one pass (a first import, a widened window) are told in the
 * activity by one entry, not one each: the status page shows the latest 50, and thousands of
 * "booked" lines would push everything else off it (and cost a sixth of a large import's time).
 */
const IMPORT_ENTRY_ABOVE = 50;
// A delivery received shortly before the stored state was last confirmed still counts as announcing.
const ANNOUNCE_SLACK_MS = 60_000;

export interface PollDeps extends ApplyDeps {
  booking: BookingApi;
  deliveries: DeliveryStore;
  activity: Pick<ActivityStore, 'importEntry'>;
  health: BookingHealth;
  history: PollHistory;
  metrics: IngestMetrics;
  clock: Clock;
  log: Logger;
  poll: Config['poll'];
  timezone: string;
}

const day = (ms: number, zone: string) => DateTime.fromMillis(ms, { zone }).toFormat('yyyy-MM-dd');

async function pollOnce(deps: PollDeps, progress?: Progress): Promise<JobResult> {
  const { clock, poll } = deps;
  const startedAt = clock.now();
  // Whole seconds: the listing's offset-less filter times have no milliseconds.
  const window = pollWindow(Math.floor(startedAt / 1000) * 1000, deps.timezone, poll.past_days, poll.future_days);
  const report: PollReport = {
    startedAt,
    finishedAt: startedAt,
    outcome: 'success',
    window,
    listed: 0,
    created: 0,
    changed: 0,
    gone: 0,
    held: 0,
    unchanged: 0,
    failed: 0,
    unannounced: 0,
  };
  const finish = (outcome: PollOutcome, error?: string): JobResult => {
    report.finishedAt = clock.now();
    report.outcome = outcome;
    if (error !== undefined) report.error = error;
    deps.history.record(report);
    deps.metrics.polls.inc({ outcome });
    deps.metrics.pollDuration.observe({ outcome }, (report.finishedAt - startedAt) / 1000);
    if (outcome !== 'success') return { status: 'failed', summary: error };
    const summary =
      `listed ${report.listed} (${day(window.from, deps.timezone)} to ${day(window.to, deps.timezone)}): ` +
      `${report.created} new, ${report.changed} changed, ${report.gone} gone, ${report.unchanged} unchanged` +
      (report.held ? `, ${report.held} held by the deletion breaker` : '') +
      (report.failed ? `, ${report.failed} failed` : '') +
      (report.unannounced ? `; ${report.unannounced} not announced by any webhook` : '');
    return { status: 'success', summary, failed: report.failed + report.held };
  };

  // 1. The whole listing before any change: a listing that fails half way changes nothing. The records
  // wait on disk (a TEMP table), not in memory, until they are applied.
  const records = deps.appointments.listingSpool();
  try {
    return await pollWith(records);
  } finally {
    records.close();
  }

  async function pollWith(records: ListingSpool): Promise<JobResult> {
    // Held by the deletion breaker: applied even when listed as stored (seen alive, they are held no more).
    const heldBefore = new Set(deps.gone.held().map((h) => h.key));
    try {
      const filters: ListFilters = { ...poll.filters, start_date: window.from, end_date: window.to };
      for await (const page of deps.booking.listPages(filters)) {
        const listed: ListedRecord[] = [];
        for (const raw of page) {
          const key = appointmentKeyOf(raw);
          const text = JSON.stringify(raw);
          listed.push({ key, text, hash: sourceHashOf(deps, text) });
        }
        records.add(listed, heldBefore);
        progress?.(records.count, 0);
      }
    } catch (e) {
      deps.health.failed(errorMessage(e));
      return finish('failed', `the listing failed, nothing was changed: ${errorMessage(e)}`);
    }
    deps.health.ok();
    report.listed = records.count;

    // 2. What the listing missed, and whether that looks like a broken listing.
    // Cancelled ones are re-read too: one that left poll.filters is still shown by feeds with
    // include_cancelled until it is gone. The breaker weighs the active ones only.
    const { active: stored, unlisted } = records.unlistedInWindow(window.from, window.to + 1, isCancelled);
    // Held by the deletion breaker: re-read on every pass, in the window or not, until they go through.
    // Already stopped and reported there, they do not count again towards this pass's breaker.
    const heldKeys = new Set(deps.gone.held().map((h) => h.key));
    const newlyMissing = unlisted.filter((s) => !heldKeys.has(s.key) && !isCancelled(s.status)).length;
    const verdict = breakerVerdict({ listed: records.count, stored, missing: newlyMissing, share: poll.breaker_share });
    if (verdict) {
      deps.log.warn({ listed: records.count, stored, missing: unlisted.length }, `poll stopped by the breaker: ${verdict}`);
      return finish('breaker', verdict);
    }
    // Read whole only now: a broken listing that trips the breaker would miss every stored one.
    const missing = unlisted.flatMap((s) => deps.appointments.get(s.key) ?? []);

    // 3. Apply. Changes found here that no delivery announced mean the webhook missed them.
    const baseline = deps.history.firstSuccessAt();
    const previous = deps.history.lastSuccessAt();
    const unannounced = (key: string, before: StoredAppointment | undefined): boolean => {
      if (baseline === null) return false; // the first pass is the initial load, not news
      let since: number;
      // A pass that listed it unchanged confirmed it without writing (seen_at_ms stays): the stored
      // state was true at least until the start of the previous successful pass.
      if (before) since = Math.max(before.seenAt, previous ?? 0);
      else {
        const createdAt = deps.appointments.get(key)?.appointment.createdAt ?? null;
        if (createdAt !== null && createdAt < baseline) return false; // booked before calbridge was watching
        since = createdAt ?? previous ?? baseline;
      }
      return !deps.deliveries.announced(key, since - ANNOUNCE_SLACK_MS);
    };
    const tally = (o: ApplyOutcome, before: StoredAppointment | undefined) => {
      if (o.kind === 'unreadable') {
        report.failed++;
        if ((report.skipped ??= []).length < MAX_SKIPPED_SHOWN) report.skipped.push(o.reason);
        deps.log.warn({ appointment: o.key, reason: o.reason }, 'poll: record cannot be read; skipped');
        return;
      }
      if (o.kind === 'out_of_scope' && o.held) {
        report.held++;
        return;
      }
      const kind =
        o.kind === 'created'
          ? 'created'
          : o.kind === 'out_of_scope'
            ? o.markedGone
              ? 'gone'
              : 'unchanged'
            : isChange(o)
              ? 'changed'
              : 'unchanged';
      report[kind]++;
      if (kind === 'unchanged') return;
      deps.metrics.pollChanges.inc({ kind });
      if (unannounced(o.key, before)) {
        report.unannounced++;
        deps.metrics.unannounced.inc();
      }
    };

    const missingKeys = new Set(missing.map((s) => s.appointment.key));
    // Held while the listing ran and listed as stored: re-read like the others held.
    const heldElsewhere = [...heldKeys]
      .filter((k) => (!records.listed(k) || !heldBefore.has(k)) && !missingKeys.has(k))
      .flatMap((k) => deps.appointments.get(k) ?? []);
    const reread = [...missing, ...heldElsewhere];
    const total = records.count + reread.length;
    // Only the records that differ from what is stored are read and applied (the listing kept no
    // others), in transactions of BATCH records or BATCH_MS, whichever comes first, the event loop
    // free between them: webhooks keep being acknowledged. A crash keeps whole transactions only.
    // The rest are the very record already stored: not parsed, not written.
    report.unchanged += records.same;
    let done = records.same;
    // The new ones of a bulk import: stored without an entry each; one entry tells them all below.
    const imported = records.fresh > IMPORT_ENTRY_ABOVE;
    const importEntry = imported ? deps.activity.importEntry(window, deps.timezone) : undefined;
    const apply = (text: string) => {
      const raw: unknown = JSON.parse(text);
      const key = appointmentKeyOf(raw);
      // What it was before matters only for "was it announced?", never asked on the first pass.
      const before = key === undefined || baseline === null ? undefined : deps.appointments.get(key);
      tally(applyRecord(deps, raw, startedAt, undefined, sourceHashOf(deps, text)), before);
    };
    for (const chunk of records.batches(BATCH)) {
      for (let i = 0; i < chunk.length; ) {
        const from = i;
        const t0 = performance.now();
        const created = report.created;
        deps.appointments.batch(
          () => {
            do apply(chunk[i++]!);
            while (i < chunk.length && performance.now() - t0 < BATCH_MS);
            importEntry?.stored(report.created - created);
          },
          { imported },
        );
        done += i - from;
        progress?.(done, total);
        await yieldToIo();
      }
    }
    importEntry?.done();
    await mapLimit(reread, REREAD_CONCURRENCY, async (s) => {
      const key = s.appointment.key;
      const requestedAt = clock.now();
      try {
        tally(applyRecord(deps, await deps.booking.getAppointment(key), requestedAt, key), s);
      } catch (e) {
        if (isNotFound(e)) {
          const verdict = applyNotFound(deps, key);
          if (verdict !== 'unchanged')
            tally({ kind: 'out_of_scope', key, markedGone: verdict === 'gone', held: verdict === 'held', why: 'not found' }, s);
        } else {
          report.failed++;
          deps.log.warn({ appointment: key, err: errorMessage(e) }, 'poll: re-reading a missing appointment failed; left as it is');
        }
      }
      progress?.(++done, total);
    });
    deps.gone.prune();
    return finish('success');
  }
}

export function createPollJob(deps: PollDeps): Job {
  let inFlight: Promise<JobResult> | null = null;
  return {
    name: 'poll',
    schedule: deps.poll.schedule,
    leaseMs: 30 * 60_000,
    // Never two polls at once: a second caller in this process joins the pass in flight.
    run(progress) {
      inFlight ??= pollOnce(deps, progress).finally(() => {
        inFlight = null;
      });
      return inFlight;
    },
  };
}
