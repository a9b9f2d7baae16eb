import { describe, expect, it } from 'vitest';
import { desiredEvent, isDesired, type DesiredEvent, type MirrorMapping } from './desired-event.ts';
import type { Appointment } from '../appointment.ts';
import { testAppointment } from '../../../test/helpers/appointment.ts';

const mapping: MirrorMapping = {
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
    expect(desiredEvent(appt(), 1, false, { ...mapping, calendars: [{ calendar_key: 'cal-z', calendar_id: 'z' }] })).toEqual({
      none: 'no_calendar',
    });
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
