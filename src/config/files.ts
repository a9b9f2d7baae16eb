// Checks check-config makes beyond the schema, reported as warnings: files a config names (they may
// exist only where calbridge runs), webhook events the booking service is not known to send, and
// Google calendar IDs that cannot be what the user meant.
import type { Config } from './schema.ts';
import type { ConfigProblem } from './problem.ts';
import { readServiceAccountKey } from './service-account-key.ts';

export function fileProblems(config: Config): ConfigProblem[] {
  const file = config.google?.enabled ? config.google.credentials.service_account_file : undefined;
  if (!file) return [];
  const read = readServiceAccountKey(file);
  return read.ok ? [] : [{ path: 'google.credentials.service_account_file', message: read.problem }];
}

/** The events the booking API documents, plus `appointment.deleted`, which the service is known to send. */
const KNOWN_EVENTS = ['appointment.created', 'appointment.updated', 'appointment.canceled', 'appointment.deleted'];

export function eventWarnings(config: Config): ConfigProblem[] {
  return config.webhook.events
    .map((event, i) => ({ event, i }))
    .filter(({ event }) => !KNOWN_EVENTS.includes(event))
    .map(({ event, i }) => ({
      path: `webhook.events[${i}]`,
      message: `"${event}" is not an event the booking service is known to send (${KNOWN_EVENTS.join(', ')}); a misspelt one is never delivered`,
    }));
}

/**
 * A service account's `primary` is its own calendar, which no person ever sees: calbridge would write
 * there happily and nothing would show up. And every calendar ID but `primary` is an address.
 */
export function googleCalendarWarnings(config: Config): ConfigProblem[] {
  const google = config.google;
  if (!google?.enabled) return [];
  const serviceAccount = google.credentials.service_account_file !== undefined;
  return google.calendars.flatMap(({ calendar_id: id }, i): ConfigProblem[] => {
    const path = `google.calendars[${i}].calendar_id`;
    if (id === 'primary' && serviceAccount) {
      return [
        {
          path,
          message:
            'is "primary" with a service account: that is the service account\'s own calendar, which no person sees. Share a calendar with the service account and give its ID (...@group.calendar.google.com; docs/google-setup.md)',
        },
      ];
    }
    if (id !== 'primary' && !id.includes('@')) {
      return [
        {
          path,
          message: `"${id}" does not look like a Google calendar ID (an address such as ...@group.calendar.google.com, or primary): Google Calendar shows it under Settings, the calendar, "Integrate calendar"`,
        },
      ];
    }
    return [];
  });
}
