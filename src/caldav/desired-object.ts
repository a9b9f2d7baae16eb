// The calendar object an appointment should have in a CalDAV calendar, or why none: the mirror
// core's desired event (which calendar, which statuses, the hash of what is shown) with the body
// rendered as the feeds render it, carrying that hash in X-CALBRIDGE-HASH.
import type { Appointment } from '../core/appointment.ts';
import type { Messages } from '../core/i18n/index.ts';
import { desiredEvent, isDesired, type Desired, type MirrorMapping } from '../core/mirror/desired-event.ts';
import { renderCalendarObject } from './event-body.ts';
import { readEvent } from './event-reader.ts';
import type { CalendarObject } from './caldav-target.ts';

export interface CalDavMapping {
  /** booking calendar -> CalDAV calendar (display name or collection URL); first match wins. */
  calendars: readonly { calendar_key: string; calendar: string }[];
  statuses: readonly string[];
  title: string;
  description: string;
}

/** The mapping in the mirror core's words: a CalDAV calendar as configured is the target's calendar id. */
export function mirrorMapping(c: CalDavMapping, messages?: Messages): MirrorMapping {
  return {
    calendars: c.calendars.map((m) => ({ calendar_key: m.calendar_key, calendar_id: m.calendar })),
    statuses: c.statuses,
    title: c.title,
    description: c.description,
    ...(messages ? { messages } : {}),
  };
}

/** `changedAt`: the appointment's last material change (LAST-MODIFIED, DTSTAMP), as the feeds use it. */
export function desiredObject(
  a: Appointment,
  revision: number,
  gone: boolean,
  mapping: MirrorMapping,
  changedAt: number,
): Desired<CalendarObject> {
  const d = desiredEvent(a, revision, gone, mapping);
  if (!isDesired(d)) return d;
  const body = renderCalendarObject(
    { appointment: a, revision, changedAt },
    { title: mapping.title, description: mapping.description, ...(mapping.messages ? { messages: mapping.messages } : {}) },
    d.hash,
  );
  // What the object shows, as a CalDAV app reads it back: the renderer's own words for the title and description.
  const shown = readEvent(body, a.timezone);
  const looks = {
    title: shown.summary ?? '',
    description: shown.description ?? '',
    status: (shown.status ?? d.looks.status).toLowerCase(),
  };
  return { calendarId: d.calendarId, hash: d.hash, start: d.start, end: d.end, looks, body };
}
