// Pure decisions for the Google mirror: the event an appointment should have (or none), and the one
// action that brings Google from what we last wrote to that. No I/O; table-tested.
import { DateTime } from 'luxon';
import { isPending, type Appointment } from './appointment.ts';
import { renderTemplate } from './template.ts';
import { hashOf } from './hash.ts';
import { eventIdFor } from './event-id.ts';

export interface GoogleMapping {
  calendars: { calendar_key: string; calendar_id: string }[];
  statuses: readonly string[];
  title: string;
  description: string;
}

/** The event body, in our own terms (src/google maps it to the vendor's). */
export interface DesiredBody {
  summary: string;
  description: string;
  status: 'confirmed' | 'tentative';
  start: { dateTime: string; timeZone: string };
  end: { dateTime: string; timeZone: string };
  privateProperties: Record<string, string>;
}

export interface DesiredEvent {
  calendarId: string;
  body: DesiredBody;
  /** Hash of everything Google shows; the revision is left out, so a change Google does not show writes nothing. */
  hash: string;
  start: number;
  end: number;
}

export type NoEventReason = 'gone' | 'cancelled' | 'status' | 'no_calendar';

/** What we last wrote (google_links), as the planner needs it. */
export interface LinkState {
  calendarId: string;
  eventId: string;
  generation: number;
  present: boolean;
  writtenHash: string | null;
  etag: string | null;
}

export type GoogleAction =
  | { kind: 'none' }
  | { kind: 'insert'; calendarId: string; eventId: string; generation: number }
  | { kind: 'update'; calendarId: string; eventId: string; etag: string | null }
  | { kind: 'delete'; calendarId: string; eventId: string }
  | { kind: 'move'; from: { calendarId: string; eventId: string }; calendarId: string; eventId: string; generation: number };

/** Private property names: Google drops keys longer than 44 characters. */
export const PROP_KEY = 'appointment_key';
export const PROP_REVISION = 'calbridge_revision';
export const PROP_HASH = 'calbridge_hash';

export function calendarFor(a: Appointment, mapping: GoogleMapping): string | undefined {
  return mapping.calendars.find((r) => r.calendar_key === '*' || r.calendar_key === a.calendar.calendarKey)?.calendar_id;
}

const rfc3339 = (ms: number, zone: string) => DateTime.fromMillis(ms, { zone }).toISO({ suppressMilliseconds: true }) ?? new Date(ms).toISOString();

export function desiredEvent(
  a: Appointment,
  revision: number,
  gone: boolean,
  mapping: GoogleMapping,
): DesiredEvent | { none: NoEventReason } {
  if (gone) return { none: 'gone' };
  if (a.status.startsWith('CANCEL')) return { none: 'cancelled' };
  if (!mapping.statuses.includes(a.status)) return { none: 'status' };
  const calendarId = calendarFor(a, mapping);
  if (calendarId === undefined) return { none: 'no_calendar' };
  const shown = {
    summary: renderTemplate(mapping.title, a),
    description: renderTemplate(mapping.description, a),
    status: isPending(a.status) ? ('tentative' as const) : ('confirmed' as const),
    start: { dateTime: rfc3339(a.start, a.timezone), timeZone: a.timezone },
    end: { dateTime: rfc3339(a.end, a.timezone), timeZone: a.timezone },
  };
  const hash = hashOf([shown, a.key]).slice(0, 32);
  return {
    calendarId,
    hash,
    start: a.start,
    end: a.end,
    body: { ...shown, privateProperties: { [PROP_KEY]: a.key, [PROP_REVISION]: String(revision), [PROP_HASH]: hash } },
  };
}

export function isDesired(d: DesiredEvent | { none: NoEventReason }): d is DesiredEvent {
  return !('none' in d);
}

export function planAction(key: string, desired: DesiredEvent | null, link: LinkState | undefined): GoogleAction {
  if (!desired) {
    return link?.present ? { kind: 'delete', calendarId: link.calendarId, eventId: link.eventId } : { kind: 'none' };
  }
  const generation = link?.generation ?? 0;
  const eventId = eventIdFor(key, generation);
  if (!link || !link.present) return { kind: 'insert', calendarId: desired.calendarId, eventId, generation };
  if (link.calendarId !== desired.calendarId) {
    return { kind: 'move', from: { calendarId: link.calendarId, eventId: link.eventId }, calendarId: desired.calendarId, eventId, generation };
  }
  if (link.writtenHash === desired.hash) return { kind: 'none' };
  return { kind: 'update', calendarId: link.calendarId, eventId: link.eventId, etag: link.etag };
}

/** Breaker: a pass that would delete more than `share` of the mirrored events stops (small numbers never trip it). */
export const BREAKER_MIN_DELETES = 10;

export function breakerTrips(deletes: number, mirrored: number, share: number): boolean {
  return deletes >= BREAKER_MIN_DELETES && deletes > share * mirrored;
}
