import { describe, expect, it } from 'vitest';
import { factsOf, matchesFilters, placeInFeed, type FeedFacts } from '../../src/feeds/feed-filter.ts';
import type { FeedFilters } from '../../src/config/schema.ts';
import { appointment } from './appointments.ts';

const facts: FeedFacts = {
  status: 'CONFIRMED',
  calendarKey: 'cal-a',
  clientKey: 'client-1',
  personKey: 'p1',
  serviceKeys: ['svc-clean', 'svc-xray'],
  tagKeys: ['tag-new'],
  ownerUser: 'owner@example.com',
};

describe('matchesFilters', () => {
  const cases: [string, FeedFilters, boolean][] = [
    ['no filters', {}, true],
    ['calendar_key as a string', { calendar_key: 'cal-a' }, true],
    ['another calendar', { calendar_key: 'cal-b' }, false],
    ['calendar_key list: any of', { calendar_key: ['cal-b', 'cal-a'] }, true],
    ['calendar_key list without ours', { calendar_key: ['cal-b', 'cal-c'] }, false],
    ['empty string means unset', { calendar_key: '' }, true],
    ['empty list means unset', { tag_keys: [] }, true],
    ['client_key', { client_key: 'client-1' }, true],
    ['another client', { client_key: 'client-2' }, false],
    ['person_key list', { person_key: ['p1', 'p2'] }, true],
    ['another person', { person_key: 'p9' }, false],
    ['status in another case', { status: 'confirmed' }, true],
    ['status list', { status: ['PENDING', 'CONFIRMED'] }, true],
    ['other status', { status: 'PENDING' }, false],
    ['service_keys: any of them is enough', { service_keys: ['svc-xray', 'svc-other'] }, true],
    ['service_keys: none of them', { service_keys: ['svc-other'] }, false],
    ['tag_keys', { tag_keys: ['tag-new'] }, true],
    ['tag_keys: none', { tag_keys: ['tag-vip'] }, false],
    ['owner_user', { owner_user: 'owner@example.com' }, true],
    ['another owner', { owner_user: 'someone@example.com' }, false],
    ['all filters must hold', { calendar_key: 'cal-a', client_key: 'client-2' }, false],
  ];
  it.each(cases)('%s', (_name, filters, expected) => {
    expect(matchesFilters(facts, filters)).toBe(expected);
  });

  it('a filter on a field the appointment lacks does not match', () => {
    expect(matchesFilters({ ...facts, calendarKey: null }, { calendar_key: 'cal-a' })).toBe(false);
  });
});

describe('placeInFeed', () => {
  const cases: [string, Partial<FeedFacts>, boolean, { include_cancelled: boolean; filters?: FeedFilters }, string][] = [
    ['active', {}, false, { include_cancelled: false }, 'show'],
    ['done (attended) stays', { status: 'ATTENDED' }, false, { include_cancelled: false }, 'show'],
    ['pending stays', { status: 'PENDING_PAYMENT' }, false, { include_cancelled: false }, 'show'],
    ['cancelled leaves', { status: 'CANCELED' }, false, { include_cancelled: false }, 'absent'],
    ['cancelled by the client leaves', { status: 'CANCELED_CLIENT' }, false, { include_cancelled: false }, 'absent'],
    ['cancelled stays as cancelled when asked', { status: 'CANCELED' }, false, { include_cancelled: true }, 'cancelled'],
    ['gone leaves', {}, true, { include_cancelled: false }, 'absent'],
    ['gone leaves even with include_cancelled', { status: 'CANCELED' }, true, { include_cancelled: true }, 'absent'],
    ['filters first: another calendar', { status: 'CANCELED' }, false, { include_cancelled: true, filters: { calendar_key: 'cal-b' } }, 'absent'],
  ];
  it.each(cases)('%s', (_name, change, gone, feed, expected) => {
    expect(placeInFeed({ ...facts, ...change }, gone, { filters: feed.filters ?? {}, include_cancelled: feed.include_cancelled })).toBe(expected);
  });
});

describe('factsOf', () => {
  it('reads what filters need from an appointment', () => {
    expect(factsOf(appointment(1))).toEqual({
      status: 'CONFIRMED',
      calendarKey: 'cal-a',
      clientKey: 'client-1',
      personKey: 'p1',
      serviceKeys: ['svc-clean'],
      tagKeys: ['tag-new'],
      ownerUser: 'owner@example.com',
    });
  });
});
