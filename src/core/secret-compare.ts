// Secrets (webhook path secret, auth tokens, feed tokens, channel tokens) are compared in constant
// time, here and nowhere else.
import { timingSafeEqual } from 'node:crypto';

/**
 * Which of the expected secrets the given one is (its index), or -1, for routes asked thousands of
 * times a second (a feed polled by every phone, each webhook).
 *
 * What the comparison's time depends on: the given text's length (the caller's own) and the
 * configured secrets' lengths (the same for every request), never on how much of a secret the given
 * text matches, nor on which secret it is: the given text is encoded into one zeroed scratch buffer
 * at least as long as the longest secret, every secret is compared with timingSafeEqual against the
 * scratch's first bytes, and none stops at a match. The lengths must be equal too; that check runs
 * for each secret whatever the comparison found. (SHA-256 digests of both, the previous way to the
 * same end, cost a noticeable part of a 304's time under load.)
 */
export function secretsMatcher(expected: readonly string[]): (given: string) => number {
  const secrets = expected.map((s) => Buffer.from(s, 'utf8'));
  const scratch = Buffer.alloc(Math.max(256, ...secrets.map((s) => s.length)));
  const views = secrets.map((s) => scratch.subarray(0, s.length));
  return (given) => {
    const length = Buffer.byteLength(given, 'utf8');
    scratch.fill(0);
    scratch.write(given, 'utf8'); // stops at the scratch's end: a longer text differs in length anyway
    let found = -1;
    secrets.forEach((secret, i) => {
      if (timingSafeEqual(views[i]!, secret) && length === secret.length && found < 0) found = i;
    });
    return found;
  };
}

/** Constant-time comparison against one fixed secret. */
export function secretMatcher(expected: string): (given: string) => boolean {
  const index = secretsMatcher([expected]);
  return (given) => index(given) === 0;
}

export function secretEquals(given: string, expected: string): boolean {
  return secretMatcher(expected)(given);
}
