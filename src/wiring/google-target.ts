// Google as a calendar target: its connection (one auth, one pacer for the writer and the reverse
// sync), its adapter, and what only Google has: push channels and their notification route.
import { messagesOf } from '../config/voice.ts';
import type { GoogleConfig } from '../config/schema.ts';
import { desiredEvent, type EventBody } from '../core/mirror/desired-event.ts';
import { AUTH_HELP } from '../google/errors.ts';
import { channelsJob } from '../google/reverse/channels-job.ts';
import { googleBodyFacts, googleWords, NO_PUSH_CHANNEL } from '../google/target-words.ts';
import { googleNotificationRoutes } from '../http/google-notification-routes.ts';
import type { RetryPolicy } from '../net/retry-policy.ts';
import type { ApplyDeps } from '../sync/apply-record.ts';
import { mappedCalendars } from '../sync/reverse-sync.ts';
import type { TargetAccount, TargetAdapter } from '../sync/target/adapter.ts';
import { connectGoogle } from './google-connection.ts';
import type { Part } from './part.ts';
import type { Services } from './services.ts';
import { targetPart, type TargetPartOptions } from './target-part.ts';

export function googleTarget(
  s: Services,
  cfg: GoogleConfig,
  apply: ApplyDeps,
  options: TargetPartOptions & { retry?: RetryPolicy } = {},
): Part {
  const google = connectGoogle({
    config: cfg,
    kv: s.kv,
    clock: s.clock,
    metrics: s.metrics,
    ...(options.retry ? { retry: options.retry } : {}),
  });
  const calendars = mappedCalendars(cfg);
  const messages = messagesOf(s.config);
  const mapping = { ...cfg, messages };
  const rs = cfg.reverse_sync;
  const account: TargetAccount = {
    kind: 'google',
    name: 'default',
    calendars,
    requests_per_minute: cfg.requests_per_minute,
    breaker_share: cfg.breaker_share,
    reverse_sync: rs,
  };
  const pushUrl = rs.push_url ?? new URL('google/notifications', s.config.server.public_url.replace(/\/?$/, '/')).toString();
  const push = rs.enabled && rs.push_notifications && pushUrl.startsWith('https://');
  const { channels, clock } = s;

  const adapter: TargetAdapter<EventBody> = {
    kind: 'google',
    words: googleWords(calendars, messages),
    target: () => google.target(),
    desire: (a, revision, gone) => desiredEvent(a, revision, gone, mapping),
    lastSuccessAt: () => google.lastSuccessAt(),
    probe: () => (google.connected() ? google.api().list(calendars[0]!, { maxResults: 1 }) : undefined),
    authWarning: AUTH_HELP,
    facts: () => ({ auth_mode: google.mode(), rate_limited: google.rateLimited() }),
    push: () =>
      push
        ? { enabled: true, address: pushUrl, channels_active: channels.activeCount() }
        : { enabled: false, why: rs.push_notifications ? 'public_url is not https' : 'push_notifications is off' },
    warnings: () => (push && channels.activeCount() === 0 ? [NO_PUSH_CHANNEL] : []),
    // Calls overlap: the pacer, not one-at-a-time round trips, holds a backfill at the quota. Between
    // the schedule's passes over everything, a change is planned on its own.
    writer: { concurrency: 10, fullPassEveryMs: 4_000 },
    bodyFacts: googleBodyFacts,
  };
  const part = targetPart(s, adapter, account, apply, options);
  if (!rs.enabled) return part;

  const log = s.log.child({ module: 'google' });
  const active = s.metrics.gauge('reverse_channels_active', 'Google push channels open');
  const channelJob = channelsJob(() => ({ api: google.api(), store: channels, clock, log, address: pushUrl, calendars }), active);
  return {
    ...part,
    jobs: [...(part.jobs ?? []), ...(push ? [channelJob] : [])],
    routes: googleNotificationRoutes({
      liveChannelToken: (id) => {
        const channel = channels.get(id);
        return channel && channel.state !== 'stopped' && channel.expiration > clock.now() ? channel.token : undefined;
      },
      wake: () => s.wake('google-reverse-sync'),
    }),
    async start() {
      if (rs.push_notifications && !push)
        log.warn(
          { public_url: s.config.server.public_url },
          'Google push notifications need an https public_url; the scheduled reverse sync runs alone',
        );
      if (push) s.wake('google-channels');
      await part.start?.();
    },
  };
}
