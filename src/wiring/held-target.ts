// A dry run's calendar targets: each target's connection hands out a capturing target
// (sync/dry-run/capture-target.ts), which reads for real and holds its writes back. Google and
// CalDAV wrap their connections the same way, each with its own body facts.
import { PROP_HASH, PROP_KEY, type EventBody } from '../core/mirror/desired-event.ts';
import type { CalendarTarget } from '../core/mirror/target.ts';
import { captureTarget, type BodyFacts } from '../sync/dry-run/capture-target.ts';
import { readEvent } from '../caldav/event-reader.ts';
import type { CalendarObject } from '../caldav/caldav-target.ts';
import type { CalDavConnection } from './caldav-connection.ts';
import type { GoogleConnection } from './google-connection.ts';
import type { Services } from './services.ts';

/** What a Google event body of ours shows. */
export function googleBodyFacts(body: EventBody): BodyFacts {
  return {
    appointmentKey: body.privateProperties[PROP_KEY] ?? null,
    title: body.summary,
    start: Date.parse(body.start.dateTime),
    end: Date.parse(body.end.dateTime),
    ourHash: body.privateProperties[PROP_HASH] ?? null,
  };
}

/** The connection itself outside a dry run; in one, the same connection with writes held back. */
export function googleForRun(google: GoogleConnection, s: Services): GoogleConnection {
  const held = s.held;
  if (!held) return google;
  let target: CalendarTarget<EventBody> | undefined;
  return {
    ...google,
    target: () =>
      (target ??= captureTarget('google', google.target(), {
        body: googleBodyFacts,
        keyOf: (calendarId, eventId) => s.links.byEvent(calendarId, eventId)?.appointmentKey ?? null,
      }, held)),
  };
}

/** What a CalDAV object of ours shows (`zone`: booking.timezone, for floating times). */
function caldavBodyFacts(ics: CalendarObject, zone: string): BodyFacts {
  const e = readEvent(ics, zone);
  return { appointmentKey: e.key, title: e.summary ?? '', start: e.start, end: e.end, ourHash: e.ourHash };
}

/** The CalDAV connection itself outside a dry run; in one, the same connection with writes held back. */
export function caldavForRun(caldav: CalDavConnection, s: Services): CalDavConnection {
  const held = s.held;
  if (!held) return caldav;
  const zone = s.config.booking.timezone;
  return {
    ...caldav,
    target: captureTarget('caldav', caldav.target, {
      body: (ics) => caldavBodyFacts(ics, zone),
      keyOf: (calendarId, eventId) => s.caldavLinks.byEvent(calendarId, eventId)?.appointmentKey ?? null,
    }, held),
  };
}
