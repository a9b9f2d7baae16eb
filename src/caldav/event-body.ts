// The calendar object we PUT: one VEVENT from the feeds' renderer (UID {key}@calbridge, SEQUENCE,
// LAST-MODIFIED, the caldav templates), with local times in the booking time zone and that zone's
// VTIMEZONE, wrapped in its VCALENDAR (RFC 4791 §4.1: one component, one UID per resource).
import type { Messages } from '../core/i18n/index.ts';
import { renderEvent, type RenderInput } from '../ical/render-event.ts';
import { renderVTimezone } from './vtimezone.ts';

export interface CalDavTemplates {
  /** caldav.title */
  title: string;
  /** caldav.description */
  description: string;
  /** server.locale's catalogue ({status_label}). */
  messages?: Messages;
}

const HEADER = `${['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//calbridge//calbridge CalDAV//EN', 'CALSCALE:GREGORIAN'].join('\r\n')}\r\n`;
const FOOTER = 'END:VCALENDAR\r\n';

/**
 * Our private property: the hash of what the writer wanted (core/mirror/desired-event.ts). Read back,
 * it tells our own write (whose answer was lost) from a person's edit; apps that drop X- properties
 * only cost that shortcut, the ETag still tells our echo apart.
 */
export const HASH_PROPERTY = 'X-CALBRIDGE-HASH';

/** `hash`: written as X-CALBRIDGE-HASH (the writer's objects carry it; a body for other uses may not). */
export function renderCalendarObject(input: RenderInput, templates: CalDavTemplates, hash?: string): string {
  const a = input.appointment;
  let event = renderEvent(input, {
    privacy: 'full',
    title: templates.title,
    description: templates.description,
    zoned: true,
    ...(templates.messages ? { messages: templates.messages } : {}),
  });
  if (hash !== undefined) event = event.replace(/END:VEVENT\r\n$/, `${HASH_PROPERTY}:${hash}\r\nEND:VEVENT\r\n`);
  return HEADER + renderVTimezone(a.timezone, a.start, a.end) + event + FOOTER;
}
