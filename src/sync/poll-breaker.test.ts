// When a listing looks broken enough that the poll changes nothing.
import { describe, expect, it } from 'vitest';
import { breakerVerdict } from './poll-breaker.ts';

describe('breakerVerdict', () => {
  it.each([
    [{ listed: 0, stored: 0, missing: 0, share: 0.3 }, undefined],
    [{ listed: 0, stored: 3, missing: 3, share: 0.3 }, undefined],
    [{ listed: 0, stored: 4, missing: 4, share: 0.3 }, 'empty'],
    [{ listed: 17, stored: 20, missing: 6, share: 0.3 }, undefined],
    [{ listed: 13, stored: 20, missing: 7, share: 0.3 }, 'misses 7 of 20'],
    [{ listed: 13, stored: 20, missing: 7, share: 0.5 }, undefined],
    [{ listed: 500, stored: 1000, missing: 301, share: 0.3 }, 'misses 301 of 1000'],
    [{ listed: 1, stored: 2, missing: 2, share: 0 }, undefined],
  ])('%o → %s', (input, expected) => {
    const verdict = breakerVerdict(input);
    if (expected === undefined) expect(verdict).toBeUndefined();
    else expect(verdict).toContain(expected);
  });
});
