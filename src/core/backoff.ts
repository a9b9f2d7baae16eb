// The one backoff of calbridge: exponential steps with equal jitter, randomness passed in.
//
// Equal jitter (AWS's name): a wait drawn uniformly from [step/2, step], step = base x 2^attempt,
// capped. Full jitter ([0, step]) spreads clients a little more but may wait almost nothing, which
// sends a rate-limited upstream (Google's 403 rateLimitExceeded, the booking service's 429) the next
// request at once; equal jitter always waits at least half the step and still keeps retries of many
// items (one writer pass, one delivery batch) from landing in step.

export interface BackoffPolicy {
  /** The first step; doubles per attempt. */
  baseMs: number;
  /** No step is longer. */
  maxMs: number;
}

/** The wait before retry number `attempt + 1` (attempt 0 follows the first failure). `random` is in [0, 1). */
export function backoffMs(attempt: number, policy: BackoffPolicy, random: () => number): number {
  const step = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt));
  return Math.round(step / 2 + (random() * step) / 2);
}
