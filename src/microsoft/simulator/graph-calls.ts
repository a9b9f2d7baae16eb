// The Graph calls the simulator answers, told apart by method and path, and answered against the
// mailbox state: calendars, events (create with transactionId, get, PATCH/DELETE with If-Match, the
// extended-property $filter and $expand) and calendarView/delta.
import type { DeltaTokens } from './delta.ts';
import { GraphApiError, toJson, type ExtendedProperty, type Mailbox, type SimulatedCalendar } from './mailboxes.ts';

export type CallKind =
  | 'token'
  | 'devicecode'
  | 'authorize'
  | 'calendars'
  | 'create'
  | 'get'
  | 'list'
  | 'patch'
  | 'delete'
  | 'delta'
  | 'subscribe'
  | 'renew'
  | 'unsubscribe'
  | 'other';

export const WRITES: readonly CallKind[] = ['create', 'patch', 'delete'];

export interface MailboxCall {
  kind: CallKind;
  /** 'me', or the id or address after /users/. */
  user: string;
  calendarId?: string;
  eventId?: string;
}

/** Splits `/v1.0/{me | users/{id}}/…`; null for a path outside a mailbox. */
export function classifyMailboxCall(method: string, segments: string[]): MailboxCall | null {
  let rest: string[];
  let user: string;
  if (segments[0] === 'me') [user, rest] = ['me', segments.slice(1)];
  else if (segments[0] === 'users' && segments[1]) [user, rest] = [segments[1], segments.slice(2)];
  else return null;
  const [a, b, c, d, e] = rest;
  const event = (calendarId: string | undefined, eventId: string): MailboxCall => {
    const kind: CallKind = method === 'GET' ? 'get' : method === 'PATCH' ? 'patch' : method === 'DELETE' ? 'delete' : 'other';
    return { kind, user, ...(calendarId ? { calendarId } : {}), eventId };
  };
  if (a === 'calendars' && b === undefined && method === 'GET') return { kind: 'calendars', user };
  if (a === 'calendars' && b && c === undefined && method === 'GET') return { kind: 'calendars', user, calendarId: b };
  if (a === 'calendars' && b && c === 'events' && d === undefined)
    return { kind: method === 'POST' ? 'create' : method === 'GET' ? 'list' : 'other', user, calendarId: b };
  if (a === 'calendars' && b && c === 'events' && d && e === undefined) return event(b, d);
  if (a === 'calendars' && b && c === 'calendarView' && d === 'delta' && method === 'GET') return { kind: 'delta', user, calendarId: b };
  if (a === 'events' && b && c === undefined) return event(undefined, b);
  return { kind: 'other', user };
}

const calendarJson = (c: SimulatedCalendar, owner: string) => ({
  id: c.id,
  name: c.name,
  canEdit: c.canEdit,
  canShare: c.canEdit,
  isDefaultCalendar: c.isDefaultCalendar,
  changeKey: 'AAAA',
  owner: { name: owner, address: owner },
});

/** `singleValueExtendedProperties/Any(ep: ep/id eq '…' and ep/value eq '…')`, quotes doubled as OData escapes them. */
const PROPERTY_FILTER =
  /^singleValueExtendedProperties\/Any\(\s*(\w+)\s*:\s*\1\/id eq '((?:[^']|'')*)' and \1\/value eq '((?:[^']|'')*)'\s*\)$/;
/** `singleValueExtendedProperties($filter=id eq '…')` */
const PROPERTY_EXPAND = /^singleValueExtendedProperties\(\$filter=id eq '((?:[^']|'')*)'\)$/;
const unquote = (s: string) => s.replace(/''/g, "'");

function expandOf(url: URL): ((p: ExtendedProperty) => boolean) | undefined {
  const expand = url.searchParams.get('$expand');
  if (expand === null) return undefined;
  const m = PROPERTY_EXPAND.exec(expand.trim());
  if (!m) throw new GraphApiError(400, 'BadRequest', `Parsing OData Select and Expand failed: ${expand}`);
  const ids = unquote(m[1]!).toLowerCase();
  return (p) => p.id.toLowerCase() === ids;
}

/** The page size a client asked for with `Prefer: odata.maxpagesize=N` (Graph's calendarView default is 10). */
function pageSizeOf(prefer: string | undefined): number {
  const m = /odata\.maxpagesize=(\d+)/.exec(prefer ?? '');
  return m ? Math.max(1, Math.min(1000, Number(m[1]))) : 10;
}

export interface CallContext {
  box: Mailbox;
  call: MailboxCall;
  url: URL;
  body: Record<string, unknown>;
  ifMatch: string | undefined;
  prefer: string | undefined;
  delta: DeltaTokens;
}

/** [status, body]; Graph errors are thrown as GraphApiError. */
export function answerMailboxCall({ box, call, url, body, ifMatch, prefer, delta }: CallContext): [number, unknown] {
  switch (call.kind) {
    case 'calendars':
      if (call.calendarId) return [200, calendarJson(box.calendar(call.calendarId), box.address)];
      return [200, { value: [...box.calendars.values()].map((c) => calendarJson(c, box.address)) }];
    case 'create': {
      // A repeated transactionId answers the event it made, as a create would.
      return [201, toJson(box.create(call.calendarId!, body).event, { expand: () => true })];
    }
    case 'get':
      return [200, toJson(box.event(call.eventId!, call.calendarId), { expand: expandOf(url) })];
    case 'list': {
      const filter = url.searchParams.get('$filter');
      const cal = box.calendar(call.calendarId).id;
      const expand = expandOf(url);
      if (filter === null)
        return [200, { value: [...box.events.values()].filter((e) => e.calendarId === cal).map((e) => toJson(e, { expand })) }];
      const m = PROPERTY_FILTER.exec(filter.trim());
      if (!m) throw new GraphApiError(400, 'ErrorInvalidUrlQueryFilter', `The query filter contains one or more invalid nodes: ${filter}`);
      return [200, { value: box.withProperty(cal, unquote(m[2]!), unquote(m[3]!)).map((e) => toJson(e, { expand })) }];
    }
    case 'patch':
      return [200, toJson(box.patch(call.eventId!, call.calendarId, body, ifMatch), { expand: () => true })];
    case 'delete':
      box.remove(call.eventId!, call.calendarId, ifMatch);
      return [204, undefined];
    case 'delta': {
      const base = `${url.origin}${url.pathname}`;
      const q = {
        skiptoken: url.searchParams.get('$skiptoken'),
        deltatoken: url.searchParams.get('$deltatoken'),
        startDateTime: url.searchParams.get('startDateTime'),
        endDateTime: url.searchParams.get('endDateTime'),
        pageSize: pageSizeOf(prefer),
      };
      return [200, delta.page(box, call.calendarId!, q, base)];
    }
    default:
      throw new GraphApiError(400, 'BadRequest', `Unsupported request: ${url.pathname}`);
  }
}
