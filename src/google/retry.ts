// Our own retry around every Google call: the client library retries neither POST/PATCH nor 403
// rate limits and ignores Retry-After. Exponential backoff with equal jitter (core/backoff.ts); rate
// limits also slow the shared pacer so every worker backs off, not just the one that was told.
import { GoogleError, isRetryable, translateGoogleError } from './errors.ts';
import type { Pacer, Sleep } from '../net/pacer.ts';
import type { RetryPolicy } from '../net/retry-policy.ts';
import type { Clock } from '../core/clock.ts';
import { backoffMs } from '../core/backoff.ts';

export interface CallObserver {
  /** Every HTTP call made, with its outcome (metrics). */
  onCall?(op: string, outcome: 'ok' | GoogleError['kind']): void;
  onSuccess?(): void;
}

export async function callWithRetry<T>(
  op: string,
  fn: () => Promise<T>,
  deps: {
    pacer: Pacer;
    clock: Clock;
    sleep: Sleep;
    policy: RetryPolicy;
    observer?: CallObserver;
    random?: () => number;
    /** Drops the cached access token, so the next call fetches a new one. */
    forgetAccessToken?: () => void;
  },
): Promise<T> {
  let refreshed = false;
  for (let attempt = 0; ; attempt++) {
    await deps.pacer.take();
    try {
      const result = await fn();
      deps.observer?.onCall?.(op, 'ok');
      deps.observer?.onSuccess?.();
      return result;
    } catch (e) {
      const err = translateGoogleError(e);
      deps.observer?.onCall?.(op, err.kind);
      // An answer, even an error one, shows Google is reachable and our credentials work.
      if (err.status !== undefined && err.kind !== 'auth' && err.kind !== 'transient') deps.observer?.onSuccess?.();
      // A 401 with a token we believed valid (revoked, clock skew): one fresh token, one more try.
      if (err.status === 401 && !refreshed && deps.forgetAccessToken) {
        refreshed = true;
        deps.forgetAccessToken();
        attempt--;
        continue;
      }
      if (!isRetryable(err) || attempt >= deps.policy.retries) throw err;
      const delay = backoffMs(attempt, deps.policy, deps.random ?? Math.random);
      if (err.kind === 'rate_limited') deps.pacer.pauseUntil(deps.clock.now() + delay);
      await deps.sleep(delay);
    }
  }
}

export { GoogleError };
