/**
 * A simulator of Microsoft Graph's calendar API (v1.0) and the identity platform's token endpoint
 * on 127.0.0.1: the test double of everything that talks to Microsoft, and the demo's Outlook. It
 * imports nothing of calbridge's runtime, so it can never agree with calbridge by sharing code.
 *
 * Routes (authority and Graph root are both the origin, with a trailing slash):
 *   POST /{tenant}/oauth2/v2.0/token        client_credentials | refresh_token (rotates) | device_code
 *   POST /{tenant}/oauth2/v2.0/devicecode   starts a device code sign-in (approveDevice finishes it)
 *   GET  /{tenant}/oauth2/v2.0/authorize    the sign-in page, as the first mailbox, consented at once: 302 back with
 *                                           code and state; the token endpoint then takes grant_type authorization_code,
 *                                           checking code_verifier against an S256 code_challenge
 *   GET  /v1.0/{me|users/{id}}/calendars[/{cal}]
 *   POST .../calendars/{cal}/events         Graph picks the id; a repeated transactionId answers the same event
 *   GET  .../calendars/{cal}/events         $filter=singleValueExtendedProperties/Any(ep: ep/id eq '…' and ep/value eq '…'),
 *                                           $expand=singleValueExtendedProperties($filter=id eq '…')
 *   GET|PATCH|DELETE .../[calendars/{cal}/]events/{id}   If-Match on @odata.etag => 412 when stale
 *   GET  .../calendars/{cal}/calendarView/delta   startDateTime/endDateTime, Prefer: odata.maxpagesize,
 *                                           @odata.nextLink / @odata.deltaLink, @removed; 410 syncStateNotFound
 *                                           after invalidateDeltaTokens()
 *   POST /v1.0/subscriptions, PATCH|DELETE /v1.0/subscriptions/{id}   with the validation handshake
 * Every Graph call needs a bearer token issued here (401 otherwise); an app-only token cannot use /me
 * (400), a delegated one only its own mailbox (403). Per mailbox, a fifth request while four are in
 * flight is answered 429 (MailboxConcurrency) with Retry-After, as is any request over `perMailboxPerMinute`.
 *
 * Hooks: `mailbox(address)` (its calendars and events, `userEdit`/`userDelete` for a person in
 * Outlook), `log`/`counts()`/`writes()`/`resetLog()`, `setFaults({rate, kinds, after})` (after: true, or a share of the faults applied first),
 * `failNext(kind, n)`, `holdNext(match)` (applies a request and keeps its answer until release()),
 * `invalidateDeltaTokens()`, `subscriptions` and `lifecycle(id, event)`, `tokens` (counts,
 * `approveDevice`, `issueRefreshToken`, `revoke`, `expireAccessTokens`), `maxInFlight`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { seededRandom } from '../../core/random.ts';
import { DeltaTokens } from './delta.ts';
import { FAULT_ANSWERS, FaultPlan, type FaultKind, type FaultRate } from './faults.ts';
import { answerMailboxCall, classifyMailboxCall, WRITES, type CallKind } from './graph-calls.ts';
import { GraphApiError, Mailbox } from './mailboxes.ts';
import { Subscriptions, type LifecycleEvent } from './subscriptions.ts';
import { TokenEndpoint, type Identity, type TokenOptions } from './token-endpoint.ts';

export { Mailbox, type SimulatedEvent } from './mailboxes.ts';
export type { CallKind, FaultKind, LifecycleEvent };

export interface LoggedRequest {
  method: string;
  path: string;
  kind: CallKind;
  /** The mailbox's address, for mailbox calls. */
  mailbox?: string;
  ifMatch?: string;
  status: number;
  fault?: FaultKind;
  /** Refused by the per-mailbox limits (concurrency or rate). */
  throttled?: 'concurrency' | 'rate';
  /** A write that reached the state (even when its answer was then a fault: the client never heard). */
  applied?: boolean;
}

export interface GraphSimulatorOptions extends TokenOptions {
  port?: number;
  /** The mailboxes that exist (addresses); the first is the delegated user's. Default one. */
  mailboxes?: string[];
  tenantId?: string;
  seed?: number;
  /** Milliseconds each Graph call takes (so concurrency can be seen). */
  latencyMs?: number;
  /** Per-mailbox requests in any rolling minute; past it 429. Unset: none. */
  perMailboxPerMinute?: number;
  /** The Retry-After of a 429 or 503, in seconds (Graph sends whole seconds). */
  retryAfterSeconds?: number;
  /** Maps a notification (https) address to where it is really delivered. */
  pushAddress?: (url: string) => string;
}

export interface Hold {
  arrived: Promise<LoggedRequest>;
  release(): void;
}

export interface GraphSimulator {
  url: string;
  /** microsoft.authority_url and microsoft.graph_root: the origin with a trailing slash. */
  authorityUrl: string;
  graphRoot: string;
  mailbox(address?: string): Mailbox;
  log: LoggedRequest[];
  counts(): Record<CallKind, number>;
  /** Requests that change an event (create, patch, delete) that reached the state. */
  writes(): number;
  resetLog(): void;
  setFaults(f: FaultRate | null): void;
  failNext(kind: FaultKind, times?: number): void;
  holdNext(match?: { kind?: CallKind }): Hold;
  invalidateDeltaTokens(): void;
  subscriptions: Subscriptions;
  lifecycle(subscriptionId: string, event: LifecycleEvent): Promise<number>;
  tokens: TokenEndpoint;
  /** The most requests one mailbox ever had in flight at once. */
  maxInFlight(address?: string): number;
  close(): Promise<void>;
}

const graphError = (code: string, message: string) => ({
  error: { code, message, innerError: { date: new Date().toISOString(), 'request-id': crypto.randomUUID() } },
});

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  if (body === undefined) res.writeHead(status, headers).end();
  else
    res
      .writeHead(status, { 'content-type': 'application/json; odata.metadata=minimal; charset=utf-8', ...headers })
      .end(JSON.stringify(body));
}

const CONCURRENCY = 4;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startGraphSimulator(options: GraphSimulatorOptions = {}): Promise<GraphSimulator> {
  const tenantId = options.tenantId ?? '72f988bf-86f1-41af-91ab-2d7cd011db47';
  const boxes = (options.mailboxes ?? ['ana@clinic.example']).map((address) => new Mailbox(crypto.randomUUID(), address));
  const tokens = new TokenEndpoint(options, () => boxes[0]!.address);
  const delta = new DeltaTokens();
  const faults = new FaultPlan(seededRandom(options.seed ?? 35));
  const subscriptions = new Subscriptions(tenantId, options.pushAddress ?? ((u) => u));
  const log: LoggedRequest[] = [];
  const holds: { match: { kind?: CallKind }; arrived: (r: LoggedRequest) => void; held?: () => void; released: boolean }[] = [];
  const inFlight = new Map<Mailbox, number>();
  const maxInFlight = new Map<Mailbox, number>();
  const recent = new Map<Mailbox, number[]>();
  const sockets = new Set<Socket>();
  const notifying = new Set<Promise<void>>();
  let origin = '';
  let writes = 0;

  for (const box of boxes) {
    box.onChange = (calendarId, eventId, kind) => {
      const p = subscriptions.changed(box.address, calendarId, eventId, kind, Date.now()).finally(() => notifying.delete(p));
      notifying.add(p);
    };
  }

  const find = (user: string): Mailbox | undefined => boxes.find((b) => b.id === user || b.address.toLowerCase() === user.toLowerCase());

  /** The mailbox a call names, for this identity. */
  function mailboxFor(user: string, who: Identity): Mailbox {
    if (user === 'me') {
      if (who.kind === 'app') throw new GraphApiError(400, 'BadRequest', '/me request is only valid with delegated authentication flow.');
      return find(who.mailbox)!;
    }
    const box = find(decodeURIComponent(user));
    if (!box) throw new GraphApiError(404, 'ErrorInvalidUser', `The requested user '${user}' is invalid.`);
    if (who.kind === 'user' && box.address !== who.mailbox)
      throw new GraphApiError(403, 'ErrorAccessDenied', 'Access is denied. Check credentials and try again.');
    return box;
  }

  /** `/users/{id}/calendars/{cal}/events` or `me/calendars/{cal}/events`: the mailbox and calendar it names. */
  const resourceOf = (who: Identity) => (resource: string) => {
    const m = /^\/?(me|users\/([^/]+))\/calendars\/([^/]+)\/events$/i.exec(resource);
    if (!m) throw new GraphApiError(400, 'InvalidRequest', `Resource not supported: ${resource}`);
    const box = mailboxFor(m[2] ?? 'me', who);
    return { mailbox: box.address, calendarId: box.calendar(decodeURIComponent(m[3]!)).id };
  };

  function throttled(box: Mailbox, now: number): 'concurrency' | 'rate' | undefined {
    if ((inFlight.get(box) ?? 0) >= CONCURRENCY) return 'concurrency';
    if (!options.perMailboxPerMinute) return undefined;
    const times = (recent.get(box) ?? []).filter((t) => t > now - 60_000);
    recent.set(box, times);
    if (times.length >= options.perMailboxPerMinute) return 'rate';
    times.push(now);
    return undefined;
  }

  async function held(entry: LoggedRequest): Promise<void> {
    const hold = holds.find((h) => !h.held && (!h.match.kind || h.match.kind === entry.kind));
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
    const finish = (status: number, body: unknown, headers?: Record<string, string>) => {
      entry.status = status;
      send(res, status, body, headers);
    };
    const segments = url.pathname.split('/').filter(Boolean);

    const oauth = /^\/([^/]+)\/oauth2\/v2\.0\/(token|devicecode)$/.exec(url.pathname);
    if (oauth && method === 'POST') {
      entry.kind = oauth[2] === 'token' ? 'token' : 'devicecode';
      const form = new URLSearchParams(raw);
      const [status, body] = oauth[2] === 'token' ? tokens.answer(decodeURIComponent(oauth[1]!), form) : tokens.deviceCode(form, origin);
      return finish(status, body);
    }
    const authorize = /^\/([^/]+)\/oauth2\/v2\.0\/authorize$/.exec(url.pathname);
    if (authorize && method === 'GET') {
      entry.kind = 'authorize';
      try {
        const back = tokens.authorize(url.searchParams);
        entry.status = 302;
        res.writeHead(302, { location: back }).end();
      } catch (e) {
        entry.status = 400;
        res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end((e as Error).message);
      }
      return;
    }
    if (segments[0] !== 'v1.0') return finish(404, graphError('BadRequest', `Resource not found for the segment '${segments[0] ?? ''}'.`));
    const who = tokens.identity(req.headers.authorization);
    if (!who) return finish(401, graphError('InvalidAuthenticationToken', 'Access token has expired or is not yet valid.'));
    let body: Record<string, unknown> = {};
    try {
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      return finish(400, graphError('BadRequest', 'Unable to read JSON request payload.'));
    }
    const now = Date.now();

    try {
      if (segments[1] === 'subscriptions') {
        const id = segments[2];
        if (!id && method === 'POST') {
          entry.kind = 'subscribe';
          return finish(201, subscriptions.json(await subscriptions.create(body, resourceOf(who), now)));
        }
        if (id && method === 'PATCH') {
          entry.kind = 'renew';
          return finish(200, subscriptions.json(subscriptions.renew(id, body, now)));
        }
        if (id && method === 'DELETE') {
          entry.kind = 'unsubscribe';
          subscriptions.remove(id, now);
          return finish(204, undefined);
        }
        if (id && method === 'GET') return finish(200, subscriptions.json(subscriptions.get(id, now)));
        return finish(405, graphError('BadRequest', 'Unsupported method.'));
      }
      const call = classifyMailboxCall(method, segments.slice(1));
      if (!call) return finish(400, graphError('BadRequest', `Resource not found for the segment '${segments[1] ?? ''}'.`));
      entry.kind = call.kind;
      const box = mailboxFor(call.user, who);
      entry.mailbox = box.address;
      const ifMatch = req.headers['if-match'];
      if (typeof ifMatch === 'string') entry.ifMatch = ifMatch;

      const limit = throttled(box, now);
      const retryAfter = { 'retry-after': String(options.retryAfterSeconds ?? 1) };
      if (limit) {
        entry.throttled = limit;
        return finish(
          429,
          graphError(
            'ApplicationThrottled',
            limit === 'concurrency'
              ? 'Application is over its MailboxConcurrency limit.'
              : 'Application is over its MailboxRequests limit.',
          ),
          retryAfter,
        );
      }
      inFlight.set(box, (inFlight.get(box) ?? 0) + 1);
      maxInFlight.set(box, Math.max(maxInFlight.get(box) ?? 0, inFlight.get(box)!));
      try {
        if (options.latencyMs) await sleep(options.latencyMs);
        const fault = faults.next();
        const isWrite = WRITES.includes(call.kind);
        let result: [number, unknown] | undefined;
        let failure: GraphApiError | undefined;
        if (!fault || (isWrite && faults.appliesFirst())) {
          try {
            result = answerMailboxCall({
              box,
              call,
              url,
              body,
              ifMatch: entry.ifMatch,
              prefer: [req.headers.prefer ?? []].flat().join(', '),
              delta,
            });
            if (isWrite) {
              writes++;
              entry.applied = true;
            }
          } catch (e) {
            if (!(e instanceof GraphApiError)) throw e;
            failure = e;
          }
        }
        if (fault) {
          entry.fault = fault;
          if (fault === 'network') {
            req.socket.destroy();
            return;
          }
          const [status, code, message] = FAULT_ANSWERS[fault];
          return finish(status, graphError(code, message), status === 429 || status === 503 ? retryAfter : {});
        }
        if (failure) throw failure;
        entry.status = result![0];
        await held(entry);
        return finish(result![0], result![1]);
      } finally {
        inFlight.set(box, inFlight.get(box)! - 1);
      }
    } catch (e) {
      if (!(e instanceof GraphApiError)) throw e;
      return finish(e.status, graphError(e.code, e.message));
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => send(res, 500, graphError('ErrorInternalServerError', String(e))));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const mailbox = (address?: string) => {
    const box = address === undefined ? boxes[0] : find(address);
    if (!box) throw new Error(`no mailbox ${address}`);
    return box;
  };
  const kinds: CallKind[] = [
    'token',
    'devicecode',
    'authorize',
    'calendars',
    'create',
    'get',
    'list',
    'patch',
    'delete',
    'delta',
    'subscribe',
    'renew',
    'unsubscribe',
    'other',
  ];
  return {
    url: origin,
    authorityUrl: `${origin}/`,
    graphRoot: `${origin}/`,
    mailbox,
    log,
    counts() {
      const c = Object.fromEntries(kinds.map((k) => [k, 0])) as Record<CallKind, number>;
      for (const r of log) c[r.kind]++;
      return c;
    },
    writes: () => writes,
    resetLog: () => {
      log.splice(0);
      writes = 0;
      maxInFlight.clear();
    },
    setFaults: (f) => void (faults.rate = f),
    failNext: (kind, times = 1) => faults.failNext(kind, times),
    holdNext(match = {}) {
      let arrived!: (r: LoggedRequest) => void;
      const promise = new Promise<LoggedRequest>((r) => (arrived = r));
      const h: (typeof holds)[number] = { match, arrived, released: false };
      holds.push(h);
      const release = () => {
        h.released = true;
        h.held?.();
      };
      return { arrived: promise, release };
    },
    invalidateDeltaTokens: () => delta.invalidate(),
    subscriptions,
    lifecycle: (id, event) => subscriptions.lifecycle(id, event),
    tokens,
    maxInFlight: (address) => maxInFlight.get(mailbox(address)) ?? 0,
    async close() {
      for (const h of holds) h.held?.();
      await Promise.allSettled([...notifying]);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
