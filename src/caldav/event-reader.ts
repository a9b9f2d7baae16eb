// A calendar object as the mirror reads it back: which appointment, when, in what state. Calendar
// apps rewrite what they save (their own VTIMEZONE, VALARMs, another SEQUENCE, properties dropped or
// reordered), so only meaning is read here, never bytes. Times become instants: UTC as written, a
// TZID through the object's own VTIMEZONE (ical.js), else through the IANA zone of that name, and a
// floating time or an all-day date in the booking time zone.
import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { HASH_PROPERTY } from './event-body.ts';

export interface ReadEvent {
  uid: string;
  /** The appointment key when the UID is one of ours ({key}@calbridge), else null. */
  key: string | null;
  /** Epoch ms. */
  start: number;
  end: number;
  /** A DATE value: a person turned it into an all-day event. */
  allDay: boolean;
  /** CONFIRMED, TENTATIVE, CANCELLED as written (upper case), or null when absent. */
  status: string | null;
  sequence: number | null;
  /** RRULE/RDATE or overridden instances: a person made it repeat. */
  recurring: boolean;
  /** The hash our write put in X-CALBRIDGE-HASH; null when absent (an app may drop X- properties). */
  ourHash: string | null;
  /** SUMMARY, the title the apps show; null when absent. */
  summary: string | null;
  /** DESCRIPTION; null when absent. */
  description: string | null;
}

export class EventReadError extends Error {
  override name = 'EventReadError';
}

const OUR_UID = /^(.+)@calbridge$/;

/** `fallbackZone` (booking.timezone) places floating times and dates. */
export function readEvent(ics: string, fallbackZone: string): ReadEvent {
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(ics) as unknown[]);
  } catch (e) {
    throw new EventReadError(`not iCalendar: ${(e as Error).message}`);
  }
  if (root.name !== 'vcalendar') throw new EventReadError(`expected a VCALENDAR, got ${root.name.toUpperCase()}`);
  const events = root.getAllSubcomponents('vevent');
  const master = events.find((e) => !e.hasProperty('recurrence-id'));
  if (!master) throw new EventReadError('no VEVENT without RECURRENCE-ID');
  const uid = String(master.getFirstPropertyValue('uid') ?? '').trim();
  if (!uid) throw new EventReadError('the VEVENT has no UID');

  const startProp = master.getFirstProperty('dtstart');
  if (!startProp) throw new EventReadError(`VEVENT ${uid} has no DTSTART`);
  const startTime = startProp.getFirstValue() as ICAL.Time;
  const start = instantOf(startProp, fallbackZone, uid);
  const endProp = master.getFirstProperty('dtend');
  const duration = master.getFirstPropertyValue('duration') as ICAL.Duration | null;
  let end: number;
  if (endProp) end = instantOf(endProp, fallbackZone, uid);
  else if (duration) end = start + duration.toSeconds() * 1000;
  else end = startTime.isDate ? DateTime.fromMillis(start, { zone: fallbackZone }).plus({ days: 1 }).toMillis() : start; // RFC 5545 §3.6.1

  const status = master.getFirstPropertyValue('status');
  const sequence = master.getFirstPropertyValue('sequence');
  const hash = master.getFirstPropertyValue(HASH_PROPERTY.toLowerCase());
  const summary = master.getFirstPropertyValue('summary');
  const description = master.getFirstPropertyValue('description');
  return {
    uid,
    key: OUR_UID.exec(uid)?.[1] ?? null,
    start,
    end,
    allDay: startTime.isDate,
    status: typeof status === 'string' && status.trim() ? status.trim().toUpperCase() : null,
    sequence: typeof sequence === 'number' && Number.isFinite(sequence) ? sequence : null,
    recurring: master.hasProperty('rrule') || master.hasProperty('rdate') || events.length > 1,
    ourHash: typeof hash === 'string' && hash.trim() ? hash.trim() : null,
    summary: typeof summary === 'string' ? summary : null,
    description: typeof description === 'string' ? description : null,
  };
}

function instantOf(prop: ICAL.Property, fallbackZone: string, uid: string): number {
  const time = prop.getFirstValue() as ICAL.Time;
  const tzid = prop.getParameter('tzid');
  const name = prop.name.toUpperCase();
  const local = { year: time.year, month: time.month, day: time.day, hour: time.hour, minute: time.minute, second: time.second };
  if (time.isDate) return DateTime.fromObject({ year: time.year, month: time.month, day: time.day }, { zone: fallbackZone }).toMillis();
  // ical.js resolved UTC ("Z") and a TZID defined by a VTIMEZONE of this object; else the zone is "floating".
  if (time.zone && time.zone !== ICAL.Timezone.localTimezone) return time.toUnixTime() * 1000;
  const zone = typeof tzid === 'string' && tzid ? tzid.replace(/^\//, '') : fallbackZone;
  const at = DateTime.fromObject(local, { zone });
  if (!at.isValid)
    throw new EventReadError(
      `VEVENT ${uid}: ${name} names the time zone "${zone}", which the object does not define and is not an IANA zone`,
    );
  return at.toMillis();
}
