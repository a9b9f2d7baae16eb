// The pure decisions of ingest, table by table: what a notification is, what is in scope, when the
// breaker trips, and the poll window across DST.
import { describe, expect, it } from 'vitest';
import { checkNotification } from '../../src/sync/notification.ts';
import { outOfScope } from '../../src/sync/scope.ts';
import { breakerVerdict } from '../../src/sync/poll-breaker.ts';
import { pollWindow } from '../../src/sync/poll-window.ts';
import { cronPeriodMs } from '../../src/sync/cron-period.ts';
import type { Appointment } from '../../src/core/appointment.ts';
import type { PollFilters } from '../../src/config/schema.ts';

describe('checkNotification', () => {
  it.each([
    ['the seed envelope', { event: 'appointment.created', timestamp: 'x', data: { appointment_key: 'k1' } }, { ok: true, appointmentKey: 'k1', event: 'appointment.created' }],
    ['an upper-case event', { event: 'CANCELED', data: { appointment_key: 'k1' } }, { ok: true, appointmentKey: 'k1', event: 'appointment.canceled' }],
    ['DELETED', { event: 'DELETED', data: { appointment_key: 'k1' } }, { ok: true, appointmentKey: 'k1', event: 'appointment.deleted' }],
    ['an unknown event, kept', { event: 'appointment.moved', data: { appointment_key: 'k1' } }, { ok: true, appointmentKey: 'k1', event: 'appointment.moved' }],
    ['a bare record', { appointment_key: '6f1c-22', status: 'CONFIRMED' }, { ok: true, appointmentKey: '6f1c-22', event: null }],
    ['a numeric key, as text', { appointment_key: 12345 }, { ok: true, appointmentKey: '12345', event: null }],
  ])('accepts %s', (_n, body, expected) => {
    expect(checkNotification(body)).toEqual(expected);
  });

  it.each([
    ['an array', [{ appointment_key: 'k' }], 'the body is a JSON array, not a notification'],
    ['null', null, 'the body is not a JSON object'],
    ['a string', 'k1', 'the body is not a JSON object'],
    ['an envelope without event', { data: { appointment_key: 'k' } }, 'the envelope has no event'],
    ['an envelope with a blank event', { event: ' ', data: { appointment_key: 'k' } }, 'the envelope has no event'],
    ['an envelope whose data is a list', { event: 'CREATED', data: [] }, 'the envelope has no data object'],
    ['an envelope without key', { event: 'CREATED', data: { status: 'X' } }, 'data has no appointment_key'],
    ['a key that is not text or a number', { appointment_key: true }, 'the record has no appointment_key'],
    ['a key with a slash', { appointment_key: 'a/b' }, 'the record.appointment_key is not a usable key (a letter or digit, then letters, digits, - _ . : ; at most 200)'],
    ['a key of dots', { appointment_key: '..' }, 'the record.appointment_key is not a usable key (a letter or digit, then letters, digits, - _ . : ; at most 200)'],
    ['an overlong key', { appointment_key: 'a'.repeat(201) }, 'the record.appointment_key is not a usable key (a letter or digit, then letters, digits, - _ . : ; at most 200)'],
  ])('refuses %s', (_n, body, reason) => {
    expect(checkNotification(body)).toEqual({ ok: false, reason });
  });
});

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
    ['a record without calendar key cannot be judged', { calendar_key: 'cal-B' }, { calendar: { calendarKey: null, name: null } }, undefined],
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

describe('breakerVerdict', () => {
  it.each([
    [{ listed: 0, stored: 0, missing: 0, share: 0.3 }, undefined],
    [{ listed: 0, stored: 3, missing: 3, share: 0.3 }, undefined],
    [{ listed: 0, stored: 4, missing: 4, share: 0.3 }, 'empty'],
    [{ listed: 17, stored: 20, missing: 6, share: 0.3 }, undefined],
    [{ listed: 13, stored: 20, missing: 7, share: 0.3 }, 'misses 7 of 20'],
    [{ listed: 13, stored: 20, missing: 7, share: 0.5 }, undefined],
    [{ listed: 500, stored: 1000, missing: 301, share: 0.3 }, 'misses 301 of 1000'],
    [{ listed: 1, stored: 2, missing: 2, share: 0 }, undefined],
  ])('%o → %s', (input, expected) => {
    const verdict = breakerVerdict(input);
    if (expected === undefined) expect(verdict).toBeUndefined();
    else expect(verdict).toContain(expected);
  });
});

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

describe('cronPeriodMs', () => {
  it.each([
    ['*/5 * * * *', 5 * 60_000],
    ['0 * * * *', 3_600_000],
    ['*/30 * * * * *', 30_000],
  ])('%s → %i ms', (schedule, ms) => {
    expect(cronPeriodMs(schedule)).toBe(ms);
  });
});
