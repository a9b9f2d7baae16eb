// Calendar v3 calls as the simulator serves them: which call a request is, and its answer from the
// calendar state and the watch channels. No HTTP here beyond the URL.
import { CalendarApiError, type CalendarState, type ListParams, type SimulatedEvent } from './calendar-state.ts';
import type { Channels } from './push.ts';

export type CallKind =
  | 'token'
  | 'consent'
  | 'calendarList'
  | 'insert'
  | 'get'
  | 'update'
  | 'patch'
  | 'delete'
  | 'list'
  | 'watch'
  | 'stop'
  | 'other';

export interface Call {
  kind: CallKind;
  calendarId?: string;
  eventId?: string;
}

export const isWrite = (kind: CallKind): boolean => kind === 'insert' || kind === 'update' || kind === 'patch' || kind === 'delete';

/** `segments`: the path after /calendar/v3/, decoded: ['calendars', cal, 'events', id?] or ['channels', 'stop']. */
export function classify(method: string, segments: string[]): Call {
  if (segments[0] === 'channels' && segments[1] === 'stop' && method === 'POST') return { kind: 'stop' };
  if (segments.join('/') === 'users/me/calendarList' && method === 'GET') return { kind: 'calendarList' };
  if (segments[0] !== 'calendars' || segments[2] !== 'events' || segments.length > 4) return { kind: 'other' };
  const calendarId = segments[1];
  const eventId = segments[3];
  if (eventId === undefined) return { kind: method === 'POST' ? 'insert' : method === 'GET' ? 'list' : 'other', calendarId };
  if (eventId === 'watch' && method === 'POST') return { kind: 'watch', calendarId };
  const kinds: Record<string, CallKind> = { GET: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };
  return { kind: kinds[method] ?? 'other', calendarId, eventId };
}

function listParams(q: URLSearchParams): ListParams {
  const params: ListParams = {
    incompatible: ['timeMin', 'timeMax', 'q', 'privateExtendedProperty', 'orderBy', 'updatedMin', 'iCalUID'].filter((k) => q.has(k)),
    privateExtendedProperty: q.getAll('privateExtendedProperty'),
    showDeleted: q.get('showDeleted') === 'true',
  };
  for (const k of ['syncToken', 'pageToken', 'timeMin', 'timeMax', 'updatedMin'] as const) {
    const v = q.get(k);
    if (v) params[k] = v;
  }
  if (q.has('maxResults')) params.maxResults = Number(q.get('maxResults'));
  return params;
}

/** The answer to one call: [status, JSON body or undefined]. Throws CalendarApiError for Google's errors. */
export function answerCall(
  state: CalendarState,
  channels: Channels,
  call: Call,
  url: URL,
  body: Record<string, unknown>,
  ifMatch?: string,
): [number, unknown] {
  const cal = call.calendarId ?? '';
  const id = call.eventId ?? '';
  const event = body as Partial<SimulatedEvent>;
  switch (call.kind) {
    case 'insert':
      return [200, state.insert(cal, event)];
    case 'get':
      return [200, state.get(cal, id)];
    case 'update':
      return [200, state.update(cal, id, event, ifMatch)];
    case 'patch':
      return [200, state.patch(cal, id, event, ifMatch)];
    case 'delete':
      state.delete(cal, id, ifMatch);
      return [204, undefined];
    case 'list': {
      const r = state.list(cal, listParams(url.searchParams));
      return [
        200,
        { kind: 'calendar#events', summary: cal, timeZone: 'UTC', accessRole: 'owner', updated: new Date().toISOString(), ...r },
      ];
    }
    case 'watch': {
      const ch = channels.open(cal, body);
      return [
        200,
        {
          kind: 'api#channel',
          id: ch.id,
          resourceId: ch.resourceId,
          resourceUri: `${url.origin}${url.pathname}`,
          token: ch.token,
          expiration: String(ch.expiration),
        },
      ];
    }
    case 'stop':
      channels.stop(body);
      return [204, undefined];
    default:
      throw new CalendarApiError(404, 'notFound', 'Not Found');
  }
}
