// One real calendar written by two accounts: each account derives the same event (Google event id,
// CalDAV object name, Outlook event key) from an appointment, so the two would overwrite, move back
// and delete each other's events, and each one's reverse sync would take the other's writes for a
// person's. The config refuses it (docs/reference/configuration.md, "Several accounts of one kind"),
// and so does the end of a connect flow (sync/connect/calendar-taken.ts).
//
// What names one calendar is compared as far as it can be known without asking the server:
// - Google: an explicit calendar_id, ignoring case. "primary" is each signed-in user's own calendar,
//   and which user that is is known only to Google: two accounts' "primary" are not compared, nor is
//   one's "primary" with another's calendar_id spelling that user's address.
// - CalDAV: a collection URL (absolute, or a path on the account's server), by host and decoded path;
//   a display name, by server root, username and name ignoring case. A name in one account and the
//   URL it resolves to in another, two roots that lead to one server (iCloud's pNN- hosts), or one
//   calendar shared with two users under two collection URLs are known only after discovery.
// - Microsoft: the mailbox (ignoring case) and the calendar's name or id (ignoring case). "me" is the
//   signed-in person, known only to Microsoft; a mailbox's address and its object id, or a calendar's
//   name and its id, are not compared.

/** How one account's calendar entry names its real calendar; undefined when it cannot be compared here. */
export type CalendarIdentity = string | undefined;

/** A URL by host and decoded path with one trailing slash: servers differ in what they percent-encode. */
function place(u: URL): string {
  let path: string;
  try {
    path = decodeURIComponent(u.pathname);
  } catch {
    path = u.pathname;
  }
  return `${u.host}${path.endsWith('/') ? path : `${path}/`}`;
}

export function googleCalendarIdentity(calendarId: string): CalendarIdentity {
  const id = calendarId.trim().toLowerCase();
  return id === 'primary' ? undefined : `google ${id}`;
}

/** A CalDAV collection's URL as compared: the same for every spelling of one collection URL. */
export function caldavCollectionIdentity(url: string): string {
  return `caldav url ${place(new URL(url))}`;
}

/** `calendar` as written in the config (a collection URL, a path on the server, or a display name). */
export function caldavCalendarIdentity(serverUrl: string, username: string, calendar: string): CalendarIdentity {
  const text = calendar.trim();
  try {
    if (/^https?:\/\//i.test(text) || text.startsWith('/')) return caldavCollectionIdentity(new URL(text, serverUrl).href);
    return `caldav name ${place(new URL(serverUrl))} ${username.trim().toLowerCase()} ${text.toLowerCase()}`;
  } catch {
    return undefined; // not a URL: the schema says so at its own path
  }
}

export function microsoftCalendarIdentity(user: string, calendar: string): CalendarIdentity {
  const mailbox = user.trim().toLowerCase();
  return mailbox === 'me' ? undefined : `microsoft ${mailbox} ${calendar.trim().toLowerCase()}`;
}

/** One calendar entry of one account: its index in `accounts:`, its path under the section, and what it names. */
export interface CalendarClaim {
  account: number;
  path: (string | number)[];
  identity: CalendarIdentity;
}

const SHARED =
  "two accounts writing one calendar would overwrite, move back and delete each other's events. Map it in one account only (one account may list several booking calendars for the same calendar), or give one of them another calendar";

/** Every entry that names a calendar an earlier account already maps, at its path under the section. */
export function sharedCalendarProblems(
  section: string,
  claims: readonly CalendarClaim[],
): { path: (string | number)[]; message: string }[] {
  const first = new Map<string, CalendarClaim>();
  const problems: { path: (string | number)[]; message: string }[] = [];
  for (const claim of claims) {
    if (claim.identity === undefined) continue;
    const earlier = first.get(claim.identity);
    if (earlier === undefined) first.set(claim.identity, claim);
    else if (earlier.account !== claim.account)
      problems.push({ path: claim.path, message: `is the same calendar as ${at(section, earlier.path)}: ${SHARED}` });
  }
  return problems;
}

function at(section: string, path: readonly (string | number)[]): string {
  return path.reduce<string>((out, p) => (typeof p === 'number' ? `${out}[${p}]` : `${out}.${p}`), section);
}
