// The one way to one Google account: one auth client, one adapter, one pacer, so its writer and its
// reverse sync share a single quota (requests_per_minute; Google's quota is per user, so accounts
// each have their own) and every call is counted once. Built on first use, not at start: credentials
// may appear while serve runs (`google auth`), and Google's client library is loaded only by work
// that calls Google. A refresh token stored anew while serve runs (`google auth --account`) rebuilds
// the client at the account's next pass.
import type { GoogleConfig } from '../config/schema.ts';
import { systemClock, type Clock } from '../core/clock.ts';
import type { Metrics } from '../metrics.ts';
import { createGoogleAuth, type RefreshTokens } from '../google/auth.ts';
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
  config: Omit<GoogleConfig, 'accounts'>;
  /** The account's name: its metrics label. */
  account: string;
  /** Where its refresh token lives (the kv table for a config account, the connect store for one connected on the web). */
  tokens: RefreshTokens;
  /** What a person runs to sign this account in again. */
  authCommand: string;
  /** The runtime's clock, for lastSuccessAt; pacing is about real time whatever this is. */
  clock: Clock;
  metrics: Metrics;
  /** Faster retries (tests). */
  retry?: RetryPolicy;
}

export function connectGoogle(deps: GoogleConnectionDeps): GoogleConnection {
  const { config, clock } = deps;
  const calls = deps.metrics.counter('google_calls_total', 'Google API calls by operation and outcome', ['op', 'outcome', 'account']);
  const pacer = new Pacer(config.requests_per_minute, systemClock);
  const oauth = !config.credentials.service_account_file;
  /** The refresh token the client was built with, or last rotated to by Google itself. */
  let inUse: string | undefined;
  const tokens: RefreshTokens = {
    load: () => deps.tokens.load(),
    save: (token) => {
      inUse = token;
      deps.tokens.save(token);
    },
  };
  let api: CalendarApi | undefined;
  let target: CalendarTarget<EventBody> | undefined;
  let mode: 'service_account' | 'oauth' | undefined;
  let lastSuccessAt: number | null = null;
  let rateLimited = 0;
  const connection: GoogleConnection = {
    target: () => {
      const built = connection.api();
      return (target ??= createGoogleTarget(built));
    },
    api() {
      // A new sign-in stored meanwhile: the next call uses it, not the client built with the old one.
      if (api && oauth && tokens.load() !== inUse) api = target = undefined;
      if (api) return api;
      inUse = oauth ? tokens.load() : undefined;
      const auth = createGoogleAuth(config, tokens, deps.authCommand);
      mode = auth.mode;
      api = createCalendarAdapter({
        auth: auth.client,
        apiRoot: config.api_root,
        pacer,
        clock: systemClock,
        ...(deps.retry ? { policy: deps.retry } : {}),
        observer: {
          onCall: (op, outcome) => {
            calls.inc({ op, outcome, account: deps.account });
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
