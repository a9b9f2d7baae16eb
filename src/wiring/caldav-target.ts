// A CalDAV server as a calendar target: its connection (one pacer for the writer and the reverse
// sync) and its adapter. Behaviour is the builder's (sync/target/build-target.ts).
import { messagesOf } from '../config/voice.ts';
import type { CalDavConfig } from '../config/schema.ts';
import { resourceKeyOf, type CalendarObject } from '../caldav/caldav-target.ts';
import { desiredObject, mirrorMapping } from '../caldav/desired-object.ts';
import { CALDAV_AUTH_WARNING, caldavBodyFacts, caldavWords, setupWarning } from '../caldav/target-words.ts';
import type { RetryPolicy } from '../net/retry-policy.ts';
import type { ApplyDeps } from '../sync/apply-record.ts';
import { mappedCalendars } from '../sync/reverse-sync.ts';
import type { TargetAccount, TargetAdapter } from '../sync/target/adapter.ts';
import { connectCalDav } from './caldav-connection.ts';
import type { Part } from './part.ts';
import type { Services } from './services.ts';
import { targetPart, type TargetPartOptions } from './target-part.ts';

export function caldavTarget(
  s: Services,
  cfg: CalDavConfig,
  apply: ApplyDeps,
  options: TargetPartOptions & { retry?: RetryPolicy } = {},
): Part {
  const zone = s.config.booking.timezone;
  const caldav = connectCalDav({
    config: cfg,
    zone,
    clock: s.clock,
    metrics: s.metrics,
    ...(options.retry ? { retry: options.retry } : {}),
  });
  const messages = messagesOf(s.config);
  const mapping = mirrorMapping(cfg, messages);
  const calendars = mappedCalendars(mapping);
  const account: TargetAccount = {
    kind: 'caldav',
    name: 'default',
    calendars,
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
