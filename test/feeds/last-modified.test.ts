import { describe, expect, it } from 'vitest';
import { nextLastModified, type ServedState } from '../../src/feeds/assemble.ts';

const T = Date.UTC(2026, 5, 15, 12, 0, 0);

describe('nextLastModified', () => {
  const cases: [string, ServedState | undefined, string, number, number][] = [
    ['first body: its newest event change, in whole seconds', undefined, 'h1', T + 1500, T + 1000],
    ['first body of an empty feed: a stable epoch', undefined, 'h0', 0, 0],
    ['same body: unchanged, even if asked later', { etag: 'h1', lastModified: T }, 'h1', T + 99_000, T],
    ['a newer event: its change time', { etag: 'h1', lastModified: T }, 'h2', T + 60_000, T + 60_000],
    ['an event left (newest change older): a second later than before', { etag: 'h1', lastModified: T }, 'h2', T - 60_000, T + 1000],
    ['a change in the same second: still a second later', { etag: 'h1', lastModified: T }, 'h2', T + 300, T + 1000],
  ];
  it.each(cases)('%s', (_name, previous, hash, newest, expected) => {
    expect(nextLastModified(previous, hash, newest)).toEqual({ etag: hash, lastModified: expected });
  });
});
