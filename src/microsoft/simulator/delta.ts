// calendarView/delta as Graph serves it: the first call fixes the window (startDateTime,
// endDateTime) and lists the events in it page by page (`@odata.nextLink`), the last page carries
// `@odata.deltaLink`; following that link later lists what changed since, each event once, with
// deletions (and events that left the window) as `@removed`. Tokens are opaque to the client; an
// invalidated one answers 410 syncStateNotFound.
import { GraphApiError, toJson, type Mailbox } from './mailboxes.ts';

interface DeltaState {
  cal: string;
  start: number;
  end: number;
  /** Changes after this sequence number are what the next round lists. */
  since: number;
  /** Up to this sequence number (fixed when the round began). */
  until: number;
  /** Full: every event in the window; else the changes in (since, until]. */
  full: boolean;
  offset: number;
  /** The token generation it was made in (invalidate() bumps it). */
  gen: number;
}

const encode = (v: DeltaState) => Buffer.from(JSON.stringify(v)).toString('base64url');
function decode(s: string): DeltaState {
  try {
    const v = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as DeltaState;
    if (typeof v.cal === 'string' && typeof v.since === 'number') return v;
  } catch {
    // answered below
  }
  throw new GraphApiError(400, 'ErrorInvalidUrlQuery', 'The delta token is not valid.');
}

export interface DeltaQuery {
  skiptoken: string | null;
  deltatoken: string | null;
  startDateTime: string | null;
  endDateTime: string | null;
  pageSize: number;
}

export class DeltaTokens {
  private gen = 0;

  /** Every token handed out so far answers 410 syncStateNotFound from now on. */
  invalidate(): void {
    this.gen++;
  }

  /** One page: [body, the link's query for the next page or the next round]. */
  page(box: Mailbox, calendarId: string, q: DeltaQuery, linkBase: string): Record<string, unknown> {
    const cal = box.calendar(calendarId).id;
    const token = q.skiptoken ?? q.deltatoken;
    let state: DeltaState;
    if (token !== null) {
      state = decode(token);
      if (state.gen !== this.gen)
        throw new GraphApiError(
          410,
          'syncStateNotFound',
          'The sync state generation is not found. Please restart the sync with a fresh delta query.',
        );
      if (state.cal !== cal) throw new GraphApiError(400, 'ErrorInvalidUrlQuery', 'The delta token belongs to another calendar.');
      if (q.deltatoken !== null) state = { ...state, until: box.sequence, offset: 0, full: false };
    } else {
      const start = Date.parse(q.startDateTime ?? '');
      const end = Date.parse(q.endDateTime ?? '');
      if (Number.isNaN(start) || Number.isNaN(end)) {
        throw new GraphApiError(
          400,
          'ErrorInvalidParameter',
          'This request requires a time window specified by the query string parameters StartDateTime and EndDateTime.',
        );
      }
      state = { cal, start, end, since: 0, until: box.sequence, full: true, offset: 0, gen: this.gen };
    }
    const items = state.full ? this.inWindow(box, state) : this.changed(box, state);
    const slice = items.slice(state.offset, state.offset + q.pageSize);
    const more = state.offset + q.pageSize < items.length;
    const link = more
      ? { '@odata.nextLink': `${linkBase}?$skiptoken=${encode({ ...state, offset: state.offset + q.pageSize })}` }
      : { '@odata.deltaLink': `${linkBase}?$deltatoken=${encode({ ...state, since: state.until, offset: 0 })}` };
    return { '@odata.context': `${linkBase}/$metadata#Collection(event)`, value: slice, ...link };
  }

  private inWindow(box: Mailbox, s: DeltaState): Record<string, unknown>[] {
    return [...box.events.values()]
      .filter((e) => e.calendarId === s.cal && e.start < s.end && e.end > s.start)
      .sort((a, b) => a.start - b.start || a.id.localeCompare(b.id))
      .map((e) => toJson(e));
  }

  private changed(box: Mailbox, s: DeltaState): Record<string, unknown>[] {
    const ids: string[] = [];
    const seen = new Set<string>();
    for (const c of box.changes) {
      if (c.seq <= s.since || c.seq > s.until || c.calendarId !== s.cal || seen.has(c.eventId)) continue;
      seen.add(c.eventId);
      ids.push(c.eventId);
    }
    return ids.map((id) => {
      const e = box.events.get(id);
      // Gone, or moved out of the window: Graph reports both as removed.
      if (!e || e.calendarId !== s.cal || e.start >= s.end || e.end <= s.start)
        return { '@odata.type': '#microsoft.graph.event', id, '@removed': { reason: 'deleted' } };
      return toJson(e);
    });
  }
}
