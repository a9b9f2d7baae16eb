// The reverse sync's two jobs, for any calendar target: a round over its mapped calendars (what
// people changed there, recorded), and the sending of what a round recorded to the booking service.
// Each target's part builds its own pair under its own job names.
import { errorMessage } from '../../core/errors.ts';
import type { Clock } from '../../core/clock.ts';
import type { Job, JobName, JobResult } from '../../jobs/job.ts';
import type { KvStore } from '../../store/kv-store.ts';
import type { RescheduleStore } from '../../store/reschedule-store.ts';
import { calendarRound, type CalendarRound, type ReverseDeps } from '../reverse-sync.ts';
import { processDue, type ProcessResult, type RescheduleDeps } from '../reschedule.ts';
import type { ReverseMetrics } from '../reverse-metrics.ts';
import type { RoundState } from '../reverse-status.ts';

/** The last round as saved under `key` (in the database, so a one-shot `status` shows the daemon's). */
export const loadRound = (cursors: KvStore, key: string): RoundState =>
  cursors.get<RoundState>(key) ?? { lastAt: null, lastOkAt: null, lastError: null, calendars: [] };

export interface RoundJobOptions<B> {
  name: JobName;
  schedule: string;
  calendars: readonly string[];
  /** Built per round: a target whose credentials appear while serve runs is picked up. */
  deps: () => ReverseDeps<B>;
  roundKey: string;
  cursors: KvStore;
  actions: RescheduleStore;
  metrics: ReverseMetrics;
  clock: Clock;
}

export function reverseRoundJob<B>(o: RoundJobOptions<B>): Job {
  return {
    name: o.name,
    schedule: o.schedule,
    async run(): Promise<JobResult> {
      const round = loadRound(o.cursors, o.roundKey);
      round.lastAt = o.clock.now();
      const results: CalendarRound[] = [];
      const errors: string[] = [];
      for (const calendarId of o.calendars) {
        try {
          results.push(await calendarRound(o.deps(), calendarId));
        } catch (e) {
          errors.push(`${calendarId}: ${errorMessage(e)}`);
        }
      }
      round.calendars = results;
      round.lastError = errors.length ? errors.join('; ') : null;
      if (!errors.length) round.lastOkAt = o.clock.now();
      o.cursors.set(o.roundKey, round);
      o.metrics.pending.set(o.actions.counts().pending);
      const changes = results.reduce((n, r) => n + r.changes, 0);
      const moves = results.reduce((n, r) => n + (r.acted.reschedule ?? 0), 0);
      const held = results.reduce((n, r) => n + r.held, 0);
      const summary = `${changes} changes read, ${moves} moves found${held ? `, ${held} deletions held by the breaker` : ''}${errors.length ? `; ${round.lastError}` : ''}`;
      if (errors.length === o.calendars.length && o.calendars.length > 0) return { status: 'failed', summary };
      return { status: 'success', summary, failed: errors.length + held, ...(changes === 0 && !errors.length ? { idle: true } : {}) };
    },
  };
}

export function reschedulesJob(o: { name: JobName; deps: RescheduleDeps; actions: RescheduleStore; metrics: ReverseMetrics }): Job {
  // A round wakes this job at once, so an explicit run right after it (`sync`) may find nothing
  // left to send: it then reports what the woken run did.
  let unreported: ProcessResult | null = null;
  return {
    name: o.name,
    schedule: { everyMs: 10_000 },
    async run(): Promise<JobResult> {
      let r = await processDue(o.deps);
      o.metrics.pending.set(o.actions.counts().pending);
      if (r.done + r.reverted + r.dropped + r.failed + r.retrying === 0) {
        if (!unreported) return { status: 'skipped', summary: 'nothing to send' };
        [r, unreported] = [unreported, null];
      } else {
        unreported = r;
      }
      return {
        status: 'success',
        summary: `${r.done} done, ${r.reverted} put back, ${r.dropped} dropped, ${r.failed} given up, ${r.retrying} to retry`,
        failed: r.failed + r.retrying,
      };
    },
  };
}
