// How often a cron schedule fires: the readiness window is three of these.
import { describe, expect, it } from 'vitest';
import { cronPeriodMs } from './cron-period.ts';

describe('cronPeriodMs', () => {
  it.each([
    ['*/5 * * * *', 5 * 60_000],
    ['0 * * * *', 3_600_000],
    ['*/30 * * * * *', 30_000],
  ])('%s → %i ms', (schedule, ms) => {
    expect(cronPeriodMs(schedule)).toBe(ms);
  });
});
