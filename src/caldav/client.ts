// The CalDAV adapter: the port (port.ts) over one DavHttp. Built by the composition root; nothing
// here reads the config or the environment.
import { DEFAULT_RETRY, type RetryPolicy } from '../net/retry-policy.ts';
import { publicOnlyRequest } from '../net/http-request.ts';
import type { ResolveHost } from '../net/address-guard.ts';
import { realSleep, type Pacer, type Sleep } from '../net/pacer.ts';
import { systemClock, type Clock } from '../core/clock.ts';
import { matchCalendar, notFound, parseSpec } from './calendar-match.ts';
import { changesSince, ctagOf, listEtags, multiget } from './changes.ts';
import { calendarAt, listCalendars } from './discovery.ts';
import { DavHttp, type DavHttpOptions } from './http.ts';
import { getObject, putObject, removeObject } from './objects.ts';
import type { CalDavApi } from './port.ts';

export interface CalDavClientOptions {
  /** caldav.url: the DAV root, or a bare host with /.well-known/caldav. */
  url: string;
  username: string;
  password: string;
  /** Shared by every request to this server (caldav.requests_per_minute). */
  pacer: Pacer;
  clock?: Clock;
  sleep?: Sleep;
  policy?: RetryPolicy;
  timeoutMs?: number;
  request?: DavHttpOptions['request'];
  /**
   * 'public': every connection is refused unless its address is public (net/address-rule.ts), for an
   * account connected by a link; 'any' (the default): an account the admin configured, a LAN server included.
   */
  addresses?: 'public' | 'any';
  /** With 'public': how names are resolved (tests); the system's resolver by default. */
  resolve?: ResolveHost;
  random?: () => number;
  onCall?: DavHttpOptions['onCall'];
}

export function createCalDavClient(o: CalDavClientOptions): CalDavApi {
  const base = new URL(o.url);
  const http = new DavHttp({
    origin: base,
    username: o.username,
    password: o.password,
    pacer: o.pacer,
    clock: o.clock ?? systemClock,
    sleep: o.sleep ?? realSleep,
    policy: o.policy ?? DEFAULT_RETRY,
    timeoutMs: o.timeoutMs ?? 30_000,
    request: o.request ?? (o.addresses === 'public' ? publicOnlyRequest(o.resolve) : undefined),
    random: o.random,
    onCall: o.onCall,
  });
  const calendars = () => listCalendars(http, base);
  return {
    calendars,
    async findCalendar(nameOrUrl) {
      const spec = parseSpec(nameOrUrl, base);
      const found = await calendars();
      const match = matchCalendar(found, spec) ?? (spec.kind === 'url' ? await calendarAt(http, spec.url) : undefined);
      if (!match) throw notFound(spec, found, base);
      return match;
    },
    put: (collection, key, ics, precondition) => putObject(http, collection, key, ics, precondition),
    get: (collection, key) => getObject(http, collection, key),
    remove: (collection, key, etag) => removeObject(http, collection, key, etag),
    changesSince: (collection, token) => changesSince(http, collection, token),
    listEtags: (collection) => listEtags(http, collection),
    ctag: (collection) => ctagOf(http, collection),
    multiget: (collection, hrefs) => multiget(http, collection, hrefs),
  };
}
