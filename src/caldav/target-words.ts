// How a CalDAV server is named where calbridge speaks of any calendar target (sync/target/adapter.ts
// TargetWords), and its setup mistakes as readiness warnings, in our words only (the server's own
// listing of calendars stays in status).
import type { Messages } from '../core/i18n/index.ts';
import { targetPlace } from '../core/activity-words.ts';
import { AUTH_HELP } from './errors.ts';
import { readEvent } from './event-reader.ts';
import type { CalendarObject } from './caldav-target.ts';

export function caldavWords(calendars: readonly string[], m?: Messages) {
  return {
    name: 'CalDAV',
    server: 'the CalDAV server',
    item: 'CalDAV object',
    place: targetPlace('caldav', calendars, m),
    madeIn: 'caldav' as const,
    reverseMetricsPrefix: 'caldav_',
    reverseMetricsName: 'a CalDAV calendar',
  };
}

export const CALDAV_AUTH_WARNING = `CalDAV: the server refused the username and password; ${AUTH_HELP}`;

/**
 * A mistake in the caldav section that no retry fixes: caldav.url leads to no CalDAV server, or a
 * calendar it names is not among the account's. `message` is the adapter's (the calendars found).
 */
export interface CalDavSetupProblem {
  kind: 'calendar_not_found' | 'not_caldav';
  calendar: string;
  message: string;
}

/** The readiness warning of a setup mistake. */
export function setupWarning(p: CalDavSetupProblem): string {
  return p.kind === 'not_caldav'
    ? 'CalDAV: caldav.url does not lead to a CalDAV server, so nothing is written to the CalDAV calendar'
    : `CalDAV: the calendar "${p.calendar}" of caldav.calendars is not one of the account's calendars, so nothing is written to it`;
}

/** What a CalDAV object of ours shows (`zone`: booking.timezone, for floating times). */
export function caldavBodyFacts(ics: CalendarObject, zone: string) {
  const e = readEvent(ics, zone);
  return { appointmentKey: e.key, title: e.summary ?? '', start: e.start, end: e.end, ourHash: e.ourHash };
}
