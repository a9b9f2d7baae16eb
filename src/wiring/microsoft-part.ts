// Microsoft 365 / Outlook.com as a part of the daemon: the same writer, reverse sync, breakers and
// mirror rules as Google and CalDAV, through the one calendar target port over the Graph adapter
// (src/microsoft/), over its own links (microsoft_links) and reverse-sync actions. Jobs:
// `microsoft-writer`, `microsoft-reverse-sync` (delta queries), `microsoft-reschedules`, and, with an
// https public_url, `microsoft-subscriptions` (one Graph subscription per mapped calendar, renewed
// before half its life is gone). Routes: POST /microsoft/notifications and /microsoft/lifecycle.
import type { MicrosoftConfig } from '../config/schema.ts';
import type { Appointment } from '../core/appointment.ts';
import { madeIn, targetPlace, type ActivityFact } from '../core/activity-words.ts';
import { errorMessage } from '../core/errors.ts';
import { desiredEvent, type EventBody, type MirrorMapping } from '../core/mirror/desired-event.ts';
import type { Readiness } from '../core/readiness.ts';
import { microsoftNotificationRoutes } from '../http/microsoft-notification-routes.ts';
import type { Job, JobResult } from '../jobs/job.ts';
import { microsoftRefreshTokenKey, refreshTokensIn, type Credentials } from '../microsoft/auth.ts';
import { connectGraph } from '../microsoft/connect.ts';
import { AUTH_HELP } from '../microsoft/errors.ts';
import { calendarRef, parseCalendarRef } from '../microsoft/graph-target.ts';
import { readNotices, renew, renewalDue, subscribe, type SubscriptionRecord } from '../microsoft/subscriptions.ts';
import type { RetryPolicy } from '../net/retry-policy.ts';
import { GoogleLinkStore } from '../store/google-link-store.ts';
import { GraphIdStore } from '../store/graph-id-store.ts';
import { RescheduleStore } from '../store/reschedule-store.ts';
import type { ApplyDeps } from '../sync/apply-record.ts';
import { captureTarget } from '../sync/dry-run/capture-target.ts';
import { MirrorWriter } from '../sync/mirror-writer.ts';
import { readinessWindowMs } from '../sync/readiness-window.ts';
import type { RescheduleDeps } from '../sync/reschedule.ts';
import { createReverseMetrics } from '../sync/reverse-metrics.ts';
import { reverseStatus } from '../sync/reverse-status.ts';
import { mappedCalendars, type ReverseDeps } from '../sync/reverse-sync.ts';
import { googleBodyFacts } from './held-target.ts';
import type { Part } from './part.ts';
import { loadRound, reschedulesJob, reverseRoundJob } from './reverse-jobs.ts';
import type { Services } from './services.ts';
import { followChanges, probeAfterMs, silenceOf, writerCounting, writerFacts, writerJob } from './writer-job.ts';

// Kept in the database, so a one-shot `status` shows what the daemon's last pass and round did.
const STATE_KEY = 'microsoft.writer';
const ROUND_KEY = 'microsoft.reverse_sync.last_round';
const SUBSCRIPTIONS_KEY = 'microsoft.subscriptions';
/** A calendar's cursor: the deltaLink of its last round. */
const microsoftCursorKey = (calendarId: string) => `microsoft.reverse.cursor:${calendarId}`;
/** Our id of an appointment's event: the key, and a generation suffix should one ever be needed. */
const idOf = (key: string, generation: number) => (generation === 0 ? key : `${key}-${generation}`);
const DAY = 86_400_000;

export interface MicrosoftPartOptions {
  retry?: RetryPolicy;
  itemBackoff?: { baseMs: number; maxMs: number };
}

/** The mapping in the mirror core's words: a calendar is "{user}/{calendar}". */
function microsoftMapping(cfg: MicrosoftConfig): MirrorMapping {
  return { ...cfg, calendars: cfg.calendars.map((c) => ({ calendar_key: c.calendar_key, calendar_id: calendarRef(c.user, c.calendar) })) };
}

export function createMicrosoftPart(s: Services, cfg: MicrosoftConfig, apply: ApplyDeps, options: MicrosoftPartOptions = {}): Part {
  const { metrics, clock } = s;
  const rs = cfg.reverse_sync;
  const log = s.log.child({ module: 'microsoft' });
  const links = new GoogleLinkStore(s.db, clock, 'microsoft_links');
  const actions = new RescheduleStore(s.db, clock, 'microsoft');
  const mapping = microsoftMapping(cfg);
  const calendars = mappedCalendars(mapping);
  const desire = (a: Appointment, revision: number, gone: boolean) => desiredEvent(a, revision, gone, mapping);

  const calls = metrics.counter('microsoft_calls_total', 'Microsoft Graph requests by outcome', ['outcome']);
  let lastSuccessAt: number | null = null;
  const credentials: Credentials = cfg.credentials?.client_secret
    ? { kind: 'app', clientSecret: cfg.credentials.client_secret }
    : { kind: 'delegated', refreshTokens: refreshTokensIn(s.kv, microsoftRefreshTokenKey('default'), cfg.credentials?.refresh_token) };
  const connection = connectGraph({
    authorityUrl: cfg.authority_url,
    tenant: cfg.tenant,
    graphRoot: cfg.graph_root,
    clientId: cfg.credentials?.client_id ?? '',
    credentials,
    requestsPerMinute: cfg.requests_per_minute,
    ids: new GraphIdStore(s.db),
    // The delta window is fixed by each calendar's first call: the poll's window around that moment.
    window: () => ({ start: clock.now() - s.config.poll.past_days * DAY, end: clock.now() + (s.config.poll.future_days + 1) * DAY }),
    clock,
    ...(options.retry ? { policy: options.retry } : {}),
    onCall: (_mailbox, outcome) => {
      calls.inc({ outcome });
      if (outcome === 'ok') lastSuccessAt = clock.now();
    },
  });
  // In a dry run, the same target with every write held back (wiring/held-target.ts).
  const target = s.held
    ? captureTarget('microsoft', connection.target, { body: googleBodyFacts, keyOf: (calendarId, eventId) => links.byEvent(calendarId, eventId)?.appointmentKey ?? null }, s.held)
    : connection.target;

  const counting = writerCounting(metrics, 'microsoft', 'Outlook event', { backfill: () => s.activity.backfillEntry(targetPlace('microsoft', calendars)) });
  const activity = { record: (f: ActivityFact) => s.activity.record(madeIn(f, 'microsoft')) };
  const reverseMetrics = createReverseMetrics(metrics, { name: 'Outlook', prefix: 'microsoft_' });
  const silence = silenceOf(clock, () => lastSuccessAt);
  const writer = new MirrorWriter<EventBody>({
    passBudgetMs: 45_000,
    clock,
    log,
    appointments: s.appointments,
    links,
    target: () => target,
    desire,
    idOf,
    breakerShare: cfg.breaker_share,
    ...(rs.enabled ? { reverse: { actions, deletions: rs.on_delete !== 'ignore', wake: () => s.wake('microsoft-reverse-sync') } } : {}),
    ...(options.itemBackoff ? { itemBackoff: options.itemBackoff } : {}),
    hooks: counting.hooks,
  });
  const window = readinessWindowMs(s.config.poll.schedule);
  const wakeWriter = () => s.wake('microsoft-writer');
  const writing = writerJob({
    name: 'microsoft-writer',
    writer,
    counting,
    stateKey: STATE_KEY,
    cursors: s.cursors,
    wake: wakeWriter,
    probe: () => (silence() > probeAfterMs(window) && !rs.enabled ? connection.target.calendar(calendars[0]!) : undefined),
  });

  const reverseDeps = (): ReverseDeps<EventBody> => ({
    target,
    desire,
    onDelete: rs.on_delete,
    breakerShare: cfg.breaker_share,
    atomic: s.atomic,
    log,
    clock,
    cursors: s.cursors,
    cursorKey: microsoftCursorKey,
    appointments: s.appointments,
    links,
    actions,
    metrics: reverseMetrics,
    wakeWriter,
    wakeReschedules: () => s.wake('microsoft-reschedules'),
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
    sendEmail: rs.send_email,
    wakeWriter,
    activity,
  };
  const round = () => loadRound(s.cursors, ROUND_KEY);

  // Push: Graph change notifications, only where Graph can reach us (https).
  const base = s.config.server.public_url.replace(/\/?$/, '/');
  const push = rs.enabled && rs.push_notifications && base.startsWith('https://');
  const subscriptions = () => s.cursors.get<Record<string, SubscriptionRecord>>(SUBSCRIPTIONS_KEY) ?? {};
  const saveSubscriptions = (all: Record<string, SubscriptionRecord>) => s.cursors.set(SUBSCRIPTIONS_KEY, all);
  const activeSubscriptions = gauge(metrics, subscriptions, clock);
  let subscriptionError: string | null = null;

  const subscriptionsJob: Job = {
    name: 'microsoft-subscriptions',
    schedule: { everyMs: 15 * 60_000 },
    inSync: false,
    async run(): Promise<JobResult> {
      const all = subscriptions();
      const errors: string[] = [];
      let made = 0;
      let renewed = 0;
      for (const calendarId of calendars) {
        const now = clock.now();
        try {
          const current = all[calendarId];
          if (current && current.expiresAt > now && !renewalDue(current, now)) continue;
          const next = current && current.expiresAt > now ? await renew(connection.http, parseCalendarRef(calendarId).user, current, now) : 'gone';
          if (next !== 'gone') {
            all[calendarId] = next;
            renewed++;
          } else {
            all[calendarId] = await subscribe(connection.http, connection.target, calendarId, { notificationUrl: `${base}microsoft/notifications`, lifecycleUrl: `${base}microsoft/lifecycle`, now });
            made++;
            // A new subscription knows nothing of what changed before it: read the delta now.
            s.wake('microsoft-reverse-sync');
          }
        } catch (e) {
          errors.push(`${calendarId}: ${errorMessage(e)}`);
        }
        saveSubscriptions(all);
      }
      activeSubscriptions();
      subscriptionError = errors.length ? errors.join('; ') : null;
      const summary = `${made} subscribed, ${renewed} renewed${errors.length ? `; ${subscriptionError}` : ''}`;
      return { status: errors.length ? 'failed' : 'success', summary, ...(made + renewed + errors.length === 0 ? { idle: true } : {}) };
    },
  };
  const bySubscription = (id: string) => Object.values(subscriptions()).find((x) => x.id === id);

  const reverseJobs: Job[] = rs.enabled
    ? [
        reverseRoundJob({ name: 'microsoft-reverse-sync', schedule: rs.schedule, calendars, deps: reverseDeps, roundKey: ROUND_KEY, cursors: s.cursors, actions, metrics: reverseMetrics, clock }),
        reschedulesJob({ name: 'microsoft-reschedules', deps: rescheduleDeps, actions, metrics: reverseMetrics }),
        ...(push ? [subscriptionsJob] : []),
      ]
    : [];
  const unsubscribe = followChanges(s.appointments, writer, wakeWriter);
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

  return {
    name: 'microsoft',
    jobs: [writing, ...reverseJobs],
    routes: microsoftNotificationRoutes({
      clientStateOf: (id) => bySubscription(id)?.clientState,
      readNotices,
      changed: () => s.wake('microsoft-reverse-sync'),
      lifecycle(id, event) {
        log.info({ subscription: id, event }, 'Graph lifecycle notification');
        const all = subscriptions();
        const calendarId = Object.keys(all).find((k) => all[k]!.id === id);
        if (calendarId === undefined) return;
        // missed / subscriptionRemoved: read what we may have missed now, and subscribe again;
        // reauthorizationRequired: renew now (a renewal is a reauthorization).
        if (event === 'reauthorizationRequired') all[calendarId] = { ...all[calendarId]!, createdAt: 0 };
        else delete all[calendarId];
        saveSubscriptions(all);
        if (event !== 'reauthorizationRequired') s.wake('microsoft-reverse-sync');
        s.wake('microsoft-subscriptions');
      },
    }),
    async start() {
      if (rs.enabled && rs.push_notifications && !push) log.warn({ public_url: s.config.server.public_url }, 'Graph change notifications need an https public_url; the scheduled delta queries run alone');
      if (push) s.wake('microsoft-subscriptions');
      if (rs.enabled) s.wake('microsoft-reverse-sync');
    },
    async stop() {
      unsubscribe();
    },
    status() {
      const { state, counts } = writerFacts({ writer, links, cursors: s.cursors, stateKey: STATE_KEY });
      const authError = state.authError ?? connection.authError()?.message ?? null;
      return {
        enabled: true,
        tenant: cfg.tenant,
        signIn: credentials.kind === 'app' ? 'app-only' : 'delegated',
        calendars,
        auth: { ok: authError === null, error: authError },
        ...counts,
        lastPassAt: iso(state.lastPassAt),
        lastSuccessAt: iso(lastSuccessAt),
        lastError: state.lastError,
        breaker: state.breaker,
        requestsPerMinute: cfg.requests_per_minute,
        mailboxes: [...new Set(cfg.calendars.map((c) => c.user))].map((user) => ({ user, peakInFlight: connection.http.peakInFlight(user), pausedUntil: iso(connection.http.pausedUntil(user) || null) })),
        reverse_sync: rs.enabled ? reverseStatus({ round: round(), actions, calendars, config: rs, clock }) : { enabled: false },
        push: { on: push, subscriptions: Object.values(subscriptions()).map((x) => ({ calendar: x.calendarId, expiresAt: iso(x.expiresAt) })), lastError: subscriptionError },
      };
    },
    // Only warnings: feeds, webhooks and the other targets work without Microsoft. Graph's own
    // text (which names mailboxes) stays in status (microsoft.lastError).
    readiness(): Readiness {
      const warnings: string[] = [];
      const writing = writer.status();
      if (writing.authError || connection.authError()) warnings.push(`Microsoft: the sign-in was refused; ${AUTH_HELP}`);
      else if (silence() > window) warnings.push(`Microsoft Graph has not answered successfully for over ${Math.round(window / 60_000)} minutes (details in status: microsoft.lastError)`);
      if (writing.breaker) {
        warnings.push(`Microsoft breaker: ${writing.breaker.deletes} deletions of ${writing.breaker.mirrored} mirrored events held; check the booking service, and if they are real run \`calbridge sync --allow-mass-changes\` once`);
      }
      if (rs.enabled) {
        const last = round();
        const held = last.calendars.reduce((n, r) => n + r.held, 0);
        if (held) warnings.push(`Microsoft reverse sync: ${held} deletions held by the breaker; nothing was cancelled at the booking service; if they are real, run \`calbridge sync --allow-mass-changes\` once`);
        const failed = actions.failedCount();
        if (failed) warnings.push(`Microsoft reverse sync: ${failed} moves could not be sent to the booking service (see status)`);
        if (last.lastError) warnings.push('Microsoft reverse sync: the last round failed for at least one calendar (details in status: microsoft.reverse_sync)');
      }
      if (push && subscriptionError) warnings.push('Microsoft: a Graph subscription could not be made or renewed; changes are picked up on the schedule only (details in status: microsoft.push)');
      return { reasons: [], warnings };
    },
  };
}

/** calbridge_microsoft_subscriptions_active, set after each maintenance run. */
function gauge(metrics: Services['metrics'], all: () => Record<string, SubscriptionRecord>, clock: Services['clock']): () => void {
  const g = metrics.gauge('microsoft_subscriptions_active', 'Graph change-notification subscriptions alive');
  return () => g.set(Object.values(all()).filter((x) => x.expiresAt > clock.now()).length);
}
