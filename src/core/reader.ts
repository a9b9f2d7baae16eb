// The tolerant reader: booking records in the documented shape (start_date, person, calendar.name) and in
// the shape seen in practice (start/end {dateTime, timeZone}, attendees[], calendar.calendar_name,
// service_list[]) become one Appointment. Pure: no I/O, no clock.
import { DateTime } from 'luxon';
import type { Appointment, Person } from './appointment.ts';

export interface ReaderOptions {
  /** booking.timezone: the appointment's zone and the zone of offset-less times without their own. */
  timezone: string;
  defaultDurationMinutes: number;
  serviceDurations: Record<string, number>;
}

/** From the config's booking section (named as in YAML). */
export function readerOptions(config: {
  timezone: string;
  default_duration_minutes: number;
  service_durations: Record<string, number>;
}): ReaderOptions {
  return {
    timezone: config.timezone,
    defaultDurationMinutes: config.default_duration_minutes,
    serviceDurations: config.service_durations,
  };
}

export type ReadResult = { ok: true; appointment: Appointment } | { ok: false; reason: string };

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A non-empty string (numbers are accepted as their text: some services send numeric ids). */
function text(v: unknown): string | null {
  if (typeof v === 'string') return v.trim() === '' ? null : v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

/** The record itself, or the `data` of a notification envelope. */
function recordOf(raw: unknown): Obj | undefined {
  if (!isObj(raw)) return undefined;
  if (text(raw.appointment_key) === null && isObj(raw.data)) return raw.data;
  return raw;
}

const MAX_KEY_LENGTH = 200;
const KEY = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;

/**
 * Why a key from outside cannot be used, or undefined when it can. Every key that comes in (webhook,
 * listing, any API answer) passes here: keys become API path segments (`.`/`..` would collapse
 * /appointments/{key}/), feed UIDs (CR/LF would add lines) and log fields. An allowlist, so whatever
 * the list of dangerous characters misses is refused too.
 */
export function keyProblem(key: string): string | undefined {
  if (key === '') return 'is empty';
  if (key.length > MAX_KEY_LENGTH) return `is longer than ${MAX_KEY_LENGTH} characters`;
  if (key === '.' || key === '..') return 'is a dot path segment';
  if (/[/\\]/.test(key)) return 'contains a slash or backslash';
  if (/[\u0000-\u001f\u007f-\u009f]/.test(key)) return 'contains a control character';
  if (/\s/.test(key)) return 'contains whitespace';
  if (!KEY.test(key)) return 'is not a letter or digit followed by letters, digits, - _ . :';
  return undefined;
}

/** A key as text (numbers too: some services send numeric ids), or why it is refused; `where` names it in the reason. */
export function readKey(value: unknown, where: string): { ok: true; key: string } | { ok: false; reason: string } {
  const key = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof key !== 'string' || key.trim() === '') return { ok: false, reason: `${where} has no appointment_key` };
  const problem = keyProblem(key);
  // The key itself is shown JSON-quoted and cut short, so a hostile one cannot break a log or status line.
  return problem
    ? { ok: false, reason: `${where} has an unusable appointment_key ${JSON.stringify(key.slice(0, 60))}: it ${problem}` }
    : { ok: true, key };
}

/** The (usable) appointment key of a bare record or of an envelope's data; undefined when there is none. */
export function appointmentKeyOf(raw: unknown): string | undefined {
  const read = readKey(recordOf(raw)?.appointment_key, 'the record');
  return read.ok ? read.key : undefined;
}

function validZone(zone: unknown): string | undefined {
  const z = text(zone);
  return z && DateTime.local().setZone(z).isValid ? z : undefined;
}

/**
 * An instant with its offset, in a form ECMAScript defines Date.parse for exactly
 * (YYYY-MM-DDTHH:mm[:ss[.sss]] then Z or ±HH:mm): the booking service's own shape. Date.parse reads
 * it in a fraction of luxon's time (its parser took 4 % of serve's busy time while webhooks were
 * applied); the instant is the same, since an offset in the text leaves no zone to apply. Hour 24
 * and days a month does not have are left to luxon, which judges them as before (a property test
 * holds the two readings equal); so is every other shape, and any text Date.parse refuses.
 */
const ES_INSTANT = /^\d{4}-\d{2}-\d{2}T(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{3})?)?(?:Z|[+-]\d{2}:[0-5]\d)$/;

/** YYYY-MM-DD names a day that exists (Date.parse takes 1900-02-29 as 1 March; luxon refuses it). */
function isCalendarDate(s: string): boolean {
  const month = Number(s.slice(5, 7));
  const day = Number(s.slice(8, 10));
  return month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(Number(s.slice(0, 4)), month, 0)).getUTCDate();
}

/** An instant from "…+03:00", "…Z", an offset-less local time (in `zone`), or {dateTime, timeZone}. */
export function readInstant(v: unknown, zone: string): number | null {
  let value: unknown = v;
  let z = zone;
  if (isObj(v)) {
    value = v.dateTime ?? v.date_time ?? v.date;
    z = validZone(v.timeZone ?? v.time_zone) ?? zone;
  }
  const s = text(value);
  if (s === null) return null;
  if (ES_INSTANT.test(s) && isCalendarDate(s)) {
    const ms = Date.parse(s);
    if (!Number.isNaN(ms)) return ms;
  }
  let dt = DateTime.fromISO(s, { zone: z });
  if (!dt.isValid) dt = DateTime.fromSQL(s, { zone: z });
  return dt.isValid ? dt.toMillis() : null;
}

function readPerson(r: Obj): Person {
  const seed = isObj(r.person) ? r.person : undefined;
  const attendee = Array.isArray(r.attendees) && isObj(r.attendees[0]) ? r.attendees[0] : undefined;
  const p = seed ?? attendee ?? {};
  return {
    personKey: text(p.person_key) ?? text(r.person_key),
    fullName: text(p.full_name) ?? text(p.name),
    email: text(p.email) ?? text(r.email),
    phone: text(p.phone) ?? text(r.phone),
    documentNumber: text(r.identification_code) ?? text(p.identification_code),
  };
}

function readCalendar(r: Obj): Appointment['calendar'] {
  if (isObj(r.calendar)) {
    return {
      calendarKey: text(r.calendar.calendar_key) ?? text(r.calendar_key),
      name: text(r.calendar.name) ?? text(r.calendar.calendar_name) ?? text(r.calendar_name),
    };
  }
  return { calendarKey: text(r.calendar) ?? text(r.calendar_key), name: text(r.calendar_name) };
}

function readServices(r: Obj): Appointment['services'] {
  const out: Appointment['services'] = [];
  if (Array.isArray(r.service_list)) {
    for (const s of r.service_list) {
      const key = isObj(s) ? text(s.service_key) : text(s);
      if (key) out.push({ serviceKey: key, name: isObj(s) ? (text(s.service_name) ?? text(s.name)) : null });
    }
  }
  if (out.length === 0 && Array.isArray(r.service_keys)) {
    for (const s of r.service_keys) {
      const key = isObj(s) ? text(s.service_key) : text(s);
      if (key) out.push({ serviceKey: key, name: isObj(s) ? (text(s.service_name) ?? text(s.name)) : null });
    }
  }
  return out;
}

function readTags(r: Obj): string[] {
  const list = Array.isArray(r.tag_list) && r.tag_list.length > 0 ? r.tag_list : Array.isArray(r.tag_keys) ? r.tag_keys : [];
  return list.map((t) => (isObj(t) ? (text(t.tag_key) ?? text(t.key)) : text(t))).filter((k): k is string => k !== null);
}

function readStatus(r: Obj): string | null {
  const s = text(r.status);
  if (s) return s.trim().toUpperCase();
  // Without a status, is_cancelled is the only evidence; refusing beats guessing "confirmed".
  return r.is_cancelled === true ? 'CANCELED' : null;
}

/** End: the record's own, else the services' configured durations (summed), else the default. */
function endOf(r: Obj, start: number, services: Appointment['services'], o: ReaderOptions): number {
  const end = readInstant(r.end_date ?? r.end, o.timezone);
  if (end !== null && end > start) return end;
  const minutes = services.reduce((sum, s) => sum + (o.serviceDurations[s.serviceKey] ?? 0), 0);
  return start + (minutes > 0 ? minutes : o.defaultDurationMinutes) * 60_000;
}

export function readAppointment(raw: unknown, options: ReaderOptions): ReadResult {
  const r = recordOf(raw);
  if (!r)
    return { ok: false, reason: `not an appointment record (got ${Array.isArray(raw) ? 'an array' : raw === null ? 'null' : typeof raw})` };
  const read = readKey(r.appointment_key, 'the record');
  if (!read.ok) return { ok: false, reason: read.reason };
  const key = read.key;
  const startRaw = r.start_date ?? r.start;
  if (startRaw === undefined || startRaw === null) return { ok: false, reason: `appointment ${key} has no start_date or start` };
  const start = readInstant(startRaw, options.timezone);
  if (start === null) return { ok: false, reason: `appointment ${key} has an unreadable start: ${JSON.stringify(startRaw).slice(0, 80)}` };
  const status = readStatus(r);
  if (!status) return { ok: false, reason: `appointment ${key} has no status` };
  const services = readServices(r);
  const client = isObj(r.client) ? text(r.client.client_key) : null;
  return {
    ok: true,
    appointment: {
      key,
      searchCode: text(r.search_code),
      status,
      start,
      end: endOf(r, start, services, options),
      timezone: options.timezone,
      calendar: readCalendar(r),
      person: readPerson(r),
      clientKey: text(r.client_key) ?? client,
      services,
      tagKeys: readTags(r),
      ownerUser: text(r.owner_user) ?? (isObj(r.owner_user) ? text(r.owner_user.email) : null),
      externalId: text(r.external_id),
      createdAt: readInstant(r.created_at, options.timezone),
      raw: r,
    },
  };
}
