// How many times, and how patiently, one call to an upstream over HTTP is retried: the Google and
// CalDAV adapters take the same policy (tests pass a fast one).

export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 5, baseMs: 500, maxMs: 32_000 };
