import { describe, expect, it } from 'vitest';
import { instantOf, relativeTime } from './relative-time.ts';

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

describe('instantOf', () => {
  it.each([
    ['last_poll', '2026-06-15T11:57:00.000Z', Date.UTC(2026, 5, 15, 11, 57)],
    ['at', '2026-06-15T08:57:00-03:00', Date.UTC(2026, 5, 15, 11, 57)],
    ['last_poll_at_ms', Date.UTC(2026, 5, 15, 11, 57), Date.UTC(2026, 5, 15, 11, 57)],
    ['lastPollAtMs', Date.UTC(2026, 5, 15, 11, 57), Date.UTC(2026, 5, 15, 11, 57)],
  ])('reads %s = %s as a time', (key, value, expected) => {
    expect(instantOf(key, value)).toBe(expected);
  });

  it.each([
    ['count', 1_781_000_000_000],
    ['duration_ms', 1_781_000_000_000],
    ['last_poll_at_ms', 12],
    ['date', '2026-06-15'],
    ['name', 'T12:00 meeting'],
    ['last_error', 'failed at 2026-06-15T11:57:00Z'],
  ])('leaves %s = %s alone', (key, value) => {
    expect(instantOf(key, value)).toBeUndefined();
  });
});
