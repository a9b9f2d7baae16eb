// The one way to the CalDAV server: one adapter, one pacer (caldav.requests_per_minute), so the
// writer and the reverse sync share the server's patience and every request is counted once.
import type { CalDavConfig } from '../config/schema.ts';
import { systemClock, type Clock } from '../core/clock.ts';
import type { CalendarTarget } from '../core/mirror/target.ts';
import type { Metrics } from '../metrics.ts';
import { Pacer } from '../net/pacer.ts';
import type { RetryPolicy } from '../net/retry-policy.ts';
import type { ResolveHost } from '../net/address-guard.ts';
import { createCalDavClient } from '../caldav/client.ts';
import { createCalDavTarget, type CalendarObject } from '../caldav/caldav-target.ts';
import { CalDavError } from '../caldav/errors.ts';
import type { CalDavApi } from '../caldav/port.ts';
import type { CalDavSetupProblem } from '../caldav/target-words.ts';

export interface CalDavConnection {
  api: CalDavApi;
  /** The same adapter as the mirror core's calendar target (the writer's and the reverse sync's). */
  target: CalendarTarget<CalendarObject>;
  /** When the server last answered a request as asked, in this process. */
  lastSuccessAt(): number | null;
  /** The last lookup of a configured calendar found a setup mistake (null once a lookup works). */
  setupProblem(): CalDavSetupProblem | null;
}

export interface CalDavConnectionDeps {
  config: Omit<CalDavConfig, 'accounts'>;
  /** booking.timezone: floating times and all-day dates an app wrote are read in it. */
  zone: string;
  clock: Clock;
  metrics: Metrics;
  /** Faster retries (tests). */
  retry?: RetryPolicy;
  /** 'public' for an account connected by a link (caldav/client.ts); 'any' for one of the config. */
  addresses: 'public' | 'any';
  resolve?: ResolveHost;
}

export function connectCalDav(deps: CalDavConnectionDeps): CalDavConnection {
  const { config, clock } = deps;
  const calls = deps.metrics.counter('caldav_calls_total', 'CalDAV requests by method and outcome', ['op', 'outcome']);
  let lastSuccessAt: number | null = null;
  const client = createCalDavClient({
    url: config.url,
    username: config.username,
    password: config.password,
    pacer: new Pacer(config.requests_per_minute, systemClock),
    ...(deps.retry ? { policy: deps.retry } : {}),
    addresses: deps.addresses,
    ...(deps.resolve ? { resolve: deps.resolve } : {}),
    onCall: (op, outcome) => {
      calls.inc({ op, outcome });
      if (outcome === 'ok') lastSuccessAt = clock.now();
    },
  });
  // Per configured calendar: a fixed one clears its own problem, not another's.
  const problems = new Map<string, CalDavSetupProblem>();
  const api: CalDavApi = {
    ...client,
    async findCalendar(calendar) {
      try {
        const found = await client.findCalendar(calendar);
        problems.delete(calendar);
        return found;
      } catch (e) {
        if (e instanceof CalDavError && (e.kind === 'calendar_not_found' || e.kind === 'not_caldav')) {
          problems.set(calendar, { kind: e.kind, calendar, message: e.message });
        }
        throw e;
      }
    },
  };
  return {
    api,
    target: createCalDavTarget({ api, zone: deps.zone }),
    lastSuccessAt: () => lastSuccessAt,
    setupProblem: () => problems.values().next().value ?? null,
  };
}
