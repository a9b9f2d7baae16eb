// The calendar object we write and what we read back from what calendar apps write: instants, never
// bytes, whatever zone definition, time form or extra properties the app chose.
import { describe, expect, it } from 'vitest';
import { renderCalendarObject } from './event-body.ts';
import { EventReadError, readEvent } from './event-reader.ts';
import { testAppointment } from '../../test/helpers/appointment.ts';
import { unfold } from '../../test/feeds/ics-assert.ts';
import { TEMPLATES } from '../../test/caldav/setup.ts';

const START = Date.UTC(2026, 5, 15, 13, 0); // 10:00 in São Paulo, 09:00 in New York (EDT)

describe('the object we write', () => {
  const appointment = testAppointment({ key: 'k-1', start: START, end: START + 45 * 60_000 });
  const ics = renderCalendarObject(
    { appointment, revision: 4, changedAt: Date.UTC(2026, 5, 1, 8, 30) },
    TEMPLATES,
    '0123456789abcdef0123456789abcdef',
  );

  it('holds one VEVENT with UID {key}@calbridge, SEQUENCE, LAST-MODIFIED and local times with TZID', () => {
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const line of ics.split('\r\n')) expect(Buffer.byteLength(line, 'utf8'), line).toBeLessThanOrEqual(75);
    const text = unfold(ics);
    expect(text).toMatch(/\r\nUID:k-1@calbridge\r\nSEQUENCE:4\r\n/);
    expect(text).toContain('LAST-MODIFIED:20260601T083000Z\r\n');
    expect(text).toContain('DTSTART;TZID=America/Sao_Paulo:20260615T100000\r\n');
    expect(text).toContain('DTEND;TZID=America/Sao_Paulo:20260615T104500\r\n');
    expect(text.match(/BEGIN:VEVENT/g)).toHaveLength(1);
  });

  it('carries the VTIMEZONE its TZID names, before the event', () => {
    expect(ics.indexOf('BEGIN:VTIMEZONE\r\nTZID:America/Sao_Paulo\r\n')).toBeGreaterThan(0);
    expect(ics.indexOf('END:VTIMEZONE')).toBeLessThan(ics.indexOf('BEGIN:VEVENT'));
    expect(ics).toMatch(/TZOFFSETTO:-0300/);
  });

  it('takes the title and description from the caldav templates', () => {
    const text = unfold(ics);
    expect(text).toContain('SUMMARY:João Araújo · AB12\r\n');
    expect(text).toContain('DESCRIPTION:Clinic A\\njoao@example.com\r\n');
  });

  it('reads back as the instants it was written with', () => {
    expect(readEvent(ics, 'UTC')).toEqual({
      uid: 'k-1@calbridge',
      key: 'k-1',
      start: START,
      end: START + 45 * 60_000,
      allDay: false,
      status: 'CONFIRMED',
      sequence: 4,
      recurring: false,
      ourHash: '0123456789abcdef0123456789abcdef',
      summary: 'João Araújo · AB12',
      description: 'Clinic A\njoao@example.com',
    });
  });

  it('carries the writer’s hash in X-CALBRIDGE-HASH inside the VEVENT, and an app that drops it leaves none', () => {
    expect(unfold(ics)).toMatch(/\r\nX-CALBRIDGE-HASH:0123456789abcdef0123456789abcdef\r\nEND:VEVENT\r\n/);
    expect(readEvent(ics.replace(/X-CALBRIDGE-HASH:.*\r\n/, ''), 'UTC').ourHash).toBeNull();
  });

  it('keeps exact instants across daylight saving changes, through its own VTIMEZONE', () => {
    // New York: the week after the spring change, the week before the autumn one, and a winter day.
    for (const at of [Date.UTC(2026, 2, 9, 13), Date.UTC(2026, 9, 26, 13), Date.UTC(2026, 11, 1, 14)]) {
      const a = testAppointment({ key: 'ny', start: at, end: at + 3_600_000, timezone: 'America/New_York' });
      const body = renderCalendarObject({ appointment: a, revision: 1, changedAt: at }, TEMPLATES);
      expect(unfold(body)).toContain('DTSTART;TZID=America/New_York:2026');
      expect(body).toMatch(/T090000\r\n/);
      expect(readEvent(body, 'UTC')).toMatchObject({ start: at, end: at + 3_600_000 });
    }
  });

  it('writes a pending appointment as TENTATIVE', () => {
    const a = testAppointment({ status: 'PENDING_PAYMENT' });
    expect(readEvent(renderCalendarObject({ appointment: a, revision: 1, changedAt: START }, TEMPLATES), 'UTC').status).toBe('TENTATIVE');
  });
});

const wrap = (lines: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');
const event = (lines: string[]) => ['BEGIN:VEVENT', 'UID:k-2@calbridge', 'DTSTAMP:20260601T000000Z', ...lines, 'END:VEVENT'];

// As Apple Calendar saves an event it moved: its own rule-based VTIMEZONE, an alarm, its X- properties.
const BERLIN = [
  'BEGIN:VTIMEZONE',
  'TZID:Europe/Berlin',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0100',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'DTSTART:19810329T020000',
  'TZNAME:CEST',
  'TZOFFSETTO:+0200',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0200',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'DTSTART:19961027T030000',
  'TZNAME:CET',
  'TZOFFSETTO:+0100',
  'END:STANDARD',
  'END:VTIMEZONE',
];

describe('reading what calendar apps write', () => {
  it('honours a rule-based VTIMEZONE in summer and in winter, ignoring alarms and X- properties', () => {
    for (const [local, utc] of [
      ['20260615T150000', Date.UTC(2026, 5, 15, 13)],
      ['20261215T150000', Date.UTC(2026, 11, 15, 14)],
    ] as const) {
      const ics = wrap([
        ...BERLIN,
        ...event([
          `DTSTART;TZID=Europe/Berlin:${local}`,
          `DTEND;TZID=Europe/Berlin:${local.slice(0, 9)}160000`,
          'SEQUENCE:7',
          'X-APPLE-TRAVEL-ADVISORY-BEHAVIOR:AUTOMATIC',
          'BEGIN:VALARM',
          'ACTION:DISPLAY',
          'TRIGGER:-PT15M',
          'DESCRIPTION:Reminder',
          'END:VALARM',
        ]),
      ]);
      expect(readEvent(ics, 'America/Sao_Paulo')).toMatchObject({
        key: 'k-2',
        start: utc,
        end: utc + 3_600_000,
        sequence: 7,
        status: null,
      });
    }
  });

  it("uses the object's own definition of a zone with a Windows name, as Outlook writes it", () => {
    const ics = wrap([
      ...BERLIN.map((l) => l.replace('TZID:Europe/Berlin', 'TZID:W. Europe Standard Time')),
      ...event(['DTSTART;TZID=W. Europe Standard Time:20260615T150000', 'DURATION:PT30M']),
    ]);
    expect(readEvent(ics, 'UTC')).toMatchObject({ start: Date.UTC(2026, 5, 15, 13), end: Date.UTC(2026, 5, 15, 13, 30) });
  });

  it('reads an IANA TZID without a VTIMEZONE through the zone of that name', () => {
    const ics = wrap(event(['DTSTART;TZID=Asia/Tokyo:20260615T220000', 'DTEND;TZID=Asia/Tokyo:20260615T230000']));
    expect(readEvent(ics, 'UTC')).toMatchObject({ start: Date.UTC(2026, 5, 15, 13), end: Date.UTC(2026, 5, 15, 14) });
  });

  it('refuses a TZID that is neither defined in the object nor an IANA zone, naming it', () => {
    const ics = wrap(event(['DTSTART;TZID=Mountain Standard Time:20260615T070000']));
    expect(() => readEvent(ics, 'UTC')).toThrow(EventReadError);
    expect(() => readEvent(ics, 'UTC')).toThrow(/DTSTART names the time zone "Mountain Standard Time"/);
  });

  it('reads UTC as written and floating times in the booking time zone', () => {
    expect(readEvent(wrap(event(['DTSTART:20260615T130000Z', 'DTEND:20260615T140000Z'])), 'Asia/Tokyo').start).toBe(
      Date.UTC(2026, 5, 15, 13),
    );
    expect(readEvent(wrap(event(['DTSTART:20260615T100000', 'DTEND:20260615T110000'])), 'America/Sao_Paulo')).toMatchObject({
      start: Date.UTC(2026, 5, 15, 13),
      end: Date.UTC(2026, 5, 15, 14),
    });
  });

  it('flags an event turned all-day, and one made to repeat', () => {
    expect(readEvent(wrap(event(['DTSTART;VALUE=DATE:20260615'])), 'America/Sao_Paulo')).toMatchObject({
      allDay: true,
      start: Date.UTC(2026, 5, 15, 3),
      end: Date.UTC(2026, 5, 16, 3),
    });
    expect(readEvent(wrap(event(['DTSTART:20260615T130000Z', 'RRULE:FREQ=WEEKLY;COUNT=3'])), 'UTC').recurring).toBe(true);
  });

  it('reads a cancelled event, and gives no key for a UID that is not ours', () => {
    const ics = wrap(['BEGIN:VEVENT', 'UID:5D1E-phone', 'DTSTART:20260615T130000Z', 'STATUS:CANCELLED', 'END:VEVENT']);
    expect(readEvent(ics, 'UTC')).toMatchObject({ uid: '5D1E-phone', key: null, status: 'CANCELLED' });
  });

  it('says what is wrong with a body it cannot read', () => {
    expect(() => readEvent('hello', 'UTC')).toThrow(/not iCalendar/);
    expect(() => readEvent(wrap(['BEGIN:VTODO', 'UID:t', 'END:VTODO']), 'UTC')).toThrow(/no VEVENT/);
    expect(() => readEvent(wrap(['BEGIN:VEVENT', 'DTSTART:20260615T130000Z', 'END:VEVENT']), 'UTC')).toThrow(/no UID/);
    expect(() => readEvent(wrap(['BEGIN:VEVENT', 'UID:x', 'END:VEVENT']), 'UTC')).toThrow(/no DTSTART/);
  });
});
