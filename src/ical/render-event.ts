// One appointment as one folded VEVENT (docs/reference/behaviour.md, "Feeds"). ical-generator escapes and formats; we pin
// every value it would otherwise invent (UID, DTSTAMP, SEQUENCE) so the text is byte-stable, and fold
// it ourselves. Feeds use no time zones: UTC instants need no VTIMEZONE and cannot drift with the
// host's zone. CalDAV asks for local times with TZID (`zoned`) and adds the VTIMEZONE itself.
import { ICalCalendar, ICalEvent, ICalEventStatus } from 'ical-generator';
import { DateTime } from 'luxon';
import { isCancelled, isPending, type Appointment } from '../core/appointment.ts';
import { renderTemplate, serviceNames } from '../core/template.ts';
import { messagesFor, statusLabel, type Messages } from '../core/i18n/index.ts';
import { hashOf } from '../core/hash.ts';
import { foldLines } from './fold.ts';
import { withoutContactText } from './privacy.ts';

export type Privacy = 'full' | 'limited' | 'busy';

/** What a fragment depends on besides the appointment itself. */
export interface EventStyle {
  privacy: Privacy;
  /** The feed's title template. */
  title: string;
  /** A description template; without one the description lists the booking's details in words. */
  description?: string | null;
  /** server.locale's catalogue: the default description and {status_label}; English without. */
  messages?: Messages;
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
// 3: the default description in words (service names, professional, status in the locale), no codes.
const RENDER_VERSION = 3;

/** Fragments are stored per variant: a hash of everything besides the appointment that shapes them. */
export function styleVariant(style: EventStyle): string {
  const busy = style.privacy === 'busy';
  return hashOf({
    v: RENDER_VERSION,
    privacy: style.privacy,
    title: busy ? '' : style.title,
    description: busy ? '' : (style.description ?? null),
    locale: style.messages?.tag ?? 'en',
  }).slice(0, 16);
}

function uidOf(appointmentKey: string): string {
  return `${appointmentKey}@calbridge`;
}

// ICalEvent needs a parent calendar for its defaults; it is never rendered, only consulted.
const parent = new ICalCalendar();

export function renderEvent(input: RenderInput, style: EventStyle): string {
  const a = style.privacy === 'full' ? input.appointment : withoutContactDetails(input.appointment);
  const m = style.messages ?? messagesFor('en');
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
      summary: style.privacy === 'busy' ? m.event.busy : shown(renderTemplate(style.title, a, m)) || m.event.untitled,
      description:
        style.privacy === 'busy'
          ? null
          : shown(
              style.description === undefined || style.description === null ? describe(a, m) : renderTemplate(style.description, a, m),
            ) || null,
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

/**
 * The default description, in the locale: the services by name, the professional (the booking
 * calendar), the client and their contact details where the feed shows them, the search code, the
 * status in words.
 * Never a key or a status code. `withoutContactDetails` has already removed what must not show.
 */
function describe(a: Appointment, m: Messages): string {
  const lines: [string, string | null][] = [
    [m.event.services, serviceNames(a) || null],
    [m.event.professional, a.calendar.name],
    [m.event.person, a.person.fullName],
    [m.event.email, a.person.email],
    [m.event.phone, a.person.phone],
    [m.event.code, a.searchCode],
    [m.event.status, statusLabel(m, a.status)],
  ];
  return lines.flatMap(([label, value]) => (value ? [`${label}: ${value}`] : [])).join('\n');
}

/** Control characters other than newline and tab are not allowed in iCalendar text. */
function clean(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
}
