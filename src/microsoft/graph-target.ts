// The calendar target port (core/mirror/target.ts) over Microsoft Graph. The port's event id is
// ours (the appointment key, `idOf`); Graph's id is remembered beside it (graph-ids.ts) and found
// again by the appointment_key extended property. A create first looks that property up (an event
// there is `exists`, which the writer reads and adopts) and carries a transactionId derived from the
// key, so a retried or crash-repeated create answers the first one's event. Updates and deletes are
// If-Match on @odata.etag when the writer has one (412 is `changed`, 404 `missing`).
import type { EventBody } from '../core/mirror/desired-event.ts';
import type { CalendarTarget, ChangeBatch, GetResult, Precondition, PutResult, RemoveResult, TargetEvent } from '../core/mirror/target.ts';
import { readDelta, type DeltaWindow } from './change-feed.ts';
import { GraphError } from './errors.ts';
import {
  deletionOf,
  graphBody,
  HASH_EXPAND,
  keyFilter,
  readGraphEvent,
  targetEventOf,
  transactionIdOf,
  type GraphEvent,
} from './graph-event.ts';
import type { GraphHttp } from './graph-http.ts';
import type { GraphIds } from './graph-ids.ts';

/**
 * A mapped calendar as the port names it: `{user}/{calendar}`, the mailbox ("me" or an address or
 * id, which has no "/") and the calendar's name or id in it.
 */
export const calendarRef = (user: string, calendar: string) => `${user}/${calendar}`;

export function parseCalendarRef(ref: string): { user: string; calendar: string } {
  const i = ref.indexOf('/');
  if (i <= 0) throw new GraphError('invalid', `"${ref}" names no mailbox and calendar`);
  return { user: ref.slice(0, i), calendar: ref.slice(i + 1) };
}

export interface GraphTargetOptions {
  http: GraphHttp;
  ids: GraphIds;
  graphRoot: string;
  /** The window delta queries read (poll.past_days .. poll.future_days around now). */
  window: () => DeltaWindow;
}

interface Calendar {
  mailbox: string;
  /** "v1.0/me/calendars/{id}" */
  path: string;
}

const userPath = (user: string) => (user === 'me' ? 'v1.0/me' : `v1.0/users/${encodeURIComponent(user)}`);

export interface GraphTarget extends CalendarTarget<EventBody> {
  /** The calendar's Graph path, found once (the subscriptions' resource). */
  calendar(calendarId: string): Promise<Calendar>;
}

export function createGraphTarget({ http, ids, graphRoot, window }: GraphTargetOptions): GraphTarget {
  const origin = new URL(graphRoot).origin;
  const found = new Map<string, Promise<Calendar>>();

  async function discover(calendarId: string): Promise<Calendar> {
    const { user, calendar } = parseCalendarRef(calendarId);
    const { json } = await http.request(user, { op: 'calendars', method: 'GET', path: `${userPath(user)}/calendars?$top=250` });
    const list = Array.isArray(json.value) ? (json.value as { id?: unknown; name?: unknown }[]) : [];
    const match =
      list.find((c) => c.id === calendar) ??
      list.find((c) => typeof c.name === 'string' && c.name.toLowerCase() === calendar.toLowerCase());
    if (typeof match?.id !== 'string') {
      const names = list.map((c) => `"${String(c.name)}"`).join(', ');
      throw new GraphError(
        'not_found',
        `the mailbox ${user} has no calendar "${calendar}" (it has ${names || 'none'}); fix microsoft.calendars[].calendar`,
        404,
        'calendar_not_found',
      );
    }
    return { mailbox: user, path: `${userPath(user)}/calendars/${encodeURIComponent(match.id)}` };
  }

  function calendar(calendarId: string): Promise<Calendar> {
    let p = found.get(calendarId);
    if (!p) {
      p = discover(calendarId);
      found.set(calendarId, p);
      p.catch(() => found.delete(calendarId));
    }
    return p;
  }

  /** Events of this calendar holding the key (more than one only if someone copied ours). */
  async function lookUp(cal: Calendar, key: string): Promise<GraphEvent[]> {
    const q = new URLSearchParams({ $filter: keyFilter(key), $expand: HASH_EXPAND });
    const { json } = await http.request(cal.mailbox, { op: 'find', method: 'GET', path: `${cal.path}/events?${q}` });
    return (Array.isArray(json.value) ? (json.value as Record<string, unknown>[]) : []).map(readGraphEvent);
  }

  /** Graph's id of our event: remembered, or found by its property (and remembered). */
  async function graphIdOf(calendarId: string, cal: Calendar, key: string): Promise<string | null> {
    const known = ids.get(calendarId, key);
    if (known) return known.graphId;
    const [first] = await lookUp(cal, key);
    if (!first) return null;
    ids.set(calendarId, key, { graphId: first.id, etag: first.etag, hash: first.hash });
    return first.id;
  }

  const remember = (calendarId: string, key: string, json: Record<string, unknown>): PutResult => {
    const e = readGraphEvent(json);
    ids.set(calendarId, key, { graphId: e.id, etag: e.etag, hash: e.hash });
    return { kind: 'written', etag: e.etag };
  };

  async function put(calendarId: string, key: string, body: EventBody, condition: Precondition): Promise<PutResult> {
    const cal = await calendar(calendarId);
    const payload = graphBody(body);
    if (condition.kind === 'absent') {
      // Graph has no create-if-absent: look for the key first, so an event we made and lost track of is adopted.
      const existing = await lookUp(cal, key);
      if (existing[0]) {
        ids.set(calendarId, key, { graphId: existing[0].id, etag: existing[0].etag, hash: existing[0].hash });
        return { kind: 'exists' };
      }
      // A Graph id still remembered is of an event that is gone (kept for the change listing): were
      // this create's answer lost, the next write must look the new event up, not find the old id.
      ids.forget(calendarId, key);
      const { json } = await http.request(cal.mailbox, {
        op: 'create',
        method: 'POST',
        path: `${cal.path}/events`,
        body: { ...payload, transactionId: transactionIdOf(calendarId, key) },
      });
      return remember(calendarId, key, json);
    }
    const graphId = await graphIdOf(calendarId, cal, key);
    if (graphId === null) return { kind: 'missing' };
    const headers: Record<string, string> = condition.kind === 'etag' ? { 'if-match': condition.etag } : {};
    const r = await http.request(cal.mailbox, {
      op: 'update',
      method: 'PATCH',
      path: `${cal.path}/events/${encodeURIComponent(graphId)}`,
      body: payload,
      headers,
      accept: [404, 412],
    });
    if (r.status === 412) return { kind: 'changed' };
    if (r.status === 404) {
      ids.forget(calendarId, key);
      return { kind: 'missing' };
    }
    return remember(calendarId, key, r.json);
  }

  /**
   * `keepGone`: a read for the change listing remembers the Graph id of an event that is gone. The
   * delta names a deletion only by that id, and a round that read it and then failed on another
   * event lists it again from the same cursor. The writer's reads forget it, so its next write looks
   * the appointment up by its property (an event of ours made meanwhile, its answer lost, is found).
   */
  async function read(calendarId: string, key: string, keepGone: boolean): Promise<GetResult> {
    const cal = await calendar(calendarId);
    const graphId = await graphIdOf(calendarId, cal, key);
    if (graphId === null) return { kind: 'missing' };
    const r = await http.request(cal.mailbox, {
      op: 'get',
      method: 'GET',
      path: `${cal.path}/events/${encodeURIComponent(graphId)}?$expand=${encodeURIComponent(HASH_EXPAND)}`,
      accept: [404],
    });
    if (r.status === 404) {
      if (!keepGone) ids.forget(calendarId, key);
      return { kind: 'missing' };
    }
    const e = readGraphEvent(r.json);
    return { kind: 'found', event: targetEventOf(key, e, e.hash) };
  }

  async function remove(calendarId: string, key: string, etag: string | null): Promise<RemoveResult> {
    const cal = await calendar(calendarId);
    const graphId = await graphIdOf(calendarId, cal, key);
    if (graphId === null) return { kind: 'missing' };
    const headers: Record<string, string> = etag !== null ? { 'if-match': etag } : {};
    const r = await http.request(cal.mailbox, {
      op: 'delete',
      method: 'DELETE',
      path: `${cal.path}/events/${encodeURIComponent(graphId)}`,
      headers,
      accept: [404, 412],
    });
    if (r.status === 412) return { kind: 'changed' };
    ids.forget(calendarId, key);
    // A remembered id answered 404: our event is gone, and that is what was wanted. No look-up by
    // the property follows: a create drops the old id before it is sent, so an event found by it
    // now would be a person's copy of ours, theirs to keep.
    return r.status === 404 ? { kind: 'missing' } : { kind: 'removed' };
  }

  async function changes(calendarId: string, cursor: string | null): Promise<ChangeBatch> {
    const cal = await calendar(calendarId);
    const listing = await readDelta(http, cal.mailbox, cal.path, cursor, window, origin);
    const events: TargetEvent[] = [];
    for (const item of listing.items) {
      const graphId = String(item.json.id);
      const key = ids.keyOf(calendarId, graphId);
      // Not one of ours (a person's own appointment), or ours unseen since the map was lost: the
      // writer's look-up finds those again by their property.
      if (key === undefined) continue;
      if (item.removed) {
        // Graph reports an event that left the window as removed too: only a read tells a move from a deletion.
        const now = await read(calendarId, key, true);
        events.push(now.kind === 'found' ? now.event : deletionOf(key));
        continue;
      }
      const e = readGraphEvent(item.json);
      const ours = ids.get(calendarId, key);
      // The very version we wrote: our echo, with our hash. Any other version is read as it stands.
      events.push(targetEventOf(key, e, ours && ours.etag === e.etag ? ours.hash : null));
    }
    // Never 'full': a fresh delta covers only the window, so what it lacks is not a deletion.
    return { mode: 'incremental', events, cursor: listing.deltaLink };
  }

  const get = (calendarId: string, key: string) => read(calendarId, key, false);

  return { put, get, remove, changes, calendar };
}
