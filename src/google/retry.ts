// Every Google call goes through the one retry loop of net/retry.ts; what is Google's own is here:
// which errors are worth another try (the client library retries neither POST/PATCH nor 403 rate
// limits), and a 401 with a token we believed valid earning one fresh token and one more try.
import { GoogleError, isRetryable, translateGoogleError } from './errors.ts';
import type { Pacer, Sleep } from '../net/pacer.ts';
import type { RetryPolicy } from '../net/retry-policy.ts';
import type { Clock } from '../core/clock.ts';
import { withRetries } from '../net/retry.ts';

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
  const attempt = async (): Promise<T> => {
    const result = await fn();
    deps.observer?.onCall?.(op, 'ok');
    deps.observer?.onSuccess?.();
    return result;
  };
  const judge = (e: unknown) => {
    const err = translateGoogleError(e);
    deps.observer?.onCall?.(op, err.kind);
    // An answer, even an error one, shows Google is reachable and our credentials work.
    if (err.status !== undefined && err.kind !== 'auth' && err.kind !== 'transient') deps.observer?.onSuccess?.();
    // A 401 with a token we believed valid (revoked, clock skew): one fresh token, one more try.
    if (err.status === 401 && !refreshed && deps.forgetAccessToken) {
      refreshed = true;
      deps.forgetAccessToken();
      return { error: err, retry: true, again: true };
    }
    return { error: err, retry: isRetryable(err), rateLimited: err.kind === 'rate_limited' };
  };
  return withRetries(attempt, judge, {
    policy: deps.policy,
    sleep: deps.sleep,
    now: () => deps.clock.now(),
    random: deps.random,
    pacer: deps.pacer,
  });
}

export { GoogleError };
