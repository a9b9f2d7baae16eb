// Reverse sync as a part of the daemon: moves and deletions made in Google go back to the booking
// service (contract §2 google.reverse_sync, §3 /google/notifications, §4).
// Jobs: `reverse-sync` (one round per schedule, woken early by push), `reschedules` (sends what a
// round recorded), `google-channels` (push channels, only with an https public_url).
import type { Context } from '../context.ts';
import type { Part, Readiness } from '../part.ts';
import type { Job, JobResult } from '../jobs/job.ts';
import { systemClock } from '../core/clock.ts';
import { errorMessage } from '../core/errors.ts';
import { readerOptions } from '../core/reader.ts';
import { createGoogleAuth } from '../google/auth.ts';
import { createCalendarAdapter } from '../google/calendar-adapter.ts';
import { Pacer } from '../google/pacer.ts';
import { calendarApiOf } from '../google/google-part.ts';
import type { CalendarApi } from '../google/port.ts';
import type { RetryPolicy } from '../google/retry.ts';
import { maintainChannels } from '../google/reverse/channels.ts';
import { GoogleLinkStore } from '../store/google-link-store.ts';
import { RescheduleStore } from '../store/reschedule-store.ts';
import { ChannelStore } from '../store/channel-store.ts';
import { googleNotificationRoutes } from '../http/google-notification-routes.ts';
import { calendarRound, mappedCalendars, type CalendarRound, type ReverseDeps } from './reverse-sync.ts';
import { processDue, type ProcessResult, type RescheduleDeps } from './reschedule.ts';
import { createReverseMetrics } from './reverse-metrics.ts';
import { reverseStatus, type RoundState } from './reverse-status.ts';

export const REVERSE_JOB = 'reverse-sync';
export const RESCHEDULES_JOB = 'reschedules';
export const CHANNELS_JOB = 'google-channels';

export interface ReversePartOptions {
  /** Replaces the Google adapter (tests); by default one is built from google.credentials. */
  api?: CalendarApi;
  retry?: RetryPolicy;
  reschedulesIntervalMs?: number;
  channelsIntervalMs?: number;
  channelTtlMs?: number;
}

export function createReverseSyncPart(ctx: Context, options: ReversePartOptions = {}): Part | undefined {
  const g = ctx.config.google;
  if (!g || !g.enabled || !g.reverse_sync.enabled) return undefined;
  const rs = g.reverse_sync;
  const { clock, db } = ctx;
  const log = ctx.log.child({ part: 'reverse-sync' });
  const metrics = createReverseMetrics(ctx.metrics);
  const pushUrl = new URL('google/notifications', ctx.config.server.public_url.replace(/\/?$/, '/')).toString();
  const push = rs.push_notifications && pushUrl.startsWith('https://');

  let api = options.api;
  const getApi = (): CalendarApi =>
    (api ??=
      calendarApiOf(ctx)?.() ??
      createCalendarAdapter({
        auth: createGoogleAuth(g, ctx.kv).client,
        apiRoot: g.api_root,
        pacer: new Pacer(g.requests_per_minute, systemClock),
        clock: systemClock,
        ...(options.retry ? { policy: options.retry } : {}),
      }));

  const links = new GoogleLinkStore(db, clock);
  const actions = new RescheduleStore(db, clock);
  const channels = new ChannelStore(db, clock);
  const calendars = mappedCalendars(g);
  // Kept in the database, so a one-shot `status` shows what the daemon's last round did.
  const ROUND_KEY = 'reverse_sync.last_round';
  const loadRound = (): RoundState => ctx.cursors.get<RoundState>(ROUND_KEY) ?? { lastAt: null, lastOkAt: null, lastError: null, calendars: [] };

  const reverseDeps = (): ReverseDeps => ({
    api: getApi(), google: g, db, log, clock, cursors: ctx.cursors, appointments: ctx.appointments, links, actions, metrics, wake: ctx.wake,
  });
  const rescheduleDeps = (): RescheduleDeps => ({
    booking: ctx.booking,
    apply: { appointments: ctx.appointments, reader: readerOptions(ctx.config.booking), filters: ctx.config.poll.filters },
    reader: readerOptions(ctx.config.booking),
    links, actions, clock, log, metrics, onConflict: rs.on_conflict, sendEmail: rs.send_email, wake: ctx.wake,
  });

  const reverseJob: Job = {
    name: REVERSE_JOB,
    schedule: rs.schedule,
    async run(): Promise<JobResult> {
      const round = loadRound();
      round.lastAt = clock.now();
      const results: CalendarRound[] = [];
      const errors: string[] = [];
      for (const calendarId of calendars) {
        try {
          results.push(await calendarRound(reverseDeps(), calendarId));
        } catch (e) {
          errors.push(`${calendarId}: ${errorMessage(e)}`);
        }
      }
      round.calendars = results;
      round.lastError = errors.length ? errors.join('; ') : null;
      if (!errors.length) round.lastOkAt = clock.now();
      ctx.cursors.set(ROUND_KEY, round);
      metrics.pending.set(actions.counts().pending);
      const moves = results.reduce((n, r) => n + (r.acted.reschedule ?? 0), 0);
      const held = results.reduce((n, r) => n + r.held, 0);
      const summary = `${results.reduce((n, r) => n + r.changes, 0)} changes read, ${moves} moves found${held ? `, ${held} deletions held by the breaker` : ''}${errors.length ? `; ${round.lastError}` : ''}`;
      if (errors.length === calendars.length && calendars.length > 0) return { status: 'failed', summary };
      return { status: 'success', summary, failed: errors.length + held };
    },
  };

  // A round wakes this job at once, so an explicit run right after it (`sync`) may find nothing
  // left to send: it then reports what the woken run did.
  let unreported: ProcessResult | null = null;
  const reschedulesJob: Job = {
    name: RESCHEDULES_JOB,
    schedule: { everyMs: options.reschedulesIntervalMs ?? 10_000 },
    async run(): Promise<JobResult> {
      let r = await processDue(rescheduleDeps());
      metrics.pending.set(actions.counts().pending);
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

  const channelsJob: Job = {
    name: CHANNELS_JOB,
    schedule: { everyMs: options.channelsIntervalMs ?? 3_600_000 },
    inSync: false,
    async run(): Promise<JobResult> {
      const r = await maintainChannels({
        api: getApi(), store: channels, clock, log, address: pushUrl, calendars, ...(options.channelTtlMs ? { ttlMs: options.channelTtlMs } : {}),
      });
      metrics.channels.set(channels.activeCount());
      const summary = `${r.opened} opened, ${r.stopped} stopped${r.errors.length ? `; ${r.errors.join('; ')}` : ''}`;
      return { status: r.errors.length ? 'failed' : 'success', summary };
    },
  };

  return {
    name: 'reverse_sync',
    jobs: push ? [reverseJob, reschedulesJob, channelsJob] : [reverseJob, reschedulesJob],
    routes(app) {
      googleNotificationRoutes(app, { channels, clock, wake: () => ctx.wake(REVERSE_JOB) });
    },
    async start() {
      if (rs.push_notifications && !push) log.warn({ public_url: ctx.config.server.public_url }, 'Google push notifications need an https public_url; the scheduled reverse sync runs alone');
      if (push) ctx.wake(CHANNELS_JOB);
      ctx.wake(REVERSE_JOB);
    },
    status: () => reverseStatus({ round: loadRound(), actions, channels, push, pushUrl, calendars, config: rs, clock }),
    readiness(): Readiness {
      const round = loadRound();
      const warnings: string[] = [];
      const held = round.calendars.reduce((n, r) => n + r.held, 0);
      if (held) warnings.push(`reverse sync: ${held} deletions in Google held by the breaker; nothing was cancelled at the booking service; if they are real, run \`calbridge sync --allow-mass-changes\` once`);
      if (push && channels.activeCount() === 0) warnings.push('reverse sync: no Google push channel is open; changes are picked up on the schedule only');
      const failed = actions.counts().failed;
      if (failed) warnings.push(`reverse sync: ${failed} moves could not be sent to the booking service (see status)`);
      if (round.lastError) warnings.push(`reverse sync: last round failed: ${round.lastError}`);
      return { reasons: [], warnings };
    },
  };
}
