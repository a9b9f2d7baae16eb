import { describe, expect, it } from 'vitest';
import { backoffMs } from './backoff.ts';

const policy = { baseMs: 500, maxMs: 32_000 };

describe('backoffMs (equal jitter)', () => {
  it.each([
    [0, 250, 500],
    [1, 500, 1_000],
    [3, 2_000, 4_000],
    [10, 16_000, 32_000], // capped at maxMs
  ])('attempt %i waits between %i and %i ms', (attempt, min, max) => {
    expect(backoffMs(attempt, policy, () => 0)).toBe(min);
    expect(backoffMs(attempt, policy, () => 0.999_999)).toBe(max);
  });

  it('never waits less than half the step, whatever the draw', () => {
    for (const r of [0, 0.1, 0.5, 0.9]) expect(backoffMs(4, policy, () => r)).toBeGreaterThanOrEqual(4_000);
  });

  it('the draw comes only from the randomness passed in', () => {
    const draws: number[] = [];
    const random = () => {
      draws.push(1);
      return 0.5;
    };
    expect(backoffMs(2, policy, random)).toBe(1_500);
    expect(draws).toHaveLength(1);
  });

  it('a large attempt count stays at the cap instead of overflowing', () => {
    expect(backoffMs(5_000, policy, () => 0.5)).toBe(24_000);
  });
});
