// One Google account as a calendar target: its connection (one auth, one pacer for its writer and
// its reverse sync), its adapter, and what only Google has: push channels, which the one
// notification route reaches through the account's push receiver (wiring/target-accounts.ts).
import { messagesOf } from '../config/voice.ts';
import type { NamedAccount } from '../config/accounts.ts';
import type { GoogleConfig } from '../config/schema.ts';
import { desiredEvent, type EventBody } from '../core/mirror/desired-event.ts';
import { AUTH_HELP } from '../google/errors.ts';
import { channelsJob } from '../google/reverse/channels-job.ts';
import { googleBodyFacts, googleWords, NO_PUSH_CHANNEL } from '../google/target-words.ts';
import { storedRefreshTokens, type RefreshTokens } from '../google/auth.ts';
import { withLabels } from '../metrics.ts';
import type { RetryPolicy } from '../net/retry-policy.ts';
import type { ApplyDeps } from '../sync/apply-record.ts';
import { mappedCalendars } from '../sync/reverse-sync.ts';
import { accountId, targetJobs, type TargetAccount, type TargetAdapter } from '../sync/target/adapter.ts';
import { connectGoogle } from './google-connection.ts';
import type { Part } from './part.ts';
import type { Services } from './services.ts';
import { targetPart, type TargetPartOptions } from './target-part.ts';

/** A Google account: from the config (`google.accounts[]` or the single form), or connected on the web with its own token store. */
export interface GoogleAccountSpec extends NamedAccount<GoogleConfig> {
  /** Where its refresh token lives; default: the database's kv table, where `google auth --account` stores it. */
  tokens?: RefreshTokens;
}

export function googleTarget(
  s: Services,
  spec: GoogleAccountSpec,
  apply: ApplyDeps,
  options: TargetPartOptions & { retry?: RetryPolicy } = {},
): Part {
  const cfg = spec.config;
  const id = accountId({ kind: 'google', name: spec.name });
  const metrics = withLabels(s.metrics, { account: id });
  const google = connectGoogle({
    config: cfg,
    account: id,
    tokens: spec.tokens ?? storedRefreshTokens(s.kv, cfg, spec.name),
    // An account connected on the web is in no config: a new invite signs it in, not `google auth`.
    authCommand: spec.connected
      ? `calbridge connections remove google.${spec.name}\` and \`calbridge connect invite --target google --name ${spec.name}`
      : spec.name === 'default'
        ? 'calbridge google auth'
        : `calbridge google auth --account ${spec.name}`,
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
    name: spec.name,
    ...(spec.connected ? { connected: true } : {}),
    calendars,
    calendarKeys: mapping.calendars.map((c) => c.calendar_key),
    requests_per_minute: cfg.requests_per_minute,
    breaker_share: cfg.breaker_share,
    reverse_sync: rs,
  };
  const pushUrl = rs.push_url ?? new URL('google/notifications', s.config.server.public_url.replace(/\/?$/, '/')).toString();
  const push = rs.enabled && rs.push_notifications && pushUrl.startsWith('https://');
  const { clock } = s;
  const { channels } = s.targetStores(id);
  const jobs = targetJobs(account);

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

  const log = s.log.child({ module: 'google', ...(spec.name === 'default' ? {} : { account: id }) });
  const active = metrics.gauge('reverse_channels_active', 'Google push channels open');
  // A labelled series shows only once set: the account's count from the start.
  active.set(channels.activeCount());
  const channelJob = channelsJob(
    jobs.push,
    () => ({ api: google.api(), store: channels, clock, log, address: pushUrl, calendars }),
    active,
  );
  return {
    ...part,
    jobs: [...(part.jobs ?? []), ...(push ? [channelJob] : [])],
    push: {
      kind: 'google',
      secretOf: (channelId) => {
        const channel = channels.get(channelId);
        // Only this account's channels: another account's id is not ours to answer for.
        return channel && channel.account === id && channel.state !== 'stopped' && channel.expiration > clock.now()
          ? channel.token
          : undefined;
      },
      changed: () => s.wake(jobs.reverse),
    },
    async start() {
      if (rs.push_notifications && !push)
        log.warn(
          { public_url: s.config.server.public_url },
          'Google push notifications need an https public_url; the scheduled reverse sync runs alone',
        );
      if (push) s.wake(jobs.push);
      await part.start?.();
    },
  };
}
