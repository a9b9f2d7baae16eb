import { describe, expect, it } from 'vitest';
import { breakerTrips, desiredEvent, isDesired, planAction, type DesiredEvent, type GoogleMapping, type LinkState } from './google-plan.ts';
import type { Appointment } from './appointment.ts';
import { testAppointment } from '../../test/helpers/appointment.ts';

const mapping: GoogleMapping = {
  calendars: [
    { calendar_key: 'cal-b', calendar_id: 'b@group' },
    { calendar_key: '*', calendar_id: 'primary' },
  ],
  statuses: ['CONFIRMED', 'PENDING'],
  title: '{person.full_name} · {search_code}',
  description: '{calendar.name}',
};

const appt = (over: Partial<Appointment> = {}): Appointment =>
  testAppointment({
    key: 'k-1',
    searchCode: 'SC1',
    start: Date.UTC(2026, 2, 10, 13, 0),
    end: Date.UTC(2026, 2, 10, 14, 0),
    person: { personKey: 'p', fullName: 'Ana', email: null, phone: '+55', documentNumber: null },
    ...over,
  });


describe('desiredEvent', () => {
  it('renders templates, the zone, tentative for pending, and our private properties', () => {
    const d = desiredEvent(appt({ status: 'PENDING' }), 7, false, mapping);
    if (!isDesired(d)) throw new Error('expected an event');
    expect(d.calendarId).toBe('primary');
    expect(d.body).toMatchObject({
      summary: 'Ana · SC1',
      description: 'Clinic A',
      status: 'tentative',
      start: { dateTime: '2026-03-10T10:00:00-03:00', timeZone: 'America/Sao_Paulo' },
      end: { dateTime: '2026-03-10T11:00:00-03:00', timeZone: 'America/Sao_Paulo' },
    });
    expect(d.body.privateProperties).toMatchObject({ appointment_key: 'k-1', calbridge_revision: '7' });
    expect(Object.keys(d.body.privateProperties).every((k) => k.length <= 44)).toBe(true);
  });

  it.each([
    ['gone', appt(), true, 'gone'],
    ['cancelled', appt({ status: 'CANCELED_CLIENT' }), false, 'cancelled'],
    ['status outside google.statuses', appt({ status: 'ATTENDED' }), false, 'status'],
  ] as const)('no event when %s', (_name, a, gone, reason) => {
    expect(desiredEvent(a, 1, gone, mapping)).toEqual({ none: reason });
  });

  it('no event when no calendar rule matches', () => {
    expect(desiredEvent(appt(), 1, false, { ...mapping, calendars: [{ calendar_key: 'cal-z', calendar_id: 'z' }] })).toEqual({ none: 'no_calendar' });
  });

  it('first matching calendar rule wins', () => {
    const d = desiredEvent(appt({ calendar: { calendarKey: 'cal-b', name: 'B' } }), 1, false, mapping);
    expect(isDesired(d) && d.calendarId).toBe('b@group');
  });

  it('hash ignores the revision and what Google does not show (phone), follows what it shows', () => {
    const h = (a: Appointment, rev: number) => (desiredEvent(a, rev, false, mapping) as DesiredEvent).hash;
    expect(h(appt(), 1)).toBe(h(appt({ person: { ...appt().person, phone: '+1' } }), 2));
    expect(h(appt(), 1)).not.toBe(h(appt({ start: appt().start + 60_000 }), 1));
  });
});

describe('planAction', () => {
  const desired = desiredEvent(appt(), 1, false, mapping) as DesiredEvent;
  const link = (over: Partial<LinkState> = {}): LinkState => ({
    calendarId: 'primary',
    eventId: 'evt00001',
    generation: 0,
    present: true,
    writtenHash: desired.hash,
    etag: '"1"',
    ...over,
  });

  it.each<[string, DesiredEvent | null, LinkState | undefined, string]>([
    ['new appointment', desired, undefined, 'insert'],
    ['deleted before, wanted again', desired, link({ present: false }), 'insert'],
    ['unchanged', desired, link(), 'none'],
    ['changed', desired, link({ writtenHash: 'old' }), 'update'],
    ['moved to another calendar', desired, link({ calendarId: 'b@group' }), 'move'],
    ['cancelled while mirrored', null, link(), 'delete'],
    ['cancelled, never mirrored', null, undefined, 'none'],
    ['cancelled, already deleted', null, link({ present: false }), 'none'],
  ])('%s => %s', (_name, d, l, kind) => {
    expect(planAction('k-1', d, l).kind).toBe(kind);
  });

  it('inserts with the recorded id generation', () => {
    const a = planAction('k-1', desired, link({ present: false, generation: 2 }));
    expect(a).toMatchObject({ kind: 'insert', generation: 2 });
    const b = planAction('k-1', desired, undefined);
    expect(a.kind === 'insert' && b.kind === 'insert' && a.eventId !== b.eventId).toBe(true);
  });

  it('updates with the stored etag', () => {
    expect(planAction('k-1', desired, link({ writtenHash: 'x', etag: '"9"' }))).toMatchObject({ kind: 'update', etag: '"9"' });
  });
});

describe('breakerTrips', () => {
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
