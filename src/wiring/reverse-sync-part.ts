// Reverse sync as a part of the daemon: moves and deletions made in Google go back to the booking
// service (docs/reference/behaviour.md, "Moves made in a calendar" and "Deletions made in a calendar").
// Jobs: `reverse-sync` (one round per schedule, woken early by push), `reschedules` (sends what a
// round recorded), `google-channels` (push channels, only with an https public_url).
import { messagesOf } from '../config/voice.ts';
import type { GoogleConfig } from '../config/schema.ts';
import type { Readiness } from '../core/readiness.ts';
import type { Job, JobResult } from '../jobs/job.ts';
import type { ApplyDeps } from '../sync/apply-record.ts';
import { maintainChannels } from '../google/reverse/channels.ts';
import { googleNotificationRoutes } from '../http/google-notification-routes.ts';
import { desiredEvent, type EventBody } from '../core/mirror/desired-event.ts';
import { mappedCalendars, syncTokenKey, type ReverseDeps } from '../sync/reverse-sync.ts';
import type { RescheduleDeps } from '../sync/reschedule.ts';
import { createReverseMetrics } from '../sync/reverse-metrics.ts';
import { reverseStatus } from '../sync/reverse-status.ts';
import { loadRound, reschedulesJob, reverseRoundJob } from './reverse-jobs.ts';
import type { GoogleConnection } from './google-connection.ts';
import type { Part } from './part.ts';
import type { Services } from './services.ts';

// Kept in the database, so a one-shot `status` shows what the daemon's last round did.
const ROUND_KEY = 'reverse_sync.last_round';

export function createReverseSyncPart(s: Services, google: GoogleConnection, g: GoogleConfig, apply: ApplyDeps): Part {
  const rs = g.reverse_sync;
  const { clock, actions, channels } = s;
  const log = s.log.child({ module: 'reverse-sync' });
  const metrics = createReverseMetrics(s.metrics);
  const pushUrl = rs.push_url ?? new URL('google/notifications', s.config.server.public_url.replace(/\/?$/, '/')).toString();
  const push = rs.push_notifications && pushUrl.startsWith('https://');
  const calendars = mappedCalendars(g);
  const round = () => loadRound(s.cursors, ROUND_KEY);

  const reverseDeps = (): ReverseDeps<EventBody> => ({
    target: google.target(),
    desire: (a, revision, gone) => desiredEvent(a, revision, gone, { ...g, messages: messagesOf(s.config) }),
    onDelete: rs.on_delete,
    breakerShare: g.breaker_share,
    atomic: s.atomic,
    log, clock, cursors: s.cursors, cursorKey: syncTokenKey, appointments: s.appointments, links: s.links, actions, metrics,
    wakeWriter: () => s.wake('google-writer'),
    wakeReschedules: () => s.wake('reschedules'),
    activity: s.activity,
  });
  const rescheduleDeps: RescheduleDeps = {
    booking: s.booking,
    apply,
    reader: apply.reader,
    links: s.links, actions, clock, log, metrics, onConflict: rs.on_conflict, sendEmail: rs.send_email,
    wakeWriter: () => s.wake('google-writer'),
    activity: s.activity,
  };

  const reverseJob = reverseRoundJob({ name: 'reverse-sync', schedule: rs.schedule, calendars, deps: reverseDeps, roundKey: ROUND_KEY, cursors: s.cursors, actions, metrics, clock });
  const reschedules = reschedulesJob({ name: 'reschedules', deps: rescheduleDeps, actions, metrics });

  const channelsJob: Job = {
    name: 'google-channels',
    schedule: { everyMs: 3_600_000 },
    inSync: false,
    async run(): Promise<JobResult> {
      const r = await maintainChannels({ api: google.api(), store: channels, clock, log, address: pushUrl, calendars });
      metrics.channels.set(channels.activeCount());
      const summary = `${r.opened} opened, ${r.stopped} stopped${r.errors.length ? `; ${r.errors.join('; ')}` : ''}`;
      return { status: r.errors.length ? 'failed' : 'success', summary };
    },
  };

  return {
    name: 'reverse_sync',
    jobs: push ? [reverseJob, reschedules, channelsJob] : [reverseJob, reschedules],
    routes: googleNotificationRoutes({
      liveChannelToken: (id) => {
        const channel = channels.get(id);
        return channel && channel.state !== 'stopped' && channel.expiration > clock.now() ? channel.token : undefined;
      },
      wake: () => s.wake('reverse-sync'),
    }),
    async start() {
      if (rs.push_notifications && !push) log.warn({ public_url: s.config.server.public_url }, 'Google push notifications need an https public_url; the scheduled reverse sync runs alone');
      if (push) s.wake('google-channels');
      s.wake('reverse-sync');
    },
    status: () => reverseStatus({ round: round(), actions, push: { on: push, url: pushUrl, channels, configured: rs.push_notifications }, calendars, config: rs, clock }),
    // Only warnings, in our own words: a round's error names calendars (often e-mail addresses) and
    // carries Google's text, so it stays in status (reverse_sync).
    readiness(): Readiness {
      const last = round();
      const warnings: string[] = [];
      const held = last.calendars.reduce((n, r) => n + r.held, 0);
      if (held) warnings.push(`reverse sync: ${held} deletions in Google held by the breaker; nothing was cancelled at the booking service; if they are real, run \`calbridge sync --allow-mass-changes\` once`);
      if (push && channels.activeCount() === 0) warnings.push('reverse sync: no Google push channel is open; changes are picked up on the schedule only');
      const failed = actions.failedCount();
      if (failed) warnings.push(`reverse sync: ${failed} moves could not be sent to the booking service (see status)`);
      if (last.lastError) warnings.push('reverse sync: the last round failed for at least one calendar (details in status: reverse_sync)');
      return { reasons: [], warnings };
    },
  };
}
