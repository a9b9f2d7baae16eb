// What changed in one Outlook calendar: `calendarView/delta` over the mapped window. The first
// call fixes the window; pages follow `@odata.nextLink`; the last page's `@odata.deltaLink` is the
// cursor of the next round. A cursor Graph no longer knows (410, or `syncStateNotFound` in another
// 4xx) starts a new delta, and nothing is concluded from what that first listing lacks.
import { GraphError } from './errors.ts';
import type { GraphHttp } from './graph-http.ts';

/** A runaway listing stops here rather than spinning forever. */
const MAX_PAGES = 2000;
/** Graph's default page is 10 events; 100 makes a backfilled calendar twenty requests, not two hundred. */
const PAGE_SIZE = 100;

export interface DeltaItem {
  json: Record<string, unknown>;
  removed: boolean;
}

export interface DeltaListing {
  items: DeltaItem[];
  deltaLink: string;
  /** No cursor was used (none stored, or Graph forgot it). */
  fresh: boolean;
}

const expired = (e: unknown) =>
  e instanceof GraphError && (e.status === 410 || e.code === 'syncStateNotFound' || e.code === 'resyncRequired');

async function follow(http: GraphHttp, mailbox: string, first: string): Promise<{ items: DeltaItem[]; deltaLink: string }> {
  const items: DeltaItem[] = [];
  let link = first;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { json } = await http.request(mailbox, {
      op: 'delta',
      method: 'GET',
      path: link,
      headers: { prefer: `odata.maxpagesize=${PAGE_SIZE}` },
    });
    const value = Array.isArray(json.value) ? (json.value as Record<string, unknown>[]) : [];
    for (const v of value) items.push({ json: v, removed: v['@removed'] !== undefined });
    if (typeof json['@odata.nextLink'] === 'string') {
      link = json['@odata.nextLink'];
      continue;
    }
    if (typeof json['@odata.deltaLink'] !== 'string')
      throw new GraphError('invalid', `the last delta page of ${first.split('?')[0]} carried no @odata.deltaLink`);
    return { items, deltaLink: json['@odata.deltaLink'] };
  }
  throw new GraphError('invalid', `the delta of ${first.split('?')[0]} went past ${MAX_PAGES} pages`);
}

export interface DeltaWindow {
  start: number;
  end: number;
}

/**
 * `calendarPath` is "v1.0/{me|users/…}/calendars/{id}"; `cursor` a deltaLink from an earlier round
 * (one on another origin, after graph_root changed, is not sent: a new delta starts).
 */
export async function readDelta(
  http: GraphHttp,
  mailbox: string,
  calendarPath: string,
  cursor: string | null,
  window: () => DeltaWindow,
  origin: string,
): Promise<DeltaListing> {
  if (cursor?.startsWith(`${origin}/`)) {
    try {
      return { ...(await follow(http, mailbox, cursor)), fresh: false };
    } catch (e) {
      if (!expired(e)) throw e;
    }
  }
  const w = window();
  const q = new URLSearchParams({ startDateTime: new Date(w.start).toISOString(), endDateTime: new Date(w.end).toISOString() });
  return { ...(await follow(http, mailbox, `${calendarPath}/calendarView/delta?${q}`)), fresh: true };
}
