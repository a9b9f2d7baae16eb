// The feed body's frame (assemble.ts): the calendar header and Last-Modified across bodies.
import { describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { assembleFeed, nextLastModified, renderHeader } from './assemble.ts';
import type { FeedState } from '../store/feed-fragment-store.ts';

const T = Date.UTC(2026, 5, 15, 12, 0, 0);

describe('nextLastModified', () => {
  const cases: [string, FeedState | undefined, string, number, number][] = [
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

describe('the calendar name of a feed', () => {
  it('is escaped as RFC 5545 text, so commas, semicolons, backslashes and line breaks survive a strict parse', () => {
    const name = 'Clínica São João, sala 2; manhã \\ tarde\nsegunda linha';
    const { body } = assembleFeed(renderHeader({ name, refresh_minutes: 15 }), []);
    const text = body.toString('utf8');
    expect(text).toContain('NAME:Clínica São João\\, sala 2\\; manhã \\\\ tarde\\nsegunda linha\r\n');
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/); // no bare line break inside a content line
    const calendar = new ICAL.Component(ICAL.parse(text));
    // ical.js keeps NAME and X-WR-CALNAME untyped (raw): both carry the escaped text, unfolded intact.
    expect(calendar.getFirstPropertyValue('name')).toBe('Clínica São João\\, sala 2\\; manhã \\\\ tarde\\nsegunda linha');
    expect(text).toContain('X-WR-CALNAME:Clínica São João\\, sala 2\\; manhã \\\\ tarde\\nsegunda linha\r\n');
  });
});
