// The calendar object we PUT: one VEVENT from the feeds' renderer (UID {key}@calbridge, SEQUENCE,
// LAST-MODIFIED, the caldav templates), with local times in the booking time zone and that zone's
// VTIMEZONE, wrapped in its VCALENDAR (RFC 4791 §4.1: one component, one UID per resource).
import { renderEvent, type RenderInput } from '../ical/render-event.ts';
import { renderVTimezone } from './vtimezone.ts';

export interface CalDavTemplates {
  /** caldav.title */
  title: string;
  /** caldav.description */
  description: string;
}

const HEADER = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//calbridge//calbridge CalDAV//EN', 'CALSCALE:GREGORIAN'].join('\r\n') + '\r\n';
const FOOTER = 'END:VCALENDAR\r\n';

export function renderCalendarObject(input: RenderInput, templates: CalDavTemplates): string {
  const a = input.appointment;
  const event = renderEvent(input, { privacy: 'full', title: templates.title, description: templates.description, zoned: true });
  return HEADER + renderVTimezone(a.timezone, a.start, a.end) + event + FOOTER;
}
