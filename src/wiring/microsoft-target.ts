// One Microsoft 365 / Outlook.com account as a calendar target: its connection (a token source and
// one Graph lane per mailbox, shared by its writer and its delta reverse sync), its adapter, and what
// only Microsoft has: Graph subscriptions (`microsoft-subscriptions`, `microsoft.carla-subscriptions`,
// with an https public_url), which the two shared notification routes, POST /microsoft/notifications
// and /microsoft/lifecycle, reach through the account's push receiver (wiring/target-accounts.ts).
import type { NamedAccount } from '../config/accounts.ts';
import type { MicrosoftConfig } from '../config/schema.ts';
import { desiredEvent, type EventBody, type MirrorMapping } from '../core/mirror/desired-event.ts';
import { googleBodyFacts } from '../google/target-words.ts';
import { microsoftRefreshTokenKey, refreshTokensIn, type Credentials, type RefreshTokens } from '../microsoft/auth.ts';
import { withLabels } from '../metrics.ts';
import { connectGraph } from '../microsoft/connect.ts';
import { AUTH_HELP } from '../microsoft/errors.ts';
import { calendarRef } from '../microsoft/graph-target.ts';
import type { SubscriptionRecord } from '../microsoft/subscriptions.ts';
import { subscriptionsJob } from '../microsoft/subscriptions-job.ts';
import { targetPlace } from '../core/activity-words.ts';
import type { RetryPolicy } from '../net/retry-policy.ts';
import { GraphIdStore } from '../store/graph-id-store.ts';
import type { ApplyDeps } from '../sync/apply-record.ts';
import { mappedCalendars } from '../sync/reverse-sync.ts';
import { accountId, targetJobs, type TargetAccount, type TargetAdapter } from '../sync/target/adapter.ts';
import type { Part } from './part.ts';
import type { Services } from './services.ts';
import { targetPart, type TargetPartOptions } from './target-part.ts';

/** Where an account's subscriptions are kept (sync_cursors); the account `default` keeps the key it always had. */
const subscriptionsKey = (name: string) => (name === 'default' ? 'microsoft.subscriptions' : `microsoft.${name}.subscriptions`);
/** Our id of an appointment's event: the key, and a generation suffix should one ever be needed (Graph keeps its own id beside it). */
const idOf = (key: string, generation: number) => (generation === 0 ? key : `${key}-${generation}`);
const DAY = 86_400_000;
const SUBSCRIPTION_FAILED = 'Microsoft: a Graph subscription could not be made or renewed; changes are picked up on the schedule only';

/** The mapping in the mirror core's words: a calendar is "{user}/{calendar}". */
function microsoftMapping(cfg: Omit<MicrosoftConfig, 'accounts'>): MirrorMapping {
  return { ...cfg, calendars: cfg.calendars.map((c) => ({ calendar_key: c.calendar_key, calendar_id: calendarRef(c.user, c.calendar) })) };
}

/** A Microsoft account: from the config, or connected on the web (its refresh token and web client's secret in the connect store). */
export interface MicrosoftAccountSpec extends NamedAccount<MicrosoftConfig> {
  /** Where a delegated account's refresh token lives; default: the database's kv table (`microsoft auth --account`). */
  tokens?: RefreshTokens;
  /** A web client's secret, sent with each refresh (an account connected on the web). */
  clientSecret?: string;
}

export function microsoftTarget(
  s: Services,
  spec: MicrosoftAccountSpec,
  apply: ApplyDeps,
  options: TargetPartOptions & { retry?: RetryPolicy } = {},
): Part {
  const cfg = spec.config;
  const { clock } = s;
  const id = accountId({ kind: 'microsoft', name: spec.name });
  const metrics = withLabels(s.metrics, { account: id });
  const jobs = targetJobs({ kind: 'microsoft', name: spec.name });
  const SUBSCRIPTIONS_KEY = subscriptionsKey(spec.name);
  const rs = cfg.reverse_sync;
  const mapping = microsoftMapping(cfg);
  const calendars = mappedCalendars(mapping);
  const account: TargetAccount = {
    kind: 'microsoft',
    name: spec.name,
    ...(spec.connected ? { connected: true } : {}),
    calendars,
    calendarKeys: mapping.calendars.map((c) => c.calendar_key),
    requests_per_minute: cfg.requests_per_minute,
    breaker_share: cfg.breaker_share,
    reverse_sync: rs,
  };

  const calls = metrics.counter('microsoft_calls_total', 'Microsoft Graph requests by operation and outcome', ['op', 'outcome']);
  let lastSuccessAt: number | null = null;
  const credentials: Credentials = spec.tokens
    ? { kind: 'delegated', refreshTokens: spec.tokens, ...(spec.clientSecret ? { clientSecret: spec.clientSecret } : {}) }
    : cfg.credentials?.client_secret
      ? { kind: 'app', clientSecret: cfg.credentials.client_secret }
      : {
          kind: 'delegated',
          refreshTokens: refreshTokensIn(s.kv, microsoftRefreshTokenKey(spec.name), cfg.credentials?.refresh_token),
        };
  const connection = connectGraph({
    authorityUrl: cfg.authority_url,
    tenant: cfg.tenant,
    graphRoot: cfg.graph_root,
    clientId: cfg.credentials?.client_id ?? '',
    credentials,
    requestsPerMinute: cfg.requests_per_minute,
    ids: new GraphIdStore(s.db, id),
    // The delta window is fixed by each calendar's first call: the poll's window around that moment.
    window: () => ({ start: clock.now() - s.config.poll.past_days * DAY, end: clock.now() + (s.config.poll.future_days + 1) * DAY }),
    clock,
    ...(options.retry ? { policy: options.retry } : {}),
    onCall: (_mailbox, op, outcome) => {
      calls.inc({ op, outcome });
      if (outcome === 'ok') lastSuccessAt = clock.now();
    },
  });

  // Push: Graph change notifications, only where Graph can reach us (https).
  const base = s.config.server.public_url.replace(/\/?$/, '/');
  const push = rs.enabled && rs.push_notifications && base.startsWith('https://');
  const subscriptions = () => s.cursors.get<Record<string, SubscriptionRecord>>(SUBSCRIPTIONS_KEY) ?? {};
  const saveSubscriptions = (all: Record<string, SubscriptionRecord>) => s.cursors.set(SUBSCRIPTIONS_KEY, all);
  const active = () => Object.values(subscriptions()).filter((x) => x.expiresAt > clock.now()).length;
  const activeGauge = metrics.gauge('microsoft_subscriptions_active', 'Graph change-notification subscriptions alive');
  // A labelled series shows only once set: the account's count from the start, not after its first renewal.
  activeGauge.set(active());
  let subscriptionError: string | null = null;
  const iso = (ms: number) => new Date(ms).toISOString();

  const adapter: TargetAdapter<EventBody> = {
    kind: 'microsoft',
    words: {
      name: 'Microsoft',
      server: 'Microsoft Graph',
      item: 'Outlook event',
      place: targetPlace('microsoft', calendars),
      madeIn: 'microsoft',
      reverseMetricsPrefix: 'microsoft_',
      reverseMetricsName: 'Outlook',
    },
    target: () => connection.target,
    desire: (a, revision, gone) => desiredEvent(a, revision, gone, mapping),
    idOf,
    lastSuccessAt: () => lastSuccessAt,
    // The delta rounds ask Graph anyway while the reverse sync is on.
    probe: () => (rs.enabled ? undefined : connection.target.calendar(calendars[0]!)),
    authWarning: `Microsoft: the sign-in was refused; ${AUTH_HELP}`,
    facts: () => ({
      tenant: cfg.tenant,
      sign_in: credentials.kind === 'app' ? 'app-only' : 'delegated',
      mailboxes: [...new Set(cfg.calendars.map((c) => c.user))].map((user) => {
        const paused = connection.http.pausedUntil(user);
        return { user, peak_in_flight: connection.http.peakInFlight(user), paused_until: paused ? iso(paused) : null };
      }),
    }),
    push: () =>
      push
        ? { enabled: true, address: `${base}microsoft/notifications`, channels_active: active() }
        : { enabled: false, why: rs.push_notifications ? 'public_url is not https' : 'push_notifications is off' },
    warnings: () => (push && subscriptionError ? [SUBSCRIPTION_FAILED] : []),
    bodyFacts: googleBodyFacts,
  };
  const part = targetPart(s, adapter, account, apply, options);
  if (!rs.enabled) return part;

  const log = s.log.child({ module: 'microsoft', ...(spec.name === 'default' ? {} : { account: id }) });
  const readDelta = () => s.wake(jobs.reverse);
  const maintain = subscriptionsJob({
    name: jobs.push,
    http: connection.http,
    target: connection.target,
    calendars,
    base,
    clock,
    records: subscriptions,
    save: saveSubscriptions,
    readDelta,
    onError: (error) => {
      subscriptionError = error;
      activeGauge.set(active());
    },
  });
  const bySubscription = (id: string) => Object.values(subscriptions()).find((x) => x.id === id);
  return {
    ...part,
    jobs: [...(part.jobs ?? []), ...(push ? [maintain] : [])],
    push: {
      kind: 'microsoft',
      secretOf: (subscription) => bySubscription(subscription)?.clientState,
      changed: readDelta,
      lifecycle(subscription, event) {
        log.info({ subscription, event }, 'Graph lifecycle notification');
        const all = subscriptions();
        const calendarId = Object.keys(all).find((k) => all[k]!.id === subscription);
        if (calendarId === undefined) return;
        // missed / subscriptionRemoved: read what we may have missed now, and subscribe again;
        // reauthorizationRequired: renew now (a renewal is a reauthorization).
        if (event === 'reauthorizationRequired') all[calendarId] = { ...all[calendarId]!, createdAt: 0 };
        else delete all[calendarId];
        saveSubscriptions(all);
        if (event !== 'reauthorizationRequired') readDelta();
        s.wake(jobs.push);
      },
    },
    async start() {
      if (rs.push_notifications && !push)
        log.warn(
          { public_url: s.config.server.public_url },
          'Graph change notifications need an https public_url; the scheduled delta queries run alone',
        );
      if (push) s.wake(jobs.push);
      await part.start?.();
    },
  };
}
