import { describe, expect, it } from 'vitest';
import { OPENING_GRACE_MS, planChannels, type ChannelView } from './channel-plan.ts';

const NOW = Date.UTC(2026, 5, 15, 12);
const DAY = 86_400_000;
const ch = (id: string, over: Partial<ChannelView> = {}): ChannelView => ({
  id,
  calendarId: 'primary',
  state: 'active',
  expiration: NOW + 5 * DAY,
  createdAt: NOW - 2 * DAY,
  ...over,
});

describe('planChannels', () => {
  it.each<[string, ChannelView[], string[], { open: string[]; stop: string[] }]>([
    ['no channel yet: open one', [], ['primary'], { open: ['primary'], stop: [] }],
    ['a fresh active channel: nothing to do', [ch('a')], ['primary'], { open: [], stop: [] }],
    [
      'close to expiry: open a new one, keep the old until it is up',
      [ch('a', { expiration: NOW + DAY / 2 })],
      ['primary'],
      { open: ['primary'], stop: [] },
    ],
    [
      'renewed: the old one is stopped',
      [ch('a', { expiration: NOW + DAY / 2 }), ch('b', { createdAt: NOW - 1000, expiration: NOW + 7 * DAY })],
      ['primary'],
      { open: [], stop: ['a'] },
    ],
    ['expired: stopped and replaced', [ch('a', { expiration: NOW - 1 })], ['primary'], { open: ['primary'], stop: ['a'] }],
    ['a watch call in progress: wait for it', [ch('a', { state: 'opening', createdAt: NOW - 1000 })], ['primary'], { open: [], stop: [] }],
    [
      'a watch call that never finished: replaced',
      [ch('a', { state: 'opening', createdAt: NOW - OPENING_GRACE_MS - 1 })],
      ['primary'],
      { open: ['primary'], stop: ['a'] },
    ],
    [
      'a calendar no longer mapped: its channel is stopped',
      [ch('a', { calendarId: 'old@group' })],
      ['primary'],
      { open: ['primary'], stop: ['a'] },
    ],
    ['stopped channels are history', [ch('a', { state: 'stopped' })], ['primary'], { open: ['primary'], stop: [] }],
    ['one per calendar', [ch('a')], ['primary', 'x@group'], { open: ['x@group'], stop: [] }],
  ])('%s', (_name, channels, calendars, expected) => {
    expect(planChannels(channels, calendars, NOW, DAY)).toEqual(expected);
  });
});
