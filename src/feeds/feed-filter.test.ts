import { describe, expect, it } from 'vitest';
import { placeInFeed } from './feed-filter.ts';
import type { FilterFacts } from '../core/appointment-filter.ts';
import type { FeedFilters } from '../config/schema.ts';

const facts: FilterFacts = {
  status: 'CONFIRMED',
  calendarKey: 'cal-a',
  clientKey: 'client-1',
  personKey: 'p1',
  serviceKeys: ['svc-clean', 'svc-xray'],
  tagKeys: ['tag-new'],
  ownerUser: 'owner@example.com',
};

describe('placeInFeed', () => {
  const cases: [string, Partial<FilterFacts>, boolean, { include_cancelled: boolean; filters?: FeedFilters }, string][] = [
    ['active', {}, false, { include_cancelled: false }, 'show'],
    ['done (attended) stays', { status: 'ATTENDED' }, false, { include_cancelled: false }, 'show'],
    ['pending stays', { status: 'PENDING_PAYMENT' }, false, { include_cancelled: false }, 'show'],
    ['cancelled leaves', { status: 'CANCELED' }, false, { include_cancelled: false }, 'absent'],
    ['cancelled by the client leaves', { status: 'CANCELED_CLIENT' }, false, { include_cancelled: false }, 'absent'],
    ['cancelled stays as cancelled when asked', { status: 'CANCELED' }, false, { include_cancelled: true }, 'cancelled'],
    ['gone leaves', {}, true, { include_cancelled: false }, 'absent'],
    ['gone leaves even with include_cancelled', { status: 'CANCELED' }, true, { include_cancelled: true }, 'absent'],
    [
      'filters first: another calendar',
      { status: 'CANCELED' },
      false,
      { include_cancelled: true, filters: { calendar_key: 'cal-b' } },
      'absent',
    ],
    [
      'a filter on a field the appointment lacks leaves it out',
      { calendarKey: null },
      false,
      { include_cancelled: false, filters: { calendar_key: 'cal-a' } },
      'absent',
    ],
    ['keys match in any case', {}, false, { include_cancelled: false, filters: { calendar_key: 'CAL-A' } }, 'show'],
  ];
  it.each(cases)('%s', (_name, change, gone, feed, expected) => {
    expect(placeInFeed({ ...facts, ...change }, gone, { filters: feed.filters ?? {}, include_cancelled: feed.include_cancelled })).toBe(
      expected,
    );
  });
});
