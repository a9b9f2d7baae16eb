// One CalDAV account as a calendar target: its connection (one pacer for its writer and its reverse
// sync) and its adapter. Behaviour is the builder's (sync/target/build-target.ts).
import { messagesOf } from '../config/voice.ts';
import type { NamedAccount } from '../config/accounts.ts';
import type { CalDavConfig } from '../config/schema.ts';
import { withLabels } from '../metrics.ts';
import { resourceKeyOf, type CalendarObject } from '../caldav/caldav-target.ts';
import { desiredObject, mirrorMapping } from '../caldav/desired-object.ts';
import { CALDAV_AUTH_WARNING, caldavBodyFacts, caldavWords, setupWarning } from '../caldav/target-words.ts';
import type { RetryPolicy } from '../net/retry-policy.ts';
import type { ApplyDeps } from '../sync/apply-record.ts';
import { mappedCalendars } from '../sync/reverse-sync.ts';
import { accountId, type TargetAccount, type TargetAdapter } from '../sync/target/adapter.ts';
import { connectCalDav } from './caldav-connection.ts';
import type { Part } from './part.ts';
import type { Services } from './services.ts';
import { targetPart, type TargetPartOptions } from './target-part.ts';

export function caldavTarget(
  s: Services,
  spec: NamedAccount<CalDavConfig>,
  apply: ApplyDeps,
  options: TargetPartOptions & { retry?: RetryPolicy } = {},
): Part {
  const cfg = spec.config;
  const zone = s.config.booking.timezone;
  const caldav = connectCalDav({
    config: cfg,
    zone,
    clock: s.clock,
    metrics: withLabels(s.metrics, { account: accountId({ kind: 'caldav', name: spec.name }) }),
    ...(options.retry ? { retry: options.retry } : {}),
    // An account connected by a link reaches public addresses only, at every connection of every pass
    // (net/address-guard.ts), unless connect.caldav_private_addresses; one the admin configured, any.
    addresses: spec.connected && !s.config.connect?.caldav_private_addresses ? 'public' : 'any',
    ...(s.resolveHost ? { resolve: s.resolveHost } : {}),
  });
  const messages = messagesOf(s.config);
  const mapping = mirrorMapping(cfg, messages);
  const calendars = mappedCalendars(mapping);
  const account: TargetAccount = {
    kind: 'caldav',
    name: spec.name,
    ...(spec.connected ? { connected: true } : {}),
    calendars,
    calendarKeys: mapping.calendars.map((c) => c.calendar_key),
    requests_per_minute: cfg.requests_per_minute,
    breaker_share: cfg.breaker_share,
    reverse_sync: cfg.reverse_sync,
  };

  const adapter: TargetAdapter<CalendarObject> = {
    kind: 'caldav',
    words: caldavWords(calendars, messages),
    target: () => caldav.target,
    desire: (a, revision, gone) => desiredObject(a, revision, gone, mapping, s.appointments.get(a.key)?.changedAt ?? s.clock.now()),
    idOf: resourceKeyOf,
    lastSuccessAt: () => caldav.lastSuccessAt(),
    // Without the reverse sync's rounds, nothing asks the server while nothing changes.
    probe: () => (cfg.reverse_sync.enabled ? undefined : caldav.api.findCalendar(calendars[0]!)),
    authWarning: CALDAV_AUTH_WARNING,
    setupProblem: () => {
      const problem = caldav.setupProblem();
      return problem && { problem, warning: setupWarning(problem) };
    },
    facts: () => ({ url: cfg.url }),
    bodyFacts: (ics) => caldavBodyFacts(ics, zone),
  };
  return targetPart(s, adapter, account, apply, options);
}
