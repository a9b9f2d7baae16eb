// Secrets (webhook path secret, auth tokens, feed tokens, channel tokens) are compared in constant
// time, here and nowhere else.
import { hash, timingSafeEqual } from 'node:crypto';

// crypto.hash, one call with no Hash object to build: a feed request or a webhook pays one digest
// of what it presents, however many secrets it is tried against.
const digest = (text: string): Buffer => hash('sha256', text, 'buffer');

/**
 * Which of the expected secrets the given one is (its index), or -1: in constant time, whatever the
 * lengths (hashing first hides them), and trying every secret without stopping at a match. The
 * secrets' digests are computed once, for routes asked thousands of times a second.
 */
export function secretsMatcher(expected: readonly string[]): (given: string) => number {
  const digests = expected.map(digest);
  return (given) => {
    const presented = digest(given);
    let found = -1;
    digests.forEach((d, i) => {
      if (timingSafeEqual(presented, d) && given.length === expected[i]!.length && found < 0) found = i;
    });
    return found;
  };
}

/** Constant-time comparison against one fixed secret, of any length. */
export function secretMatcher(expected: string): (given: string) => boolean {
  const index = secretsMatcher([expected]);
  return (given) => index(given) === 0;
}

export function secretEquals(given: string, expected: string): boolean {
  return secretMatcher(expected)(given);
}
