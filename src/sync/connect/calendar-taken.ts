// The end of a connect flow (docs/reference/http.md, "Connect"): the calendar a person picked must
// not be one an account already writes, the config's or another connected one, or the two would
// fight over the same events (config/shared-calendars.ts says why, and what can be compared).
// Known here beyond the config's own check: a Google calendar's real id (a person's main calendar
// is their address), and a CalDAV calendar's collection URL and its server, user and name.
// Not known: which user a configured Google account's "primary", or which person a Microsoft "me",
// is; a Microsoft calendar is compared by its id only.
import { caldavAccounts, googleAccounts, microsoftAccounts } from '../../config/accounts.ts';
import { accountPath } from '../../config/files.ts';
import type { Config } from '../../config/schema.ts';
import {
  caldavCalendarIdentity,
  caldavCollectionIdentity,
  googleCalendarIdentity,
  type CalendarIdentity,
} from '../../config/shared-calendars.ts';
import type { ConnectKind, ConnectStore } from '../../store/connect-store.ts';

export interface PickedCalendar {
  kind: ConnectKind;
  /** The calendar's id (Google, Microsoft) or collection URL (CalDAV). */
  id: string;
  name: string;
  /** CalDAV: the server and user the person gave. */
  login?: { url: string; username: string } | undefined;
}

/** Who already writes the picked calendar: a YAML path (`google.accounts[0].calendars[1].calendar_id`) or a connected account (`google.ana`). */
export function calendarTaken(config: Config, store: ConnectStore, p: PickedCalendar): string | undefined {
  const picked = identitiesOf(p);
  const hit = (identity: CalendarIdentity) => identity !== undefined && picked.has(identity);
  if (p.kind === 'google') {
    for (const a of googleAccounts(config.google)) {
      const at = accountPath('google', config.google?.accounts, a.name);
      const i = a.config.calendars.findIndex((c) => hit(googleCalendarIdentity(c.calendar_id)));
      if (i !== -1) return `${at}.calendars[${i}].calendar_id`;
    }
  }
  if (p.kind === 'caldav') {
    for (const a of caldavAccounts(config.caldav)) {
      const at = accountPath('caldav', config.caldav?.accounts, a.name);
      const i = a.config.calendars.findIndex((c) => hit(caldavCalendarIdentity(a.config.url, a.config.username, c.calendar)));
      if (i !== -1) return `${at}.calendars[${i}].calendar`;
    }
  }
  if (p.kind === 'microsoft') {
    for (const a of microsoftAccounts(config.microsoft)) {
      const at = accountPath('microsoft', config.microsoft?.accounts, a.name);
      const i = a.config.calendars.findIndex((c) => c.calendar.trim() === p.id);
      if (i !== -1) return `${at}.calendars[${i}]`;
    }
  }
  // Another connected account: its stored calendar is an id or a collection URL, like the pick's.
  const connected = store.list().find((c) => c.kind === p.kind && hit(byId(c.kind, c.calendar)));
  return connected ? `${connected.kind}.${connected.name}` : undefined;
}

/** A calendar by its id (Google, Microsoft) or collection URL (CalDAV). */
function byId(kind: ConnectKind, id: string): CalendarIdentity {
  if (kind === 'google') return googleCalendarIdentity(id);
  if (kind === 'microsoft') return `microsoft id ${id}`;
  try {
    return caldavCollectionIdentity(id);
  } catch {
    return undefined; // not a URL: nothing to compare
  }
}

/** What the picked calendar is known as: its id, and for CalDAV also its server, user and name. */
function identitiesOf(p: PickedCalendar): Set<string> {
  const named = p.kind === 'caldav' && p.login ? caldavCalendarIdentity(p.login.url, p.login.username, p.name) : undefined;
  return new Set([byId(p.kind, p.id), named].filter((x): x is string => x !== undefined));
}
