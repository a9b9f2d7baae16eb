// The calendar target port (core/mirror/target.ts) over the CalDAV adapter: one resource
// `{appointment_key}.ics` per appointment in the configured calendar. Creates are If-None-Match: *
// (a 412 is `exists`), updates and deletes If-Match (a 412 is `changed`); nothing is ever written
// without one of the two. What changed comes from sync-collection with the stored token, or, where
// the server has none, from an ETag listing compared with the previous one (kept in the cursor).
import type {
  CalendarTarget,
  ChangeBatch,
  GetResult,
  PutResult,
  RemoveResult,
  TargetErrorKind,
  TargetEvent,
} from '../core/mirror/target.ts';
import { TargetError } from '../core/mirror/target.ts';
import { CalDavError, type CalDavErrorKind } from './errors.ts';
import { EventReadError, readEvent } from './event-reader.ts';
import type { CalDavApi, CalendarCollection, FetchedObject, ObjectRef } from './port.ts';

/** The body a CalDAV target takes: the calendar object's text (src/caldav/event-body.ts). */
export type CalendarObject = string;

const KINDS: Record<CalDavErrorKind, TargetErrorKind> = {
  auth: 'auth',
  forbidden: 'forbidden',
  not_found: 'not_found',
  not_caldav: 'invalid',
  calendar_not_found: 'not_found',
  precondition_failed: 'precondition_failed',
  uid_conflict: 'conflict',
  rate_limited: 'rate_limited',
  transient: 'transient',
  inside_network: 'invalid',
  invalid: 'invalid',
};

/** CalDAV's failures in the port's words; anything else stays as it is (asTargetError takes it). */
export function targetErrorOf(e: unknown): unknown {
  return e instanceof CalDavError ? new TargetError(KINDS[e.kind], e.message, e.status) : e;
}

/** The resource name's key of an appointment. A CalDAV server never refuses to revive a name, so generations stay 0. */
export const resourceKeyOf = (key: string, generation: number): string => (generation === 0 ? key : `${key}-${generation}`);

/** One object as the mirror sees it. Times a reschedule cannot carry (all-day, repeating, unreadable) are none. */
export function targetEventOf(key: string, etag: string, ics: string, zone: string): TargetEvent {
  try {
    const e = readEvent(ics, zone);
    const timed = !e.allDay && !e.recurring;
    return {
      id: key,
      etag,
      deleted: e.status === 'CANCELLED',
      start: timed ? e.start : null,
      end: timed ? e.end : null,
      ourHash: e.ourHash,
      // What an app shows; an absent DESCRIPTION or STATUS reads as empty and confirmed (RFC 5545's default).
      title: e.summary ?? '',
      description: e.description ?? '',
      status: (e.status ?? 'CONFIRMED').toLowerCase(),
    };
  } catch (err) {
    if (err instanceof EventReadError) return { id: key, etag, deleted: false, start: null, end: null, ourHash: null };
    throw err;
  }
}

const deletion = (id: string): TargetEvent => ({ id, etag: null, deleted: true, start: null, end: null, ourHash: null });

// Cursors say which way they were made, so a server that starts or stops offering sync-collection
// (or an upgrade) starts over with a full listing instead of misreading the other kind.
const SYNC = 'sync:';
const ETAGS = 'etags:';

interface EtagCursor {
  ctag: string | null;
  etags: Record<string, string>;
}

function etagCursor(cursor: string | null): EtagCursor | null {
  if (!cursor?.startsWith(ETAGS)) return null;
  try {
    const parsed = JSON.parse(cursor.slice(ETAGS.length)) as EtagCursor;
    return typeof parsed.etags === 'object' && parsed.etags !== null ? parsed : null;
  } catch {
    return null;
  }
}

export interface CalDavTargetOptions {
  api: CalDavApi;
  /** booking.timezone: where floating times and all-day dates an app wrote are placed. */
  zone: string;
}

/** `calendarId` is a calendar as configured (caldav.calendars[].calendar: a display name or a collection URL). */
export function createCalDavTarget({ api, zone }: CalDavTargetOptions): CalendarTarget<CalendarObject> {
  // Discovery once per calendar per process; a failed one is asked again next time.
  const found = new Map<string, Promise<CalendarCollection>>();
  /** Collections whose server refused sync-collection though discovery said it had it. */
  const withoutSync = new Set<string>();
  const collection = (calendarId: string): Promise<CalendarCollection> => {
    let p = found.get(calendarId);
    if (!p) {
      p = api.findCalendar(calendarId);
      found.set(calendarId, p);
      p.catch(() => found.delete(calendarId));
    }
    return p;
  };
  const events = (objects: FetchedObject[]): TargetEvent[] =>
    objects.flatMap((o) => (o.key === null ? [] : [targetEventOf(o.key, o.etag, o.ics, zone)]));
  const ours = (refs: readonly ObjectRef[]) => refs.filter((r) => r.key !== null);

  /** A server that rewrote the body may send no ETag (RFC 4791 §5.3.4): the next If-Match needs it. */
  async function written(url: string, key: string, etag: string | null): Promise<PutResult> {
    if (etag !== null) return { kind: 'written', etag };
    const read = await api.get(url, key);
    return { kind: 'written', etag: read.kind === 'found' ? read.etag : null };
  }

  async function put(
    calendarId: string,
    key: string,
    body: CalendarObject,
    condition: Parameters<CalendarTarget<CalendarObject>['put']>[3],
  ): Promise<PutResult> {
    const { url } = await collection(calendarId);
    if (condition.kind === 'absent') {
      const r = await api.put(url, key, body, { kind: 'create' });
      return r.kind === 'written' ? written(url, key, r.etag) : { kind: 'exists' };
    }
    // No version known (a write whose ETag we never learnt): read it, and still write only that version.
    let etag = condition.kind === 'etag' ? condition.etag : null;
    if (etag === null) {
      const read = await api.get(url, key);
      if (read.kind === 'not_found') {
        const r = await api.put(url, key, body, { kind: 'create' });
        return r.kind === 'written' ? written(url, key, r.etag) : { kind: 'changed' };
      }
      etag = read.etag;
    }
    const r = await api.put(url, key, body, { kind: 'update', etag });
    // If-Match on a resource that is gone is a 412 too: `changed`, and the writer's read finds it missing.
    return r.kind === 'written' ? written(url, key, r.etag) : { kind: 'changed' };
  }

  async function remove(calendarId: string, key: string, etag: string | null): Promise<RemoveResult> {
    const { url } = await collection(calendarId);
    let version = etag;
    if (version === null) {
      const read = await api.get(url, key);
      if (read.kind === 'not_found') return { kind: 'missing' };
      version = read.etag;
    }
    const r = await api.remove(url, key, version);
    return r.kind === 'removed' ? r : r.kind === 'not_found' ? { kind: 'missing' } : { kind: 'changed' };
  }

  async function get(calendarId: string, key: string): Promise<GetResult> {
    const { url } = await collection(calendarId);
    const read = await api.get(url, key);
    return read.kind === 'found' ? { kind: 'found', event: targetEventOf(key, read.etag, read.ics, zone) } : { kind: 'missing' };
  }

  async function bySync(c: CalendarCollection, cursor: string | null): Promise<ChangeBatch> {
    let token = cursor?.startsWith(SYNC) ? cursor.slice(SYNC.length) : null;
    let r = await api.changesSince(c.url, token);
    if (r.kind === 'token_expired') {
      token = null;
      r = await api.changesSince(c.url, null);
      if (r.kind === 'token_expired')
        throw new CalDavError('invalid', `REPORT sync-collection ${c.url}: the server refused a first sync without a token`);
    }
    if (r.kind === 'unsupported') {
      // It listed a sync-token yet refuses the report: compare ETags from now on, without asking again.
      withoutSync.add(c.url);
      return byEtags(c, cursor);
    }
    const read = await api.multiget(
      c.url,
      ours(r.changed).map((x) => x.href),
    );
    const full = token === null;
    // Listed as changed but gone by the time we read it: a removal (a full listing infers those itself).
    const gone = full
      ? []
      : [...r.removed, ...read.missing.map((href) => ({ href, key: r.changed.find((x) => x.href === href)?.key ?? null }))];
    const removed = gone.flatMap((x) => (x.key === null ? [] : [deletion(x.key)]));
    return { mode: full ? 'full' : 'incremental', events: [...events(read.found), ...removed], cursor: SYNC + r.token };
  }

  async function byEtags(c: CalendarCollection, cursor: string | null): Promise<ChangeBatch> {
    const before = etagCursor(cursor);
    const ctag = await api.ctag(c.url);
    // The collection's CTag is unchanged: no member changed, one request instead of a listing.
    if (before && ctag !== null && ctag === before.ctag) return { mode: 'incremental', events: [], cursor: cursor! };
    const listing = ours(await api.listEtags(c.url));
    const now: EtagCursor = { ctag, etags: Object.fromEntries(listing.map((x) => [x.key!, x.etag!])) };
    const next = ETAGS + JSON.stringify(now);
    if (!before) {
      const read = await api.multiget(
        c.url,
        listing.map((x) => x.href),
      );
      return { mode: 'full', events: events(read.found), cursor: next };
    }
    const changed = listing.filter((x) => before.etags[x.key!] !== x.etag);
    const read = await api.multiget(
      c.url,
      changed.map((x) => x.href),
    );
    const removed = Object.keys(before.etags).filter((k) => now.etags[k] === undefined);
    return { mode: 'incremental', events: [...events(read.found), ...removed.map(deletion)], cursor: next };
  }

  const wrap =
    <A extends unknown[], R>(f: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      try {
        return await f(...a);
      } catch (e) {
        throw targetErrorOf(e);
      }
    };

  return {
    put: wrap(put),
    get: wrap(get),
    remove: wrap(remove),
    changes: wrap(async (calendarId: string, cursor: string | null) => {
      const c = await collection(calendarId);
      return c.supportsSync && !withoutSync.has(c.url) ? bySync(c, cursor) : byEtags(c, cursor);
    }),
  };
}
