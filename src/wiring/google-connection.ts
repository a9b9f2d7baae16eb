// The one way to Google: one auth client, one adapter, one pacer, so the writer and the reverse sync
// share a single quota (google.requests_per_minute) and every call is counted once. Built on first
// use, not at start: credentials may appear while serve runs (`google auth`), and Google's client
// library is loaded only by work that calls Google.
import type { GoogleConfig } from '../config/schema.ts';
import { systemClock, type Clock } from '../core/clock.ts';
import type { Metrics } from '../metrics.ts';
import type { KvStore } from '../store/kv-store.ts';
import { createGoogleAuth } from '../google/auth.ts';
import { createCalendarAdapter } from '../google/calendar-adapter.ts';
import { Pacer } from '../net/pacer.ts';
import type { CalendarApi } from '../google/port.ts';
import { createGoogleTarget } from '../google/google-target.ts';
import type { EventBody } from '../core/mirror/desired-event.ts';
import type { CalendarTarget } from '../core/mirror/target.ts';
import type { RetryPolicy } from '../net/retry-policy.ts';

export interface GoogleConnection {
  /** The adapter, built on the first call; throws GoogleError('auth') while no credentials are usable. */
  api(): CalendarApi;
  /** The same adapter as the mirror core's calendar target (the writer's and the reverse sync's). */
  target(): CalendarTarget<EventBody>;
  /** Whether api() has built the adapter yet (a cheap probe needs one to exist). */
  connected(): boolean;
  /** How it authenticates: as built, or as the config says before the first call. */
  mode(): 'service_account' | 'oauth';
  /** When Google last answered any call successfully, in this process. */
  lastSuccessAt(): number | null;
  /** Usage-limit answers (403 rateLimitExceeded, 429) in this process: each paused every caller. */
  rateLimited(): number;
}

export interface GoogleConnectionDeps {
  config: GoogleConfig;
  kv: KvStore;
  /** The runtime's clock, for lastSuccessAt; pacing is about real time whatever this is. */
  clock: Clock;
  metrics: Metrics;
  /** Faster retries (tests). */
  retry?: RetryPolicy;
}

export function connectGoogle(deps: GoogleConnectionDeps): GoogleConnection {
  const { config, clock } = deps;
  const calls = deps.metrics.counter('google_calls_total', 'Google API calls by operation and outcome', ['op', 'outcome']);
  const pacer = new Pacer(config.requests_per_minute, systemClock);
  let api: CalendarApi | undefined;
  let target: CalendarTarget<EventBody> | undefined;
  let mode: 'service_account' | 'oauth' | undefined;
  let lastSuccessAt: number | null = null;
  let rateLimited = 0;
  const connection: GoogleConnection = {
    target: () => (target ??= createGoogleTarget(connection.api())),
    api() {
      if (api) return api;
      const auth = createGoogleAuth(config, deps.kv);
      mode = auth.mode;
      api = createCalendarAdapter({
        auth: auth.client,
        apiRoot: config.api_root,
        pacer,
        clock: systemClock,
        ...(deps.retry ? { policy: deps.retry } : {}),
        observer: {
          onCall: (op, outcome) => {
            calls.inc({ op, outcome });
            if (outcome === 'rate_limited') rateLimited++;
          },
          onSuccess: () => void (lastSuccessAt = clock.now()),
        },
      });
      return api;
    },
    connected: () => api !== undefined,
    mode: () => mode ?? (config.credentials.service_account_file ? 'service_account' : 'oauth'),
    lastSuccessAt: () => lastSuccessAt,
    rateLimited: () => rateLimited,
  };
  return connection;
}
