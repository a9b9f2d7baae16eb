// Reads what changed in one Google calendar since the last round: incremental lists with the stored
// sync token, or a full list when there is none or Google answers 410 (the token is used up). Every
// page of one listing uses the same query; the new token comes only from the last page.
import type { CalendarApi, GoogleEvent } from '../port.ts';
import { GoogleError } from '../errors.ts';

/** One listing of a calendar; google-target.ts turns it into the port's ChangeBatch. */
export interface GoogleChanges {
  /** full: every live event (deletions must be found by comparing with what we mirror). */
  mode: 'incremental' | 'full';
  events: GoogleEvent[];
  nextSyncToken: string;
}

/** A cap on pages per listing, so a runaway listing cannot spin forever. */
const MAX_PAGES = 2000;
const PAGE_SIZE = 250;

async function listAll(
  api: CalendarApi,
  calendarId: string,
  base: { syncToken?: string },
): Promise<{ events: GoogleEvent[]; nextSyncToken: string }> {
  const events: GoogleEvent[] = [];
  let pageToken: string | undefined;
  for (let pages = 1; pages <= MAX_PAGES; pages++) {
    const page = await api.list(calendarId, { ...base, maxResults: PAGE_SIZE, ...(pageToken ? { pageToken } : {}) });
    events.push(...page.events);
    if (page.nextPageToken) {
      pageToken = page.nextPageToken;
      continue;
    }
    if (!page.nextSyncToken) throw new GoogleError('invalid', `Google's last page of ${calendarId} carried no nextSyncToken`);
    return { events, nextSyncToken: page.nextSyncToken };
  }
  throw new GoogleError('invalid', `listing ${calendarId} went past ${MAX_PAGES} pages`);
}

export async function readChanges(api: CalendarApi, calendarId: string, syncToken: string | undefined): Promise<GoogleChanges> {
  if (syncToken) {
    try {
      return { mode: 'incremental', ...(await listAll(api, calendarId, { syncToken })) };
    } catch (e) {
      // 410 fullSyncRequired / updatedMinTooLongAgo: drop the token and list everything again.
      if (!(e instanceof GoogleError && e.kind === 'gone')) throw e;
      return { mode: 'full', ...(await listAll(api, calendarId, {})) };
    }
  }
  return { mode: 'full', ...(await listAll(api, calendarId, {})) };
}
