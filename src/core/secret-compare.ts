// Secrets (webhook path secret, auth tokens, feed tokens, channel tokens) are compared in constant
// time, here and nowhere else.
import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Constant-time comparison against one fixed secret, of any length (hashing first hides the length
 * too). The secret's digest is computed once, for routes asked thousands of times a second.
 */
export function secretMatcher(expected: string): (given: string) => boolean {
  const b = createHash('sha256').update(expected).digest();
  return (given) => timingSafeEqual(createHash('sha256').update(given).digest(), b) && given.length === expected.length;
}

export function secretEquals(given: string, expected: string): boolean {
  return secretMatcher(expected)(given);
}
