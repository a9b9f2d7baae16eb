import { describe, expect, it } from 'vitest';
import { breakerTrips, deletionsTripBreaker } from './breakers.ts';

describe('breakerTrips (the writer)', () => {
  it.each([
    [3, 5, false],
    [9, 10, false],
    [10, 100, false],
    [31, 100, true],
    [10, 20, true],
  ])('%i deletes of %i mirrored => %s', (deletes, mirrored, trips) => {
    expect(breakerTrips(deletes, mirrored, 0.3)).toBe(trips);
  });
});

describe('deletionsTripBreaker (the reverse sync)', () => {
  it.each([
    [1, 1, 0.3, false],
    [2, 100, 0.3, false],
    [31, 100, 0.3, true],
    [30, 100, 0.3, false],
    [2, 3, 0.3, true],
    [0, 0, 0.3, false],
  ])('%i deletions of %i mirrored at share %d => %s', (deletions, mirrored, share, trips) => {
    expect(deletionsTripBreaker(deletions, mirrored, share)).toBe(trips);
  });
});
