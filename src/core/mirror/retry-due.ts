// When a write that failed is tried again. A failure backs off (no hammering a target that refuses
// it), but the backoff belongs to the content that failed: once the appointment wants something
// else (moved, cancelled, back in its first state), that is a new material change and is written
// at once, one call per change as ever. The same content waits out its backoff.
// Attempts keep counting across such changes (store: recordFailure), so a target that refuses every
// write still backs off further with each failure, whatever the appointment does meanwhile.
import type { TargetErrorKind } from './target.ts';

/** No event wanted: the content a delete tries to bring about. Never a desired event's content (those hold a '#'). */
export const NO_EVENT = 'none';

/** What a write tries to make the target show: the desired event (its hash, in its calendar), or no event. */
export function contentOf(desired: { calendarId: string; hash: string } | null): string {
  return desired ? `${desired.calendarId}#${desired.hash}` : NO_EVENT;
}

/**
 * What a failure records as the content that failed. A usage limit (Google's quota, a rate limit
 * its retries did not outlast) refuses how much we call, not what we wrote: its wait holds for any
 * content (null), so a stream of changes never calls a target that asked for quiet.
 */
export function failedContentOf(kind: TargetErrorKind, content: string): string | null {
  return kind === 'quota_exceeded' || kind === 'rate_limited' ? null : content;
}

/** A link's retry state: when the next attempt is due, and the content of the write that last failed (null: none). */
export interface RetryState {
  nextAttemptMs: number;
  failedContent: string | null;
}

/** When the write of `content` is due: now (0) if it is not what last failed, else at the link's next attempt. */
export function retryDueAt(link: RetryState | undefined, content: string): number {
  if (!link) return 0;
  return link.failedContent !== null && link.failedContent !== content ? 0 : link.nextAttemptMs;
}
