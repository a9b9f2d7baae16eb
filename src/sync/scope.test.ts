// What calbridge mirrors at all: poll.filters judged on a record, the filters it cannot show ignored.
import { describe, expect, it } from 'vitest';
import { outOfScope } from './scope.ts';
import type { Appointment } from '../core/appointment.ts';
import type { PollFilters } from '../config/schema.ts';

const appt = (over: Partial<Appointment> = {}): Appointment => ({
  key: 'k',
  searchCode: null,
  status: 'CONFIRMED',
  start: 0,
  end: 1,
  timezone: 'UTC',
  calendar: { calendarKey: 'cal-A', name: null },
  person: { personKey: 'p-1', fullName: null, email: null, phone: null, documentNumber: null },
  clientKey: 'cl-1',
  services: [{ serviceKey: 's-1', name: null }],
  tagKeys: ['t-1'],
  ownerUser: 'Ana@Example.com',
  externalId: null,
  createdAt: null,
  raw: {},
  ...over,
});

describe('outOfScope', () => {
  it.each<[string, PollFilters, Partial<Appointment>, string | undefined]>([
    ['no filters', {}, {}, undefined],
    ['matching calendar', { calendar_key: 'cal-A' }, {}, undefined],
    ['other calendar', { calendar_key: 'cal-B' }, {}, 'calendar_key is cal-A, not cal-B'],
    [
      'a record without calendar key cannot be judged',
      { calendar_key: 'cal-B' },
      { calendar: { calendarKey: null, name: null } },
      undefined,
    ],
    ['status filter, cancelled record', { status: 'CONFIRMED' }, { status: 'CANCELED' }, 'status is CANCELED, not CONFIRMED'],
    ['owner compared without case', { owner_user: 'ana@example.com' }, {}, undefined],
    ['client', { client_key: 'cl-2' }, {}, 'client_key is cl-1, not cl-2'],
    ['person', { person_key: 'p-1' }, {}, undefined],
    ['one of the services', { service_keys: ['s-9', 's-1'] }, {}, undefined],
    ['none of the services', { service_keys: ['s-9'] }, {}, 'none of its service_keys is in poll.filters.service_keys'],
    ['record shows no services', { service_keys: ['s-9'] }, { services: [] }, undefined],
    ['tags', { tag_keys: ['t-2'] }, {}, 'none of its tag_keys is in poll.filters.tag_keys'],
    ['filters the record cannot show are ignored', { email: 'x@y', is_cancelled: false }, {}, undefined],
  ])('%s', (_n, filters, over, expected) => {
    expect(outOfScope(appt(over), filters)).toBe(expected);
  });
});
