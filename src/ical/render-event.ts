// One appointment as one folded VEVENT (docs/reference/behaviour.md, "Feeds"). ical-generator escapes and formats; we pin
// every value it would otherwise invent (UID, DTSTAMP, SEQUENCE) so the text is byte-stable, and fold
// it ourselves. Feeds use no time zones: UTC instants need no VTIMEZONE and cannot drift with the
// host's zone. CalDAV asks for local times with TZID (`zoned`) and adds the VTIMEZONE itself.
import { ICalCalendar, ICalEvent, ICalEventStatus } from 'ical-generator';
import { DateTime } from 'luxon';
import { isCancelled, isPending, type Appointment } from '../core/appointment.ts';
import { renderTemplate } from '../core/template.ts';
import { hashOf } from '../core/hash.ts';
import { foldLines } from './fold.ts';
import { withoutContactText } from './privacy.ts';

export type Privacy = 'full' | 'limited' | 'busy';

/** What a fragment depends on besides the appointment itself. */
export interface EventStyle {
  privacy: Privacy;
  /** The feed's title template. */
  title: string;
  /** A description template; without one the description lists the booking's details. */
  description?: string;
  /** DTSTART/DTEND as local times with TZID in the appointment's zone, instead of UTC. */
  zoned?: boolean;
}

export interface RenderInput {
  appointment: Appointment;
  revision: number;
  /** Time of the last material change: LAST-MODIFIED and DTSTAMP. */
  changedAt: number;
}

// Bump when the rendered text changes for the same inputs, so stored fragments are rendered again.
// 2: limited feeds scrub the rendered text (fragments stored by 1 may show an {owner_user} e-mail).
const RENDER_VERSION = 2;

/** Fragments are stored per variant: a hash of everything besides the appointment that shapes them. */
export function styleVariant(style: EventStyle): string {
  return hashOf({ v: RENDER_VERSION, privacy: style.privacy, title: style.privacy === 'busy' ? '' : style.title }).slice(0, 16);
}

export function uidOf(appointmentKey: string): string {
  return `${appointmentKey}@calbridge`;
}

// ICalEvent needs a parent calendar for its defaults; it is never rendered, only consulted.
const parent = new ICalCalendar();

export function renderEvent(input: RenderInput, style: EventStyle): string {
  const a = style.privacy === 'full' ? input.appointment : withoutContactDetails(input.appointment);
  // After rendering, whatever the template: the text itself must carry no contact detail.
  const shown = (text: string) => (style.privacy === 'limited' ? withoutContactText(clean(text), input.appointment) : clean(text));
  const when = new Date(input.changedAt);
  // ical-generator writes a plain Date in the host's zone when given a TZID; a luxon DateTime in its own.
  const at = (ms: number) => (style.zoned ? DateTime.fromMillis(ms, { zone: a.timezone }) : new Date(ms));
  const event = new ICalEvent(
    {
      id: uidOf(a.key),
      sequence: input.revision,
      stamp: when,
      lastModified: when,
      start: at(a.start),
      end: at(a.end),
      timezone: style.zoned ? a.timezone : null,
      // busy: the times and this title only, nothing taken from the appointment.
      summary: style.privacy === 'busy' ? 'Busy' : shown(renderTemplate(style.title, a)) || 'Appointment',
      description: style.privacy === 'busy' ? null : shown(style.description === undefined ? describe(a) : renderTemplate(style.description, a)) || null,
      status: statusOf(a.status),
    },
    parent,
  );
  return foldLines(event.toString());
}

function statusOf(status: string): ICalEventStatus {
  if (isCancelled(status)) return ICalEventStatus.CANCELLED;
  return isPending(status) ? ICalEventStatus.TENTATIVE : ICalEventStatus.CONFIRMED;
}

/** `limited`: the known contact fields are empty before templating; privacy.ts scrubs what templates still bring. */
function withoutContactDetails(a: Appointment): Appointment {
  return { ...a, person: { ...a.person, email: null, phone: null, documentNumber: null }, raw: null };
}

/** Booking details for the description; `withoutContactDetails` has already removed what must not show. */
function describe(a: Appointment): string {
  const services = a.services.map((s) => s.name ?? s.serviceKey).join(', ');
  const lines: [string, string | null][] = [
    ['Services', services || null],
    ['Calendar', a.calendar.name],
    ['Person', a.person.fullName],
    ['E-mail', a.person.email],
    ['Phone', a.person.phone],
    ['Code', a.searchCode],
    ['Status', a.status],
  ];
  return lines.flatMap(([label, value]) => (value ? [`${label}: ${value}`] : [])).join('\n');
}

/** Control characters other than newline and tab are not allowed in iCalendar text. */
function clean(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
}
