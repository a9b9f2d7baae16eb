// The poll window in the booking zone, across daylight saving changes.
import { describe, expect, it } from 'vitest';
import { pollWindow } from './poll-window.ts';

describe('pollWindow', () => {
  it.each([
    // zone, now (UTC), past, future, from (UTC), to (UTC)
    ['America/Sao_Paulo', '2026-06-15T15:00:00Z', 7, 90, '2026-06-08T15:00:00Z', '2026-09-13T15:00:00Z'],
    ['America/New_York', '2026-03-10T16:00:00Z', 7, 0, '2026-03-03T17:00:00Z', '2026-03-10T16:00:00Z'],
    ['America/New_York', '2026-10-30T16:00:00Z', 0, 7, '2026-10-30T16:00:00Z', '2026-11-06T17:00:00Z'],
    ['Europe/Berlin', '2026-03-29T00:30:00Z', 1, 1, '2026-03-28T00:30:00Z', '2026-03-29T23:30:00Z'],
  ])('%s at %s, -%i/+%i days', (zone, now, past, future, from, to) => {
    expect(pollWindow(Date.parse(now), zone, past, future)).toEqual({ from: Date.parse(from), to: Date.parse(to) });
  });
});
