import { describe, expect, it } from 'vitest';
import { relativeTime } from './relative-time.ts';

const now = Date.UTC(2026, 5, 15, 12, 0, 0);

describe('relativeTime', () => {
  it.each([
    [0, 'just now'],
    [-4_000, 'just now'],
    [-42_000, '42 s ago'],
    [-3 * 60_000 - 10_000, '3 min ago'],
    [-59 * 60_000, '59 min ago'],
    [-2 * 3_600_000 - 1, '2 h ago'],
    [-5 * 86_400_000, '5 d ago'],
    [90_000, 'in 1 min'],
    [3 * 3_600_000, 'in 3 h'],
  ])('an instant %i ms from now reads "%s"', (offset, expected) => {
    expect(relativeTime(now + offset, now)).toBe(expected);
  });
});
