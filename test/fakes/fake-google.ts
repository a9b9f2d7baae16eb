/**
 * A fake Google Calendar API v3 (plus OAuth token endpoint) on 127.0.0.1, driven by the real
 * googleapis client: `google.calendar({version:'v3', auth, rootUrl: fake.url + '/'})`, and
 * OAuth2Client `endpoints.oauth2TokenUrl: fake.tokenUrl`.
 *
 * Routes (served at the root, as Google does):
 *   POST /token                                  grant_type refresh_token | authorization_code | jwt-bearer
 *   POST /calendar/v3/calendars/{cal}/events     insert (client id base32hex 5..1024 else 400; existing id, tombstone too => 409 duplicate)
 *   GET  /calendar/v3/calendars/{cal}/events/{id} get (a deleted event comes back with status cancelled)
 *   PUT  .../events/{id}                         update (If-Match => 412; a tombstone updated to confirmed is revived,
 *                                                or 403 when `refuseRevival`; sequence below stored => 400)
 *   PATCH .../events/{id}                        patch (merges; extendedProperties merged per key)
 *   DELETE .../events/{id}                       delete => tombstone kept (status cancelled); again => 410; unknown => 404
 *   GET  /calendar/v3/calendars/{cal}/events     list: maxResults/pageToken, showDeleted, timeMin/timeMax, updatedMin,
 *                                                privateExtendedProperty; nextSyncToken on the last page; syncToken =>
 *                                                changes since (tombstones included, minimal); 410 fullSyncRequired after
 *                                                `invalidateSyncTokens()`; 400 when syncToken is combined with timeMin etc.
 *   POST .../events/watch                        records a channel; returns {id, resourceId, expiration}
 *   POST /calendar/v3/channels/stop              {id, resourceId} => 204; unknown => 404
 * Every calendar API call needs `Authorization: Bearer <access token issued here>` (401 otherwise);
 * `expireAccessTokens()` makes the issued ones fail, `revoke()` makes refresh tokens answer invalid_grant.
 * Calendars spring into existence on first use. Errors have Google's body {error:{code,message,errors:[{reason}]}}.
 *
 * Test hooks: `state` (FakeCalendarState: events(), userEdit(), userDelete(), invalidateSyncTokens(),
 * refuseRevival), `log` / `counts()` / `resetLog()`, `setFaults({rate, kinds, after})` (random faults on
 * calendar calls: 429, '403rate', '403userRate', 'quota', 500, 503, 'network'; `after: true` applies a
 * write before failing its answer), `failNext(kind, n)`, `holdNext(match)` (applies the request but keeps
 * its response until release(): the SIGKILL test), `authorize(consentUrl)` (what the user's browser would
 * do: returns the redirect URL with a code), `notify(channelId, state)` (delivers a push notification to
 * the channel's address, through `pushAddress` to reach a local port), `autoNotify`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { FakeApiError, FakeCalendarState, type FakeEvent, type ListParams } from './fake-google-calendar.ts';
import { seededRandom } from '../../src/booking/simulator/random.ts';

export { FakeCalendarState, type FakeEvent } from './fake-google-calendar.ts';

export type FaultKind = 429 | '403rate' | '403userRate' | 'quota' | 500 | 503 | 'network';
export type CallKind = 'token' | 'insert' | 'get' | 'update' | 'patch' | 'delete' | 'list' | 'watch' | 'stop' | 'other';

export interface LoggedRequest {
  method: string;
  path: string;
  kind: CallKind;
  calendarId?: string;
  eventId?: string;
  ifMatch?: string;
  status: number;
  /** The fault injected, if any. */
  fault?: FaultKind;
}

export interface Channel {
  id: string;
  resourceId: string;
  calendarId: string;
  address: string;
  token?: string;
  expiration: number;
  stopped: boolean;
  messageNumber: number;
}

export interface HoldMatch {
  kind?: CallKind;
  method?: string;
}

export interface Hold {
  /** Resolves when a matching request has been applied (its response is being held). */
  arrived: Promise<LoggedRequest>;
  /** Sends the held response (if the client is still there). */
  release(): void;
}

export interface FakeGoogleOptions {
  port?: number;
  /** When set, the token endpoint checks the client's id and secret. */
  clientId?: string;
  clientSecret?: string;
  accessTokenTtlSeconds?: number;
  refuseRevival?: boolean;
  /** Seed of the fault generator, for repeatable runs. */
  seed?: number;
  /** Maps a channel's (https) address to where notifications really go (a local port). */
  pushAddress?: (address: string) => string;
  /** Deliver an 'exists' notification to every live channel of a calendar after each change. */
  autoNotify?: boolean;
}

export interface FakeGoogle {
  url: string;
  /** For google.calendar({rootUrl}): the origin with a trailing slash. */
  rootUrl: string;
  tokenUrl: string;
  state: FakeCalendarState;
  events(calendarId: string, options?: { includeDeleted?: boolean }): FakeEvent[];
  log: LoggedRequest[];
  counts(): Record<CallKind, number>;
  resetLog(): void;
  setFaults(f: { rate: number; kinds: FaultKind[]; after?: boolean } | null): void;
  failNext(kind: FaultKind, times?: number): void;
  holdNext(match?: HoldMatch): Hold;
  tokens: { issued: number; refreshed: number; refreshTokens: string[] };
  expireAccessTokens(): void;
  revoke(): void;
  authorize(consentUrl: string): string;
  channels: Map<string, Channel>;
  notify(channelId: string, state?: 'sync' | 'exists' | 'not_exists'): Promise<number>;
  close(): Promise<void>;
}


const FAULTS: Record<Exclude<FaultKind, 'network'>, [number, string, string, string]> = {
  429: [429, 'rateLimitExceeded', 'usageLimits', 'Rate Limit Exceeded'],
  '403rate': [403, 'rateLimitExceeded', 'usageLimits', 'Rate Limit Exceeded'],
  '403userRate': [403, 'userRateLimitExceeded', 'usageLimits', 'User Rate Limit Exceeded'],
  quota: [403, 'quotaExceeded', 'usageLimits', 'Calendar usage limits exceeded.'],
  500: [500, 'backendError', 'global', 'Backend Error'],
  503: [503, 'backendError', 'global', 'Service Unavailable'],
};

const token = () => randomBytes(18).toString('base64url');

export async function startFakeGoogle(options: FakeGoogleOptions = {}): Promise<FakeGoogle> {
  const state = new FakeCalendarState();
  state.refuseRevival = options.refuseRevival ?? false;
  const random = seededRandom(options.seed ?? 42);
  const log: LoggedRequest[] = [];
  const accessTokens = new Map<string, number>();
  const refreshTokens = new Set<string>();
  const codes = new Map<string, string>();
  const tokens = { issued: 0, refreshed: 0, refreshTokens: [] as string[] };
  let revoked = false;
  let faults: { rate: number; kinds: FaultKind[]; after?: boolean } | null = null;
  const queued: FaultKind[] = [];
  const holds: { match: HoldMatch; arrived: (r: LoggedRequest) => void; held?: () => void; released: boolean }[] = [];
  const channels = new Map<string, Channel>();
  const sockets = new Set<Socket>();
  const ttl = options.accessTokenTtlSeconds ?? 3600;

  const issueAccess = () => {
    const t = `ya29.${token()}`;
    accessTokens.set(t, Date.now() + ttl * 1000);
    tokens.issued++;
    return { access_token: t, expires_in: ttl, token_type: 'Bearer', scope: 'https://www.googleapis.com/auth/calendar' };
  };

  function handleToken(form: URLSearchParams): [number, unknown] {
    const grant = form.get('grant_type');
    const clientOk =
      (!options.clientId || form.get('client_id') === options.clientId) &&
      (!options.clientSecret || form.get('client_secret') === options.clientSecret);
    if (grant === 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
      if (revoked) return [400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' }];
      return form.get('assertion')?.split('.').length === 3 ? [200, issueAccess()] : [400, { error: 'invalid_grant', error_description: 'Invalid JWT.' }];
    }
    if (!clientOk) return [401, { error: 'invalid_client', error_description: 'The OAuth client was not found.' }];
    if (grant === 'refresh_token') {
      const rt = form.get('refresh_token') ?? '';
      if (revoked || !rt || (refreshTokens.size > 0 && !refreshTokens.has(rt))) {
        return [400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' }];
      }
      tokens.refreshed++;
      return [200, issueAccess()];
    }
    if (grant === 'authorization_code') {
      const redirect = codes.get(form.get('code') ?? '');
      if (!redirect || redirect !== form.get('redirect_uri')) return [400, { error: 'invalid_grant', error_description: 'Malformed auth code.' }];
      codes.delete(form.get('code') ?? '');
      const rt = `1//${token()}`;
      refreshTokens.add(rt);
      tokens.refreshTokens.push(rt);
      return [200, { ...issueAccess(), refresh_token: rt }];
    }
    return [400, { error: 'unsupported_grant_type', error_description: `Invalid grant_type: ${grant}` }];
  }

  function nextFault(kind: CallKind): FaultKind | undefined {
    if (kind === 'token' || kind === 'other') return undefined;
    if (queued.length) return queued.shift();
    if (faults && faults.kinds.length && random() < faults.rate) return faults.kinds[Math.floor(random() * faults.kinds.length)];
    return undefined;
  }

  function classify(method: string, parts: string[]): { kind: CallKind; cal?: string; id?: string } {
    // parts after calendar/v3: ['calendars', cal, 'events', id?] or ['channels', 'stop']
    if (parts[0] === 'channels' && parts[1] === 'stop' && method === 'POST') return { kind: 'stop' };
    if (parts[0] !== 'calendars' || parts[2] !== 'events' || parts.length > 4) return { kind: 'other' };
    const cal = parts[1];
    const id = parts[3];
    if (id === undefined) return { kind: method === 'POST' ? 'insert' : method === 'GET' ? 'list' : 'other', cal };
    if (id === 'watch' && method === 'POST') return { kind: 'watch', cal };
    const kinds: Record<string, CallKind> = { GET: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };
    return { kind: kinds[method] ?? 'other', cal, id };
  }

  function apply(kind: CallKind, cal: string | undefined, id: string | undefined, url: URL, body: Record<string, unknown>, ifMatch?: string): [number, unknown] {
    const c = cal ?? '';
    const q = url.searchParams;
    switch (kind) {
      case 'insert':
        return [200, state.insert(c, body as Partial<FakeEvent>)];
      case 'get':
        return [200, state.get(c, id ?? '')];
      case 'update':
        return [200, state.update(c, id ?? '', body as Partial<FakeEvent>, ifMatch)];
      case 'patch':
        return [200, state.patch(c, id ?? '', body as Partial<FakeEvent>, ifMatch)];
      case 'delete':
        state.delete(c, id ?? '', ifMatch);
        return [204, undefined];
      case 'list': {
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
        const r = state.list(c, params);
        return [200, { kind: 'calendar#events', summary: c, timeZone: 'UTC', accessRole: 'owner', updated: new Date().toISOString(), ...r }];
      }
      case 'watch': {
        if (typeof body.id !== 'string' || body.id.length > 64 || body.type !== 'web_hook' || typeof body.address !== 'string') {
          throw new FakeApiError(400, 'invalid', 'Invalid channel: id (<= 64 chars), type web_hook and address are required.');
        }
        if (!body.address.startsWith('https://')) throw new FakeApiError(400, 'push.webhookUrlNotHttps', 'WebHook callback must be HTTPS: ' + body.address);
        const ch: Channel = {
          id: body.id,
          resourceId: token(),
          calendarId: c,
          address: body.address,
          token: typeof body.token === 'string' ? body.token : undefined,
          expiration: typeof body.expiration === 'string' || typeof body.expiration === 'number' ? Number(body.expiration) : Date.now() + 7 * 86_400_000,
          stopped: false,
          messageNumber: 0,
        };
        channels.set(ch.id, ch);
        void notify(ch.id, 'sync');
        return [200, { kind: 'api#channel', id: ch.id, resourceId: ch.resourceId, resourceUri: `${url.origin}${url.pathname}`, token: ch.token, expiration: String(ch.expiration) }];
      }
      case 'stop': {
        const ch = typeof body.id === 'string' ? channels.get(body.id) : undefined;
        if (!ch || ch.stopped || ch.resourceId !== body.resourceId) throw new FakeApiError(404, 'notFound', `Channel '${String(body.id)}' not found for project`);
        ch.stopped = true;
        return [204, undefined];
      }
      default:
        throw new FakeApiError(404, 'notFound', 'Not Found');
    }
  }

  async function notify(channelId: string, resourceState: 'sync' | 'exists' | 'not_exists' = 'exists'): Promise<number> {
    const ch = channels.get(channelId);
    if (!ch || ch.stopped) throw new Error(`no live channel ${channelId}`);
    const headers: Record<string, string> = {
      'X-Goog-Channel-ID': ch.id,
      'X-Goog-Resource-ID': ch.resourceId,
      'X-Goog-Resource-State': resourceState,
      'X-Goog-Resource-URI': `${fake.url}/calendar/v3/calendars/${encodeURIComponent(ch.calendarId)}/events`,
      'X-Goog-Message-Number': String(++ch.messageNumber),
      'X-Goog-Channel-Expiration': new Date(ch.expiration).toUTCString(),
    };
    if (ch.token !== undefined) headers['X-Goog-Channel-Token'] = ch.token;
    try {
      const res = await fetch(options.pushAddress ? options.pushAddress(ch.address) : ch.address, { method: 'POST', headers });
      await res.arrayBuffer();
      return res.status;
    } catch {
      return 0; // Google drops notifications it cannot deliver.
    }
  }

  state.onChange = (cal) => {
    if (!options.autoNotify) return;
    for (const ch of channels.values()) if (!ch.stopped && ch.calendarId === cal) void notify(ch.id, 'exists');
  };

  const send = (res: ServerResponse, status: number, body: unknown) => {
    if (res.destroyed) return;
    if (body === undefined) {
      res.writeHead(status).end();
    } else {
      res.writeHead(status, { 'Content-Type': 'application/json; charset=UTF-8' }).end(JSON.stringify(body));
    }
  };
  const googleError = (status: number, reason: string, message: string, domain = 'global') => ({
    error: { code: status, message, errors: [{ domain, reason, message }] },
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', fake.url);
    const method = req.method ?? 'GET';
    const entry: LoggedRequest = { method, path: url.pathname, kind: 'other', status: 0 };
    log.push(entry);
    const finish = (status: number, body: unknown) => {
      entry.status = status;
      send(res, status, body);
    };

    if (url.pathname === '/token' && method === 'POST') {
      entry.kind = 'token';
      const [status, body] = handleToken(new URLSearchParams(raw));
      return finish(status, body);
    }
    if (!url.pathname.startsWith('/calendar/v3/')) return finish(404, googleError(404, 'notFound', 'Not Found'));
    const segments = url.pathname.slice('/calendar/v3/'.length).split('/').map(decodeURIComponent);
    const { kind, cal, id } = classify(method, segments);
    Object.assign(entry, { kind, calendarId: cal, eventId: id });
    const ifMatch = req.headers['if-match'];
    if (typeof ifMatch === 'string') entry.ifMatch = ifMatch;

    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const expires = bearer ? accessTokens.get(bearer) : undefined;
    if (expires === undefined || expires < Date.now()) {
      return finish(401, googleError(401, 'authError', 'Request had invalid authentication credentials.'));
    }

    const fault = nextFault(kind);
    const isWrite = kind === 'insert' || kind === 'update' || kind === 'patch' || kind === 'delete';
    let result: [number, unknown] | undefined;
    if (!fault || (faults?.after && isWrite)) {
      let body: Record<string, unknown> = {};
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      } catch {
        return finish(400, googleError(400, 'parseError', 'Parse Error'));
      }
      try {
        result = apply(kind, cal, id, url, body, entry.ifMatch);
      } catch (e) {
        if (!(e instanceof FakeApiError)) throw e;
        result = [e.status, googleError(e.status, e.reason, e.message, e.domain)];
      }
    }
    if (fault) {
      entry.fault = fault;
      if (fault === 'network') {
        entry.status = 0;
        req.socket.destroy();
        return;
      }
      const [status, reason, domain, message] = FAULTS[fault];
      return finish(status, googleError(status, reason, message, domain));
    }
    const [status, body] = result!;
    const hold = holds.find((h) => !h.held && (!h.match.kind || h.match.kind === kind) && (!h.match.method || h.match.method === method));
    if (hold) {
      entry.status = status;
      await new Promise<void>((resolve) => {
        hold.held = resolve;
        hold.arrived(entry);
        if (hold.released) resolve();
      });
    }
    finish(status, body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => send(res, 500, googleError(500, 'backendError', String(e))));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const emptyCounts = (): Record<CallKind, number> => ({ token: 0, insert: 0, get: 0, update: 0, patch: 0, delete: 0, list: 0, watch: 0, stop: 0, other: 0 });
  const fake: FakeGoogle = {
    url: `http://127.0.0.1:${port}`,
    rootUrl: `http://127.0.0.1:${port}/`,
    tokenUrl: `http://127.0.0.1:${port}/token`,
    state,
    events: (cal, o) => state.events(cal, o),
    log,
    counts() {
      const c = emptyCounts();
      for (const r of log) c[r.kind]++;
      return c;
    },
    resetLog: () => void log.splice(0),
    setFaults: (f) => void (faults = f),
    failNext: (kind, times = 1) => void queued.push(...Array<FaultKind>(times).fill(kind)),
    holdNext(match = {}) {
      let arrived!: (r: LoggedRequest) => void;
      const promise = new Promise<LoggedRequest>((r) => (arrived = r));
      const h: (typeof holds)[number] = { match, arrived, released: false };
      holds.push(h);
      return { arrived: promise, release: () => ((h.released = true), h.held?.()) };
    },
    tokens,
    expireAccessTokens: () => accessTokens.clear(),
    revoke: () => void ((revoked = true), accessTokens.clear()),
    authorize(consentUrl) {
      const u = new URL(consentUrl);
      const redirect = u.searchParams.get('redirect_uri');
      if (!redirect) throw new Error('the consent URL has no redirect_uri');
      if (options.clientId && u.searchParams.get('client_id') !== options.clientId) throw new Error('the consent URL names another client_id');
      const code = `4/${token()}`;
      codes.set(code, redirect);
      const back = new URL(redirect);
      back.searchParams.set('code', code);
      const st = u.searchParams.get('state');
      if (st !== null) back.searchParams.set('state', st);
      return back.toString();
    },
    channels,
    notify,
    async close() {
      for (const h of holds) h.held?.();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
