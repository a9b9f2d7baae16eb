import { describe, expect, it } from 'vitest';
import { afterSlotCheck, beforeReschedule, slotConflicts } from './reschedule-decide.ts';

const H = 3_600_000;
const T0 = Date.UTC(2026, 5, 20, 13, 0); // the booking start the person moved it from
const T1 = T0 + 2 * H; // where the person moved it

describe('beforeReschedule', () => {
  it.each([
    ['the appointment is gone', { found: false } as const, { kind: 'drop', reason: 'gone' }],
    ['the appointment was cancelled', { found: true, start: T0, cancelled: true } as const, { kind: 'drop', reason: 'cancelled' }],
    [
      'already at the new start (a PATCH before a crash)',
      { found: true, start: T1, cancelled: false } as const,
      { kind: 'done', reason: 'already-there' },
    ],
    [
      'the booking moved it elsewhere meanwhile',
      { found: true, start: T0 + 7 * H, cancelled: false } as const,
      { kind: 'revert', reason: 'booking-changed' },
    ],
    ['unchanged since the move was seen', { found: true, start: T0, cancelled: false } as const, { kind: 'check-slot' }],
    [
      'where our own earlier (superseded) reschedule put it',
      { found: true, start: T0 + 9 * H, cancelled: false } as const,
      { kind: 'check-slot' },
    ],
  ])('%s', (_name, fresh, expected) => {
    expect(beforeReschedule(fresh, T1, [T0, T0 + 9 * H])).toEqual(expected);
  });
});

describe('slotConflicts', () => {
  const occ = (key: string, startH: number, endH: number, cancelled = false) => ({
    key,
    start: T1 + startH * H,
    end: T1 + endH * H,
    cancelled,
  });
  it.each([
    ['an overlapping appointment', [occ('b', 0.5, 1.5)], ['b']],
    ['one that ends exactly when ours starts', [occ('b', -1, 0)], []],
    ['one that starts exactly when ours ends', [occ('b', 1, 2)], []],
    ['one that encloses ours', [occ('b', -2, 3)], ['b']],
    ['a cancelled one', [occ('b', 0, 1, true)], []],
    ['the appointment itself', [occ('me', 0, 1)], []],
  ])('%s', (_name, occupants, keys) => {
    expect(slotConflicts('me', T1, T1 + H, occupants).map((o) => o.key)).toEqual(keys);
  });

  it('revert only when there is a conflict and on_conflict is revert', () => {
    expect(afterSlotCheck(1, 'revert')).toBe('revert');
    expect(afterSlotCheck(1, 'allow')).toBe('patch');
    expect(afterSlotCheck(0, 'revert')).toBe('patch');
  });
});
