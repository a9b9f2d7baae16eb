// The event an appointment should have in a calendar target (or why none), in our own words: the
// adapters map it to their vendor's shape. Pure; table-tested.
import { DateTime } from 'luxon';
import { isPending, type Appointment } from '../appointment.ts';
import { renderTemplate } from '../template.ts';
import { hashOf } from '../hash.ts';
import type { Messages } from '../i18n/index.ts';
import type { Looks } from './shown.ts';

/** Which booking calendar goes to which target calendar, which statuses are shown, and the templates. */
export interface MirrorMapping {
  calendars: { calendar_key: string; calendar_id: string }[];
  statuses: readonly string[];
  title: string;
  description: string;
  /** server.locale's catalogue, for the words templates bring ({status_label}); English without. */
  messages?: Messages;
}

export interface EventTime {
  /** RFC 3339 with the zone's offset. */
  dateTime: string;
  /** IANA zone (the booking time zone). */
  timeZone: string;
}

/** The event body we write: everything a calendar shows, plus our private properties. */
export interface EventBody {
  summary: string;
  description: string;
  status: 'confirmed' | 'tentative';
  start: EventTime;
  end: EventTime;
  /** Keys <= 44 characters (Google silently drops longer ones). */
  privateProperties: Record<string, string>;
}

/** What the writer wants a target to hold; `B` is the body a target takes (EventBody unless it renders its own). */
export interface DesiredEvent<B = EventBody> {
  calendarId: string;
  body: B;
  /** Hash of everything the target shows; the revision is left out, so a change it does not show writes nothing. */
  hash: string;
  start: number;
  end: number;
  /** What the event shows besides its times (shown.ts compares it with what a target holds). */
  looks: Looks;
}

export type NoEventReason = 'gone' | 'cancelled' | 'status' | 'no_calendar';

export type Desired<B = EventBody> = DesiredEvent<B> | { none: NoEventReason };

/** Private property names: Google drops keys longer than 44 characters. */
export const PROP_KEY = 'appointment_key';
const PROP_REVISION = 'calbridge_revision';
export const PROP_HASH = 'calbridge_hash';

function calendarFor(a: Appointment, mapping: MirrorMapping): string | undefined {
  return mapping.calendars.find((r) => r.calendar_key === '*' || r.calendar_key === a.calendar.calendarKey)?.calendar_id;
}

const rfc3339 = (ms: number, zone: string) =>
  DateTime.fromMillis(ms, { zone }).toISO({ suppressMilliseconds: true }) ?? new Date(ms).toISOString();

export function desiredEvent(a: Appointment, revision: number, gone: boolean, mapping: MirrorMapping): Desired {
  if (gone) return { none: 'gone' };
  if (a.status.startsWith('CANCEL')) return { none: 'cancelled' };
  if (!mapping.statuses.includes(a.status)) return { none: 'status' };
  const calendarId = calendarFor(a, mapping);
  if (calendarId === undefined) return { none: 'no_calendar' };
  const shown = {
    summary: renderTemplate(mapping.title, a, mapping.messages),
    description: renderTemplate(mapping.description, a, mapping.messages),
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
    looks: { title: shown.summary, description: shown.description, status: shown.status },
    body: { ...shown, privateProperties: { [PROP_KEY]: a.key, [PROP_REVISION]: String(revision), [PROP_HASH]: hash } },
  };
}

export function isDesired<B>(d: Desired<B>): d is DesiredEvent<B> {
  return !('none' in d);
}
