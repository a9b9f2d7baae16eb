import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { DateTime } from 'luxon';
import fc from 'fast-check';
import { appointmentKeyOf, keyProblem, readAppointment, readInstant, type ReaderOptions } from './reader.ts';
import type { Appointment } from './appointment.ts';

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../../test/fixtures/booking/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;

const practice = fixture('practice-appointment.json');
const seed = fixture('seed-appointment.json');
const SERVICE = 'e98b62f6-e03b-422d-951c-84af0c75d602';
const options: ReaderOptions = { timezone: 'America/Sao_Paulo', defaultDurationMinutes: 60, serviceDurations: {} };

function read(raw: unknown, o: Partial<ReaderOptions> = {}): Appointment {
  const r = readAppointment(raw, { ...options, ...o });
  if (!r.ok) throw new Error(`expected ok, got: ${r.reason}`);
  return r.appointment;
}

describe('readAppointment: the shape seen in practice (vendor fixture)', () => {
  const a = read(practice);
  it('reads key, status, times with their own offset, and the booking zone', () => {
    expect(a.key).toBe('733d9fee-c3ce-41f6-a941-122b7f72dc4c');
    expect(a.status).toBe('CONFIRMED');
    expect(a.start).toBe(Date.parse('2024-09-19T10:55:00Z'));
    expect(a.end).toBe(Date.parse('2024-09-19T11:00:00Z'));
    expect(a.timezone).toBe('America/Sao_Paulo');
    expect(a.createdAt).toBe(Date.parse('2024-09-17T19:40:52.238Z'));
  });
  it('takes the person from attendees[0], the calendar name from calendar_name, services from service_list', () => {
    expect(a.person).toEqual({
      personKey: '99c75918-ef8b-461f-8cb5-435c8d5432ab',
      fullName: 'Test User Name',
      email: 'test_user@eagendas.com',
      phone: '+19942123468',
      documentNumber: null,
    });
    expect(a.calendar).toEqual({ calendarKey: '07b92c5a-245c-4cad-bcfa-9419ee964841', name: 'Multiplos serviços' });
    expect(a.services).toEqual([{ serviceKey: SERVICE, name: 'Product Demo' }]);
    expect(a.tagKeys).toEqual([]);
    expect(a.ownerUser).toBe('test@mupisystems.com.br');
  });
  it('keeps the whole record raw', () => {
    expect(a.raw).toEqual(practice);
  });
});

describe('readAppointment: the seed shape', () => {
  const a = read(seed);
  it('reads every field and upper-cases the status', () => {
    expect(a).toMatchObject({
      key: '5b0e3c1a-8f2d-4c6e-9a7b-1d2e3f4a5b6c',
      searchCode: 'AG00042',
      status: 'CONFIRMED',
      start: Date.parse('2026-06-15T13:00:00Z'),
      end: Date.parse('2026-06-15T13:30:00Z'),
      calendar: { calendarKey: '0a1b2c3d-0000-4000-a000-000000000001', name: 'Dra. Lúcia Magalhães' },
      person: {
        personKey: '9f8e7d6c-0000-4000-a000-000000000002',
        fullName: 'João Araújo',
        email: 'joao@example.com',
        phone: '+5511999990000',
        documentNumber: '12345678901',
      },
      clientKey: 'c1c1c1c1-0000-4000-a000-000000000003',
      services: [{ serviceKey: SERVICE, name: null }],
      tagKeys: ['d1a2b3c4-0000-4000-a000-00000000000a'],
      ownerUser: 'recepcao@clinica.example',
      externalId: 'ext-77',
      createdAt: Date.parse('2026-06-01T12:15:00Z'),
    });
  });
  it('keeps unknown fields in raw', () => {
    expect((a.raw as Record<string, unknown>).room).toBe('Sala 3');
  });
  it('reads the record inside a notification envelope', () => {
    expect(read({ event: 'appointment.created', timestamp: '2026-06-01T00:00:00Z', data: seed }).key).toBe(seed.appointment_key);
  });
});

describe('readAppointment: times and durations', () => {
  const base = { appointment_key: 'k1', status: 'PENDING' };
  const cases: { name: string; record: Record<string, unknown>; o?: Partial<ReaderOptions>; start: string; end: string }[] = [
    {
      name: 'offset-less start in booking.timezone, default duration',
      record: { ...base, start_date: '2026-06-15T10:00:00' },
      start: '2026-06-15T13:00:00Z',
      end: '2026-06-15T14:00:00Z',
    },
    {
      name: "offset-less dateTime in the record's own timeZone",
      record: { ...base, start: { dateTime: '2026-06-15T10:00:00', timeZone: 'Europe/Lisbon' } },
      start: '2026-06-15T09:00:00Z',
      end: '2026-06-15T10:00:00Z',
    },
    {
      name: 'an unknown record timeZone falls back to booking.timezone',
      record: { ...base, start: { dateTime: '2026-06-15T10:00:00', timeZone: 'Mars/Olympus' } },
      start: '2026-06-15T13:00:00Z',
      end: '2026-06-15T14:00:00Z',
    },
    {
      name: 'plain string start/end',
      record: { ...base, start: '2026-06-15T10:00:00Z', end: '2026-06-15T10:20:00Z' },
      start: '2026-06-15T10:00:00Z',
      end: '2026-06-15T10:20:00Z',
    },
    {
      name: 'service duration when there is no end',
      record: { ...base, start_date: '2026-06-15T10:00:00Z', service_keys: [SERVICE] },
      o: { serviceDurations: { [SERVICE]: 45 } },
      start: '2026-06-15T10:00:00Z',
      end: '2026-06-15T10:45:00Z',
    },
    {
      name: 'configured default duration',
      record: { ...base, start_date: '2026-06-15T10:00:00Z' },
      o: { defaultDurationMinutes: 25 },
      start: '2026-06-15T10:00:00Z',
      end: '2026-06-15T10:25:00Z',
    },
    {
      name: 'an end before the start is not believed',
      record: { ...base, start_date: '2026-06-15T10:00:00Z', end_date: '2026-06-15T09:00:00Z' },
      start: '2026-06-15T10:00:00Z',
      end: '2026-06-15T11:00:00Z',
    },
    {
      name: 'SQL-style datetime with a space',
      record: { ...base, start_date: '2026-06-15 10:00:00' },
      start: '2026-06-15T13:00:00Z',
      end: '2026-06-15T14:00:00Z',
    },
  ];
  it.each(cases)('$name', ({ record, o, start, end }) => {
    const a = read(record, o);
    expect(new Date(a.start).toISOString()).toBe(new Date(start).toISOString());
    expect(new Date(a.end).toISOString()).toBe(new Date(end).toISOString());
  });
});

describe('readAppointment: variants', () => {
  it('reads tag_list of objects or strings and service_list of strings', () => {
    const a = read({ ...practice, tag_list: [{ tag_key: 't1', name: 'VIP' }, 't2'], service_list: ['s1'] });
    expect(a.tagKeys).toEqual(['t1', 't2']);
    expect(a.services).toEqual([{ serviceKey: 's1', name: null }]);
  });
  it('takes created_at as a string too, and an unreadable created_at as unknown', () => {
    expect(read({ ...practice, created_at: '2024-09-17T15:40:52-04:00' }).createdAt).toBe(Date.parse('2024-09-17T19:40:52Z'));
    expect(read({ ...practice, created_at: 'yesterday' }).createdAt).toBeNull();
  });
  it('reads a cancelled record without status as CANCELED', () => {
    const { status: _status, ...rest } = seed;
    expect(read({ ...rest, is_cancelled: true }).status).toBe('CANCELED');
  });
  it('keeps an unknown status, upper-cased, instead of refusing the record', () => {
    expect(read({ ...seed, status: 'waiting_list' }).status).toBe('WAITING_LIST');
  });
});

describe('readAppointment: malformed records are refused with a reason', () => {
  const cases: { name: string; raw: unknown; reason: RegExp }[] = [
    { name: 'null', raw: null, reason: /not an appointment record/ },
    { name: 'an array', raw: [seed], reason: /array/ },
    { name: 'a string', raw: 'hello', reason: /not an appointment record/ },
    { name: 'no key', raw: { ...seed, appointment_key: undefined }, reason: /no appointment_key/ },
    { name: 'an empty key', raw: { ...seed, appointment_key: '  ' }, reason: /no appointment_key/ },
    { name: 'no start', raw: { appointment_key: 'k', status: 'CONFIRMED' }, reason: /k has no start_date or start/ },
    { name: 'an unreadable start', raw: { ...seed, start_date: 'next tuesday' }, reason: /unreadable start/ },
    { name: 'a start object without dateTime', raw: { ...practice, start: { timeZone: 'UTC' } }, reason: /unreadable start/ },
    { name: 'no status', raw: { appointment_key: 'k', start_date: '2026-06-15T10:00:00Z' }, reason: /no status/ },
  ];
  it.each(cases)('$name', ({ raw, reason }) => {
    const r = readAppointment(raw, options);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(reason);
  });
});

describe('appointmentKeyOf', () => {
  it.each([
    ['a bare record', practice, '733d9fee-c3ce-41f6-a941-122b7f72dc4c'],
    ['an envelope', { event: 'appointment.updated', data: seed }, '5b0e3c1a-8f2d-4c6e-9a7b-1d2e3f4a5b6c'],
    ['an upper-case envelope', { event: 'CREATED', data: { appointment_key: 'k9' } }, 'k9'],
    ['an array', [seed], undefined],
    ['an envelope without a key', { event: 'x', data: {} }, undefined],
    ['a record whose key is a dot segment', { ...seed, appointment_key: '.' }, undefined],
  ] as const)('%s', (_name, raw, key) => {
    expect(appointmentKeyOf(raw)).toBe(key);
  });
});

describe('keys from outside: one check for every path in', () => {
  it.each([
    ['an empty key', '', /empty/],
    ['a dot segment', '.', /dot path segment/],
    ['a double dot segment', '..', /dot path segment/],
    ['a slash', 'a/b', /slash/],
    ['a backslash', 'a\\b', /backslash/],
    ['CR/LF', 'k\r\nX-INJECT:1', /control character/],
    ['a NUL', 'k\u0000', /control character/],
    ['a C1 control character', 'k\u0085', /control character/],
    ['a space', 'a b', /whitespace/],
    ['a no-break space', 'a\u00a0b', /whitespace/],
    ['a percent sign (already encoded text)', '%2e%2e', /letter or digit/],
    ['a leading dot', '.hidden', /letter or digit/],
    ['201 characters', 'a'.repeat(201), /longer than 200/],
  ])('refuses %s', (_name, key, problem) => {
    expect(keyProblem(key)).toMatch(problem);
  });

  it.each([
    ['a UUID', '733d9fee-c3ce-41f6-a941-122b7f72dc4c'],
    ['a number', '12345'],
    ['letters, digits, - _ . :', 'Ab9_x.y:z-1'],
    ['200 characters', 'a'.repeat(200)],
  ])('accepts %s', (_name, key) => {
    expect(keyProblem(key)).toBeUndefined();
  });

  it('refuses a record whose key could break a path or a feed line, naming the key safely', () => {
    const r = readAppointment({ ...seed, appointment_key: 'k\r\nX-INJECT:1' }, options);
    expect(r).toEqual({
      ok: false,
      reason: 'the record has an unusable appointment_key "k\\r\\nX-INJECT:1": it contains a control character',
    });
  });
});

describe('readInstant', () => {
  // The reference: luxon, which read every instant before Date.parse took the booking service's usual shape.
  const byLuxon = (s: string, zone: string): number | null => {
    let dt = DateTime.fromISO(s, { zone });
    if (!dt.isValid) dt = DateTime.fromSQL(s, { zone });
    return dt.isValid ? dt.toMillis() : null;
  };

  it('reads an instant with its offset as luxon does, for every date, time and offset, valid or not', () => {
    const two = (n: number) => String(n).padStart(2, '0');
    fc.assert(
      fc.property(
        fc.record({
          year: fc.integer({ min: 1900, max: 2100 }),
          month: fc.integer({ min: 0, max: 13 }),
          day: fc.integer({ min: 0, max: 32 }),
          hour: fc.integer({ min: 0, max: 24 }),
          minute: fc.integer({ min: 0, max: 60 }),
          second: fc.option(fc.integer({ min: 0, max: 60 })),
          millis: fc.option(fc.integer({ min: 0, max: 999 })),
          offset: fc.option(
            fc.record({ sign: fc.constantFrom('+', '-'), hours: fc.integer({ min: 0, max: 15 }), minutes: fc.constantFrom(0, 30, 45) }),
          ),
          zone: fc.constantFrom('America/Sao_Paulo', 'Europe/Lisbon', 'UTC'),
        }),
        (t) => {
          const seconds = t.second === null ? '' : `:${two(t.second)}${t.millis === null ? '' : `.${String(t.millis).padStart(3, '0')}`}`;
          const offset = t.offset === null ? 'Z' : `${t.offset.sign}${two(t.offset.hours)}:${two(t.offset.minutes)}`;
          const s = `${t.year}-${two(t.month)}-${two(t.day)}T${two(t.hour)}:${two(t.minute)}${seconds}${offset}`;
          expect(readInstant(s, t.zone)).toBe(byLuxon(s, t.zone));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('reads the shapes of the fixtures, and times without an offset in the given zone', () => {
    expect(readInstant('2026-06-15T10:00:00-03:00', 'UTC')).toBe(Date.UTC(2026, 5, 15, 13));
    expect(readInstant({ dateTime: '2024-09-17T15:40:52.238-04:00', timeZone: 'America/New_York' }, 'UTC')).toBe(
      Date.UTC(2024, 8, 17, 19, 40, 52, 238),
    );
    expect(readInstant('2026-06-15T10:00:00', 'America/Sao_Paulo')).toBe(Date.UTC(2026, 5, 15, 13));
    expect(readInstant('2026-06-15 10:00:00', 'America/Sao_Paulo')).toBe(Date.UTC(2026, 5, 15, 13));
    expect(readInstant('not a date', 'UTC')).toBeNull();
  });
});
