// Google's refusals about a calendar, said as what to do: which calendar, which account, which
// setting. Only the message changes; the kind the writer and the reverse sync decide on stays.
import { GoogleError } from './errors.ts';

/** Calls that name a calendar and no event: a 404 there is about the calendar itself. */
const CALENDAR_CALLS = new Set(['insert', 'list', 'watch']);

const SHARE = (account: string) => `share the calendar with ${account} with "Make changes to events" (docs/google-setup.md)`;

export function explainCalendarError(e: unknown, op: string, calendarId: string, account: string): unknown {
  if (!(e instanceof GoogleError)) return e;
  const google = `(Google answered ${e.status}${e.reason ? ` ${e.reason}` : ''})`;
  let message: string | undefined;
  if (e.status === 404 && CALENDAR_CALLS.has(op)) {
    message =
      `calendar "${calendarId}" was not found ${google}: its ID is wrong, or it is not shared with ${account}. ` +
      `Check google.calendars[].calendar_id (Google Calendar, Settings, the calendar, "Integrate calendar", Calendar ID) and ${SHARE(account)}`;
  } else if (e.status === 403 && e.reason === 'requiredAccessLevel') {
    message = `calendar "${calendarId}" is shared with ${account} without write access ${google}: ${SHARE(account)}`;
  } else if (e.status === 403 && e.reason === 'forbidden' && CALENDAR_CALLS.has(op)) {
    // Only this reason: others (accessNotConfigured: the API is off in the project) say it better themselves.
    message =
      `Google refuses ${account} access to calendar "${calendarId}" ${google}: ${SHARE(account)}; ` +
      'for a Google Workspace calendar, the domain may also forbid sharing with accounts outside it';
  }
  return message ? new GoogleError(e.kind, message, e.status, e.reason) : e;
}
