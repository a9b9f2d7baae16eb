// The one retry loop of every outbound request (booking, Google, CalDAV): the pacer taken before
// each attempt, exponential backoff with equal jitter (core/backoff.ts), a server's Retry-After as
// the floor of the wait, and a rate limit pausing the pacer for every caller at once. What an error
// means, and whether it is worth another try, is the adapter's to say (its `judge`).
import { backoffMs } from '../core/backoff.ts';
import type { Pacer, Sleep } from './pacer.ts';
import type { RetryPolicy } from './retry-policy.ts';

export interface Verdict {
  /** What the caller sees when no further attempt is made. */
  error: unknown;
  /** Worth another attempt (a network failure, a 5xx, a rate limit). */
  retry: boolean;
  /** The least wait before the next attempt (a Retry-After); past the policy's longest wait, no retry. */
  waitMs?: number;
  /** Told to slow down: the pacer pauses, for every request it paces. */
  rateLimited?: boolean;
  /** Try again at once, not counted as a retry (the adapter has fixed something, e.g. dropped a stale token). */
  again?: boolean;
  /** For the retry's log line: why (e.g. `HTTP 503`). */
  reason?: string;
}

export interface RetryOptions {
  policy: RetryPolicy;
  sleep: Sleep;
  now: () => number;
  random?: () => number;
  /** Taken before each attempt; paused on a rate limit. */
  pacer?: Pacer;
  /** Before each wait (a log line). */
  onRetry?: (e: { attempt: number; waitMs: number; verdict: Verdict }) => void;
}

/**
 * Runs `attempt` until it returns, or `judge` says its failure is final, or the policy's retries
 * are spent. An `again` verdict must not repeat forever: the adapter gives it once.
 */
export async function withRetries<T>(attempt: () => Promise<T>, judge: (e: unknown) => Verdict, o: RetryOptions): Promise<T> {
  for (let n = 0; ; n++) {
    await o.pacer?.take();
    try {
      return await attempt();
    } catch (e) {
      const v = judge(e);
      if (v.again) {
        n--;
        continue;
      }
      const now = o.now();
      // Told to slow down: every request to this upstream waits, not only this one.
      if (v.rateLimited && v.waitMs) o.pacer?.pauseUntil(now + v.waitMs);
      // A wait longer than we would ever sleep here is left to the caller's schedule.
      if (!v.retry || n >= o.policy.retries || (v.waitMs ?? 0) > o.policy.maxMs) throw v.error;
      const delay = Math.max(backoffMs(n, o.policy, o.random ?? Math.random), v.waitMs ?? 0);
      if (v.rateLimited) o.pacer?.pauseUntil(now + delay);
      o.onRetry?.({ attempt: n, waitMs: delay, verdict: v });
      await o.sleep(delay);
    }
  }
}
