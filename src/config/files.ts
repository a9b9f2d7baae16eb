// Checks check-config makes beyond the schema, reported as warnings: files a config names (they may
// exist only where calbridge runs), webhook events the booking service is not known to send, and
// Google calendar IDs that cannot be what the user meant.
import type { Config } from './schema.ts';
import type { ConfigProblem } from './problem.ts';
import { readServiceAccountKey } from './service-account-key.ts';
import { googleAccounts } from './accounts.ts';

/** Where an account's own keys are in the YAML: `google` for the single form, `google.accounts[1]` for a listed one. */
export function accountPath(section: string, accounts: readonly { name: string }[] | undefined, name: string): string {
  const i = accounts?.findIndex((a) => a.name === name) ?? -1;
  return i === -1 ? section : `${section}.accounts[${i}]`;
}

export function fileProblems(config: Config): ConfigProblem[] {
  return googleAccounts(config.google).flatMap(({ name, config: g }) => {
    const file = g.credentials.service_account_file;
    if (!file) return [];
    const read = readServiceAccountKey(file);
    const at = accountPath('google', config.google?.accounts, name);
    return read.ok ? [] : [{ path: `${at}.credentials.service_account_file`, message: read.problem }];
  });
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
  return googleAccounts(config.google).flatMap(({ name, config: google }) => {
    const at = accountPath('google', config.google?.accounts, name);
    const serviceAccount = google.credentials.service_account_file !== undefined;
    return google.calendars.flatMap(({ calendar_id: id }, i): ConfigProblem[] => {
      const path = `${at}.calendars[${i}].calendar_id`;
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
  });
}
