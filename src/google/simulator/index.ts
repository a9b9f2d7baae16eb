/**
 * A simulator of Google Calendar API v3 (plus the OAuth token endpoint) on 127.0.0.1, beside the
 * booking simulator: the demo's Google and the test double of everything that talks to Google,
 * driven by the real googleapis client (`api_root: sim.rootUrl`, `token_url: sim.tokenUrl`).
 * It imports nothing of calbridge's runtime, so it can never agree with calbridge by sharing code.
 *
 * Routes (served at the root, as Google does):
 *   POST /token                                  grant_type refresh_token | authorization_code (with PKCE when the consent
 *                                                had a code_challenge: S256 of code_verifier) | jwt-bearer
 *   GET  /o/oauth2/v2/auth                       the consent page, consented at once: 302 to redirect_uri with code and state;
 *                                                with `consentPage`, a page whose button posts the request back (POST, then the 302)
 *   GET  /calendar/v3/users/me/calendarList      the calendars this identity sees, with accessRole (minAccessRole filters)
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
 * `expireAccessTokens()` makes the issued ones fail, `revoke()` makes the refresh tokens given so far answer invalid_grant (a new consent's work).
 * Calendars spring into existence on first use, unless `calendars` names the ones this identity can see:
 * then any other answers 404 notFound (as Google does for a calendar not shared with the caller), and one
 * shared read-only answers writes with 403 requiredAccessLevel. Errors have Google's body {error:{code,message,errors:[{reason}]}}.
 *
 * Hooks for tests and the demo: `state` (CalendarState: events(), userEdit(), userDelete(), invalidateSyncTokens(),
 * refuseRevival), `log` / `counts()` / `resetLog()`, `setFaults({rate, kinds, after})` (random faults on
 * calendar calls: 429, '403rate', '403userRate', 'quota', 500, 503, 'network'; `after: true` applies a
 * write before failing its answer), `failNext(kind, n)`, `holdNext(match)` (applies the request but keeps
 * its response until release(): the SIGKILL test), `authorize(consentUrl)` (what the user's browser would
 * do: returns the redirect URL with a code), `issueRefreshToken()` (a finished consent, for the demo),
 * `notify(channelId, state)` (delivers a push notification to the channel's address, through
 * `pushAddress` to reach a local port), `autoNotify`, `setQuota(perMinute)` (Google's per-user rolling
 * window: past it a calendar call is answered 403 rateLimitExceeded and logged with `limited`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { CalendarApiError, CalendarState, type SimulatedEvent } from './calendar-state.ts';
import { answerCall, classify, isWrite, type CallKind } from './calendar-calls.ts';
import { FAULT_ANSWERS, FaultPlan, type FaultKind, type FaultRate } from './faults.ts';
import { TokenEndpoint, type OAuthOptions, type TokenCounts } from './oauth.ts';
import { Channels, type Channel, type ResourceState } from './push.ts';
import { RollingQuota } from './quota.ts';
import { consentPage, type ConsentWords } from './consent-page.ts';
import { seededRandom } from '../../core/random.ts';

export { CalendarState, type SimulatedEvent } from './calendar-state.ts';
export type { CallKind, Channel, ConsentWords, FaultKind };

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
  /** Refused for exceeding the per-minute quota (setQuota). */
  limited?: true;
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

export interface GoogleSimulatorOptions extends OAuthOptions {
  port?: number;
  refuseRevival?: boolean;
  /** Seed of the fault generator, for repeatable runs. */
  seed?: number;
  /** Maps a channel's (https) address to where notifications really go (a local port). */
  pushAddress?: (address: string) => string;
  /** Deliver an 'exists' notification to every live channel of a calendar after each change. */
  autoNotify?: boolean;
  /** The calendars the caller can see, with its access; unset: every calendar, as owner. */
  calendars?: Record<string, 'owner' | 'writer' | 'reader'>;
  /** Calendar names (summary) for calendarList; unset: the id. */
  calendarNames?: Record<string, string>;
  /** Calendar calls allowed in any rolling minute (setQuota); unset: no limit. */
  quotaPerMinute?: number;
  /** The consent page waits for a click on its button (these are its words); unset: it consents at once. */
  consentPage?: ConsentWords;
}

export interface GoogleSimulator {
  url: string;
  /** For google.calendar({rootUrl}) and google.api_root: the origin with a trailing slash. */
  rootUrl: string;
  tokenUrl: string;
  /** The consent page (connect.google_auth_url): it consents at once and redirects back with a code. */
  authUrl: string;
  state: CalendarState;
  events(calendarId: string, options?: { includeDeleted?: boolean }): SimulatedEvent[];
  log: LoggedRequest[];
  counts(): Record<CallKind, number>;
  resetLog(): void;
  setFaults(f: FaultRate | null): void;
  failNext(kind: FaultKind, times?: number): void;
  /** Enforces a rolling per-minute quota on calendar calls from now on (null: none). */
  setQuota(perMinute: number | null): void;
  holdNext(match?: HoldMatch): Hold;
  tokens: TokenCounts;
  expireAccessTokens(): void;
  revoke(): void;
  authorize(consentUrl: string): string;
  issueRefreshToken(): string;
  channels: Map<string, Channel>;
  notify(channelId: string, state?: ResourceState): Promise<number>;
  close(): Promise<void>;
}

interface PendingHold {
  match: HoldMatch;
  arrived: (r: LoggedRequest) => void;
  held?: () => void;
  released: boolean;
}

const googleError = (status: number, reason: string, message: string, domain = 'global') => ({
  error: { code: status, message, errors: [{ domain, reason, message }] },
});

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed) return;
  if (body === undefined) res.writeHead(status).end();
  else res.writeHead(status, { 'Content-Type': 'application/json; charset=UTF-8' }).end(JSON.stringify(body));
}

export async function startGoogleSimulator(options: GoogleSimulatorOptions = {}): Promise<GoogleSimulator> {
  const state = new CalendarState();
  state.refuseRevival = options.refuseRevival ?? false;
  const oauth = new TokenEndpoint(options);
  const faults = new FaultPlan(seededRandom(options.seed ?? 42));
  let quota = options.quotaPerMinute ? new RollingQuota(options.quotaPerMinute) : null;
  const log: LoggedRequest[] = [];
  const holds: PendingHold[] = [];
  const sockets = new Set<Socket>();
  let origin = '';
  const channels = new Channels(() => origin, options.pushAddress);
  state.onChange = (cal) => {
    if (options.autoNotify) channels.changed(cal);
  };

  /** Keeps a matching answer back until the test releases it. */
  async function held(entry: LoggedRequest, method: string): Promise<void> {
    const hold = holds.find(
      (h) => !h.held && (!h.match.kind || h.match.kind === entry.kind) && (!h.match.method || h.match.method === method),
    );
    if (!hold) return;
    await new Promise<void>((resolve) => {
      hold.held = resolve;
      hold.arrived(entry);
      if (hold.released) resolve();
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', origin);
    const method = req.method ?? 'GET';
    const entry: LoggedRequest = { method, path: url.pathname, kind: 'other', status: 0 };
    log.push(entry);
    const finish = (status: number, body: unknown) => {
      entry.status = status;
      send(res, status, body);
    };

    if (url.pathname === '/token' && method === 'POST') {
      entry.kind = 'token';
      const [status, body] = oauth.answer(new URLSearchParams(raw));
      return finish(status, body);
    }
    const consenting = url.pathname === '/o/oauth2/v2/auth' && (method === 'GET' || (method === 'POST' && options.consentPage));
    if (consenting) {
      entry.kind = 'consent';
      // The request a click posted back is the one the page was opened with.
      const asked = method === 'POST' ? new URL(`${url.pathname}?${new URLSearchParams(raw)}`, origin) : url;
      let back: string;
      try {
        if (asked.searchParams.get('response_type') !== 'code') throw new Error('response_type must be code');
        if (method === 'GET' && options.consentPage) {
          oauth.check(asked.href);
          entry.status = 200;
          res
            .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' })
            .end(consentPage(asked, options.consentPage));
          return;
        }
        back = oauth.authorize(asked.href);
      } catch (e) {
        entry.status = 400;
        res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`Error 400: ${(e as Error).message}`);
        return;
      }
      entry.status = 302;
      res.writeHead(302, { Location: back }).end();
      return;
    }
    if (!url.pathname.startsWith('/calendar/v3/')) return finish(404, googleError(404, 'notFound', 'Not Found'));
    const call = classify(method, url.pathname.slice('/calendar/v3/'.length).split('/').map(decodeURIComponent));
    Object.assign(entry, { kind: call.kind, calendarId: call.calendarId, eventId: call.eventId });
    const ifMatch = req.headers['if-match'];
    if (typeof ifMatch === 'string') entry.ifMatch = ifMatch;

    if (!oauth.allows(req.headers.authorization))
      return finish(401, googleError(401, 'authError', 'Request had invalid authentication credentials.'));
    if (call.kind === 'calendarList') return finish(200, calendarList(url.searchParams.get('minAccessRole')));
    const access = call.calendarId === undefined || !options.calendars ? 'owner' : options.calendars[call.calendarId];
    if (!access) return finish(404, googleError(404, 'notFound', 'Not Found'));
    if (access === 'reader' && isWrite(call.kind))
      return finish(403, googleError(403, 'requiredAccessLevel', 'You need to have writer access to this calendar.'));

    if (quota && call.kind !== 'other' && !quota.admit(Date.now())) {
      entry.limited = true;
      return finish(403, googleError(403, 'rateLimitExceeded', 'Rate Limit Exceeded', 'usageLimits'));
    }
    const fault = call.kind === 'other' ? undefined : faults.next();
    let result: [number, unknown] | undefined;
    if (!fault || (faults.appliesFirst && isWrite(call.kind))) {
      let body: Record<string, unknown> = {};
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      } catch {
        return finish(400, googleError(400, 'parseError', 'Parse Error'));
      }
      try {
        result = answerCall(state, channels, call, url, body, entry.ifMatch);
      } catch (e) {
        if (!(e instanceof CalendarApiError)) throw e;
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
      const [status, reason, domain, message] = FAULT_ANSWERS[fault];
      return finish(status, googleError(status, reason, message, domain));
    }
    const [status, body] = result!;
    entry.status = status;
    await held(entry, method);
    finish(status, body);
  }

  /** What calendarList answers: the calendars of `options.calendars`, else every one seen so far and primary, as owner. */
  function calendarList(minRole: string | null) {
    const rank = { freeBusyReader: 0, reader: 1, writer: 2, owner: 3 } as const;
    const seen = options.calendars ?? Object.fromEntries(['primary', ...state.calendarIds()].map((id) => [id, 'owner' as const]));
    const min = rank[(minRole ?? 'freeBusyReader') as keyof typeof rank] ?? 0;
    const items = Object.entries(seen)
      .filter(([, role]) => rank[role] >= min)
      .map(([id, accessRole]) => ({
        kind: 'calendar#calendarListEntry',
        id,
        summary: options.calendarNames?.[id] ?? id,
        accessRole,
        ...(id === 'primary' ? { primary: true } : {}),
      }));
    return { kind: 'calendar#calendarList', items };
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => send(res, 500, googleError(500, 'backendError', String(e))));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const emptyCounts = (): Record<CallKind, number> => ({
    token: 0,
    consent: 0,
    calendarList: 0,
    insert: 0,
    get: 0,
    update: 0,
    patch: 0,
    delete: 0,
    list: 0,
    watch: 0,
    stop: 0,
    other: 0,
  });
  return {
    url: origin,
    rootUrl: `${origin}/`,
    tokenUrl: `${origin}/token`,
    authUrl: `${origin}/o/oauth2/v2/auth`,
    state,
    events: (cal, o) => state.events(cal, o),
    log,
    counts() {
      const c = emptyCounts();
      for (const r of log) c[r.kind]++;
      return c;
    },
    resetLog: () => void log.splice(0),
    setFaults: (f) => void (faults.rate = f),
    failNext: (kind, times = 1) => faults.failNext(kind, times),
    setQuota: (perMinute) => void (quota = perMinute ? new RollingQuota(perMinute) : null),
    holdNext(match = {}) {
      let arrived!: (r: LoggedRequest) => void;
      const promise = new Promise<LoggedRequest>((r) => (arrived = r));
      const h: PendingHold = { match, arrived, released: false };
      holds.push(h);
      const release = () => {
        h.released = true;
        h.held?.();
      };
      return { arrived: promise, release };
    },
    tokens: oauth.tokens,
    expireAccessTokens: () => oauth.expireAccessTokens(),
    revoke: () => oauth.revoke(),
    authorize: (consentUrl) => oauth.authorize(consentUrl),
    issueRefreshToken: () => oauth.issueRefreshToken(),
    channels: channels.all,
    notify: (id, s) => channels.notify(id, s),
    async close() {
      for (const h of holds) h.held?.();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
