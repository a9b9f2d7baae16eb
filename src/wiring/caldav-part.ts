// CalDAV as a part of the daemon (docs/reference/configuration.md, "caldav"): the same writer, reverse sync, breakers
// and pacing as Google, through the one calendar target port, over the CalDAV target's own links
// and reverse-sync actions. Jobs: `caldav-writer`, `caldav-reverse-sync`, `caldav-reschedules`.
import { messagesOf } from '../config/voice.ts';
import type { CalDavConfig } from '../config/schema.ts';
import type { Appointment } from '../core/appointment.ts';
import { madeIn, targetPlace, type ActivityFact } from '../core/activity-words.ts';
import type { Readiness } from '../core/readiness.ts';
import type { Job } from '../jobs/job.ts';
import { AUTH_HELP } from '../caldav/errors.ts';
import { resourceKeyOf, type CalendarObject } from '../caldav/caldav-target.ts';
import { desiredObject, mirrorMapping } from '../caldav/desired-object.ts';
import type { RetryPolicy } from '../net/retry-policy.ts';
import type { ApplyDeps } from '../sync/apply-record.ts';
import { MirrorWriter } from '../sync/mirror-writer.ts';
import { readinessWindowMs } from '../sync/readiness-window.ts';
import type { RescheduleDeps } from '../sync/reschedule.ts';
import { createReverseMetrics } from '../sync/reverse-metrics.ts';
import { reverseStatus } from '../sync/reverse-status.ts';
import { mappedCalendars, type ReverseDeps } from '../sync/reverse-sync.ts';
import { connectCalDav, type CalDavSetupProblem } from './caldav-connection.ts';
import { caldavForRun } from './held-target.ts';
import type { Part } from './part.ts';
import { loadRound, reschedulesJob, reverseRoundJob } from './reverse-jobs.ts';
import { followChanges, probeAfterMs, silenceOf, writerCounting, writerFacts, writerJob } from './writer-job.ts';
import type { Services } from './services.ts';

// Kept in the database, so a one-shot `status` shows what the daemon's last pass and round did.
const STATE_KEY = 'caldav.writer';
const ROUND_KEY = 'caldav.reverse_sync.last_round';
/** A calendar's cursor: a sync token, or the previous ETag listing where the server has none. */
const caldavCursorKey = (calendarId: string) => `caldav.reverse.cursor:${calendarId}`;

/** The readiness warning: our words only (the server's listing stays in status). */
function setupWarning(p: CalDavSetupProblem): string {
  return p.kind === 'not_caldav'
    ? 'CalDAV: caldav.url does not lead to a CalDAV server, so nothing is written to the CalDAV calendar (details in status: caldav.setup_problem)'
    : `CalDAV: the calendar "${p.calendar}" of caldav.calendars is not one of the account's calendars, so nothing is written to it (details in status: caldav.setup_problem)`;
}

export interface CalDavPartOptions {
  /** Retries of one request (tests: fast). */
  retry?: RetryPolicy;
  /** Backoff of an appointment whose write failed (tests: none). */
  itemBackoff?: { baseMs: number; maxMs: number };
}

export function createCalDavPart(s: Services, cfg: CalDavConfig, apply: ApplyDeps, options: CalDavPartOptions = {}): Part {
  const { metrics, clock, caldavLinks: links, caldavActions: actions } = s;
  const rs = cfg.reverse_sync;
  const log = s.log.child({ module: 'caldav' });
  // In a dry run, the same connection with every write held back (wiring/held-target.ts).
  const caldav = caldavForRun(connectCalDav({ config: cfg, zone: s.config.booking.timezone, clock, metrics, ...(options.retry ? { retry: options.retry } : {}) }), s);
  const mapping = mirrorMapping(cfg, messagesOf(s.config));
  const calendars = mappedCalendars(mapping);
  const desire = (a: Appointment, revision: number, gone: boolean) =>
    desiredObject(a, revision, gone, mapping, s.appointments.get(a.key)?.changedAt ?? clock.now());

  // Its writes are not told one by one; a backfill is, in one entry.
  const counting = writerCounting(metrics, 'caldav', 'CalDAV object', { backfill: () => s.activity.backfillEntry(targetPlace('caldav', calendars, messagesOf(s.config))) });
  // People's changes made here are told as made in the CalDAV calendar.
  const activity = { record: (f: ActivityFact) => s.activity.record(madeIn(f, 'caldav')) };
  const reverseMetrics = createReverseMetrics(metrics, { name: 'a CalDAV calendar', prefix: 'caldav_' });

  const silence = silenceOf(clock, () => caldav.lastSuccessAt());
  const writer = new MirrorWriter<CalendarObject>({
    passBudgetMs: 45_000,
    clock,
    log,
    appointments: s.appointments,
    links,
    target: () => caldav.target,
    desire,
    idOf: resourceKeyOf,
    breakerShare: cfg.breaker_share,
    ...(rs.enabled ? { reverse: { actions, deletions: rs.on_delete !== 'ignore', wake: () => s.wake('caldav-reverse-sync') } } : {}),
    ...(options.itemBackoff ? { itemBackoff: options.itemBackoff } : {}),
    hooks: counting.hooks,
  });
  const window = readinessWindowMs(s.config.poll.schedule);
  const wakeWriter = () => s.wake('caldav-writer');

  const writing = writerJob({
    name: 'caldav-writer',
    writer,
    counting,
    stateKey: STATE_KEY,
    cursors: s.cursors,
    wake: wakeWriter,
    // Without the reverse sync's rounds, nothing asks the server while nothing changes: one cheap request keeps readiness honest.
    probe: () => silence() > probeAfterMs(window) && !rs.enabled ? caldav.api.findCalendar(calendars[0]!) : undefined,
  });

  const reverseDeps = (): ReverseDeps<CalendarObject> => ({
    target: caldav.target,
    desire,
    onDelete: rs.on_delete,
    breakerShare: cfg.breaker_share,
    atomic: s.atomic,
    log,
    clock,
    cursors: s.cursors,
    cursorKey: caldavCursorKey,
    appointments: s.appointments,
    links,
    actions,
    metrics: reverseMetrics,
    wakeWriter,
    wakeReschedules: () => s.wake('caldav-reschedules'),
    activity,
  });
  const rescheduleDeps: RescheduleDeps = {
    booking: s.booking,
    apply,
    reader: apply.reader,
    links,
    actions,
    clock,
    log,
    metrics: reverseMetrics,
    onConflict: rs.on_conflict,
    // CalDAV has no send_email: a cancellation made in a calendar app is not announced to the client.
    sendEmail: false,
    wakeWriter,
    activity,
  };
  const round = () => loadRound(s.cursors, ROUND_KEY);
  const reverseJobs: Job[] = rs.enabled
    ? [
        reverseRoundJob({ name: 'caldav-reverse-sync', schedule: rs.schedule, calendars, deps: reverseDeps, roundKey: ROUND_KEY, cursors: s.cursors, actions, metrics: reverseMetrics, clock }),
        reschedulesJob({ name: 'caldav-reschedules', deps: rescheduleDeps, actions, metrics: reverseMetrics }),
      ]
    : [];

  const unsubscribe = followChanges(s.appointments, writer, wakeWriter);
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

  return {
    name: 'caldav',
    jobs: [writing, ...reverseJobs],
    async start() {
      if (rs.enabled) s.wake('caldav-reverse-sync');
    },
    async stop() {
      unsubscribe();
    },
    status() {
      const { state, counts } = writerFacts({ writer, links, cursors: s.cursors, stateKey: STATE_KEY });
      return {
        enabled: true,
        url: cfg.url,
        calendars,
        auth: { ok: state.authError === null, error: state.authError },
        ...counts,
        lastPassAt: iso(state.lastPassAt),
        lastSuccessAt: iso(caldav.lastSuccessAt()),
        lastError: state.lastError,
        // A mistake in the caldav section (a calendar not on the server, a URL that is no CalDAV server).
        setup_problem: caldav.setupProblem(),
        breaker: state.breaker,
        requestsPerMinute: cfg.requests_per_minute,
        reverse_sync: rs.enabled ? reverseStatus({ round: round(), actions, calendars, config: rs, clock }) : { enabled: false },
      };
    },
    // Only warnings: feeds, webhooks and Google work without the CalDAV server. The server's own
    // text (which can name the account) stays in status (caldav.lastError).
    readiness(): Readiness {
      const warnings: string[] = [];
      const writing = writer.status();
      const setup = caldav.setupProblem();
      if (writing.authError) warnings.push(`CalDAV: the server refused the username and password; ${AUTH_HELP}`);
      else if (setup) warnings.push(setupWarning(setup));
      else if (silence() > window) {
        warnings.push(`the CalDAV server has not answered successfully for over ${Math.round(window / 60_000)} minutes (details in status: caldav.lastError)`);
      }
      if (writing.breaker) {
        warnings.push(`CalDAV breaker: ${writing.breaker.deletes} deletions of ${writing.breaker.mirrored} mirrored events held; check the booking service, and if they are real run \`calbridge sync --allow-mass-changes\` once`);
      }
      if (rs.enabled) {
        const last = round();
        const held = last.calendars.reduce((n, r) => n + r.held, 0);
        if (held) warnings.push(`CalDAV reverse sync: ${held} deletions held by the breaker; nothing was cancelled at the booking service; if they are real, run \`calbridge sync --allow-mass-changes\` once`);
        const failed = actions.failedCount();
        if (failed) warnings.push(`CalDAV reverse sync: ${failed} moves could not be sent to the booking service (see status)`);
        if (last.lastError) warnings.push('CalDAV reverse sync: the last round failed for at least one calendar (details in status: caldav.reverse_sync)');
      }
      return { reasons: [], warnings };
    },
  };
}
