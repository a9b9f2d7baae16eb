// CalendarApi over Google's Calendar v3 client (@googleapis/calendar, loaded on first use): vendor shapes mapped to ours in one function each way, every call
// paced and retried (retry.ts), errors translated (errors.ts). The library's own retry is off so
// that what we count is what was sent.
import type { calendar_v3 } from '@googleapis/calendar';
import { calendarLib } from './library.ts';
import type { Clock } from '../core/clock.ts';
import type { EventBody } from '../core/mirror/desired-event.ts';
import type { CalendarApi, EventPage, GoogleEvent, ListOptions, WatchRequest } from './port.ts';
import { accountOf, forgetAccessToken, type OAuth2Client } from './auth.ts';
import { explainCalendarError } from './calendar-errors.ts';
import { type Pacer, realSleep, type Sleep } from '../net/pacer.ts';
import { DEFAULT_RETRY, type RetryPolicy } from '../net/retry-policy.ts';
import { callWithRetry, type CallObserver } from './retry.ts';
import { originFetch } from '../net/origin-fetch.ts';

export interface AdapterOptions {
  auth: OAuth2Client;
  apiRoot: string;
  pacer: Pacer;
  clock: Clock;
  sleep?: Sleep;
  policy?: RetryPolicy;
  observer?: CallObserver;
  timeoutMs?: number;
}

function toVendor(body: EventBody): calendar_v3.Schema$Event {
  return {
    summary: body.summary,
    description: body.description,
    status: body.status,
    start: { ...body.start },
    end: { ...body.end },
    // A full update that omits them deletes them: always send them.
    extendedProperties: { private: { ...body.privateProperties } },
    // Service accounts cannot invite attendees without domain-wide delegation: none are sent.
    reminders: { useDefault: true },
  };
}

function instant(t: calendar_v3.Schema$EventDateTime | undefined): number | null {
  const ms = t?.dateTime ? Date.parse(t.dateTime) : Number.NaN;
  return Number.isNaN(ms) ? null : ms;
}

function fromVendor(e: calendar_v3.Schema$Event): GoogleEvent {
  const updated = e.updated ? Date.parse(e.updated) : Number.NaN;
  return {
    id: e.id ?? '',
    status: e.status ?? 'confirmed',
    etag: e.etag ?? '',
    start: instant(e.start),
    end: instant(e.end),
    summary: e.summary ?? null,
    description: e.description ?? null,
    recurring: (e.recurrence?.length ?? 0) > 0 || Boolean(e.recurringEventId),
    privateProperties: { ...(e.extendedProperties?.private ?? {}) },
    sequence: e.sequence ?? null,
    updated: Number.isNaN(updated) ? null : updated,
  };
}

export function createCalendarAdapter(o: AdapterOptions): CalendarApi {
  const rootUrl = o.apiRoot.endsWith('/') ? o.apiRoot : `${o.apiRoot}/`;
  // Node's own fetch() rather than gaxios's default, node-fetch: node-fetch runs over node:http, whose
  // stream code the HTTP server shares, and the Google writer's traffic through it slowed the feeds'
  // 304s measurably while a backfill ran.
  // Held to api_root's origin, no redirect followed (net/origin-fetch.ts): a 307 to plain http would
  // otherwise carry the access token and every event body there.
  const fetchImplementation = originFetch(new URL(rootUrl), 'google.api_root');
  const api = calendarLib().calendar({
    version: 'v3',
    auth: o.auth,
    rootUrl,
    retry: false,
    timeout: o.timeoutMs ?? 30_000,
    fetchImplementation,
    maxRedirects: 0,
  });
  const deps = {
    pacer: o.pacer,
    clock: o.clock,
    sleep: o.sleep ?? realSleep,
    policy: o.policy ?? DEFAULT_RETRY,
    observer: o.observer,
    forgetAccessToken: () => forgetAccessToken(o.auth),
  };
  const account = accountOf(o.auth);
  const call = <T>(op: string, fn: () => Promise<T>, calendarId?: string) =>
    calendarId === undefined
      ? callWithRetry(op, fn, deps)
      : callWithRetry(op, fn, deps).catch((e: unknown) => Promise.reject(explainCalendarError(e, op, calendarId, account)));
  const ifMatch = (etag?: string) => (etag ? { headers: { 'If-Match': etag } } : {});

  return {
    insert: (calendarId, eventId, body) =>
      call(
        'insert',
        async () => fromVendor((await api.events.insert({ calendarId, requestBody: { ...toVendor(body), id: eventId } })).data),
        calendarId,
      ),
    get: (calendarId, eventId) => call('get', async () => fromVendor((await api.events.get({ calendarId, eventId })).data), calendarId),
    update: (calendarId, eventId, body, etag) =>
      call(
        'update',
        async () => fromVendor((await api.events.update({ calendarId, eventId, requestBody: toVendor(body) }, ifMatch(etag))).data),
        calendarId,
      ),
    delete: (calendarId, eventId, etag) =>
      call(
        'delete',
        async () => {
          await api.events.delete({ calendarId, eventId }, ifMatch(etag));
        },
        calendarId,
      ),
    list: (calendarId, options: ListOptions) =>
      call(
        'list',
        async (): Promise<EventPage> => {
          const params: calendar_v3.Params$Resource$Events$List = { calendarId, maxResults: options.maxResults ?? 250 };
          if (options.syncToken) params.syncToken = options.syncToken;
          if (options.pageToken) params.pageToken = options.pageToken;
          if (options.showDeleted) params.showDeleted = true;
          if (options.timeMin !== undefined) params.timeMin = new Date(options.timeMin).toISOString();
          if (options.timeMax !== undefined) params.timeMax = new Date(options.timeMax).toISOString();
          const { data } = await api.events.list(params);
          return {
            events: (data.items ?? []).map(fromVendor),
            ...(data.nextPageToken ? { nextPageToken: data.nextPageToken } : {}),
            ...(data.nextSyncToken ? { nextSyncToken: data.nextSyncToken } : {}),
          };
        },
        calendarId,
      ),
    watch: (calendarId, r: WatchRequest) =>
      call(
        'watch',
        async () => {
          const { data } = await api.events.watch({
            calendarId,
            requestBody: {
              id: r.channelId,
              type: 'web_hook',
              address: r.address,
              token: r.token,
              ...(r.expiration ? { expiration: String(r.expiration) } : {}),
            },
          });
          return { resourceId: data.resourceId ?? '', expiration: data.expiration ? Number(data.expiration) : null };
        },
        calendarId,
      ),
    stopChannel: (channelId, resourceId) =>
      call('stop', async () => {
        await api.channels.stop({ requestBody: { id: channelId, resourceId } });
      }),
  };
}
