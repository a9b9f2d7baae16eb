// One Graph request: the bearer token, the mailbox's own lane (a pacer of
// `microsoft.requests_per_minute`, at most 4 requests in flight, as Graph allows per mailbox), a
// deadline, and net/'s one retry loop (withRetries: 429, 503, 5xx and network failures, Retry-After
// as the floor of the wait and as a pause of that mailbox only). Sent through net/'s outbound client
// bound to graph_root's origin: the token goes nowhere else, and a link Graph gives on another origin
// is refused (docs/reference/behaviour.md, "Outbound requests").
import type { Clock } from '../core/clock.ts';
import { OffOriginError } from '../net/origin.ts';
import { Outbound, type OutboundAnswer } from '../net/outbound.ts';
import { Pacer, type Sleep } from '../net/pacer.ts';
import type { RetryPolicy } from '../net/retry-policy.ts';
import { withRetries, type Verdict } from '../net/retry.ts';
import type { httpRequest } from '../net/http-request.ts';
import { errorFromAnswer, errorFromFailure, GraphError, isRetryable } from './errors.ts';

/** Graph's limit of concurrent requests per mailbox (per app); a fifth is answered 429. */
const MAILBOX_CONCURRENCY = 4;
/** An answer larger than this is not what was asked (a delta page holds at most a few hundred events). */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

export interface AccessTokens {
  token(): Promise<string>;
  /** Graph refused the token (401): forget it, so the next call gets a new one. */
  invalidate(): void;
}

/** What a request is for: the `op` label of calbridge_microsoft_calls_total (docs/reference/http.md, "Metrics"). */
export type GraphOp = 'calendars' | 'find' | 'create' | 'update' | 'get' | 'delete' | 'delta' | 'subscribe' | 'renew' | 'unsubscribe';

export interface GraphRequest {
  op: GraphOp;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** A path under graph_root ("v1.0/me/events/…") or a whole link Graph gave (nextLink, deltaLink). */
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Statuses that are answers for the caller rather than errors (412 on If-Match, 404 on a read). */
  accept?: readonly number[];
}

export interface GraphAnswer {
  status: number;
  json: Record<string, unknown>;
}

export interface GraphHttpOptions {
  graphRoot: string;
  tokens: AccessTokens;
  requestsPerMinute: number;
  clock: Clock;
  sleep: Sleep;
  policy: RetryPolicy;
  timeoutMs: number;
  request?: typeof httpRequest;
  random?: () => number;
  /** Every answer or failure, for metrics: the mailbox, what the request was for, the outcome ('ok' or the error's kind). */
  onCall?: (mailbox: string, op: GraphOp, outcome: string) => void;
}

/** One mailbox's share of Graph: its pacer and its four slots. */
class Lane {
  readonly pacer: Pacer;
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  peak = 0;

  constructor(rpm: number, clock: Clock, sleep: Sleep) {
    this.pacer = new Pacer(rpm, clock, sleep);
  }

  async run<T>(f: () => Promise<T>): Promise<T> {
    if (this.active >= MAILBOX_CONCURRENCY) await new Promise<void>((r) => this.waiting.push(r));
    this.active++;
    this.peak = Math.max(this.peak, this.active);
    try {
      return await f();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

export class GraphHttp {
  private readonly lanes = new Map<string, Lane>();
  private readonly out: Outbound;

  constructor(private readonly o: GraphHttpOptions) {
    this.out = new Outbound({
      origin: new URL(o.graphRoot),
      setting: 'microsoft.graph_root',
      ...(o.request ? { transport: o.request } : {}),
    });
  }

  private lane(mailbox: string): Lane {
    const key = mailbox.toLowerCase();
    let lane = this.lanes.get(key);
    if (!lane) this.lanes.set(key, (lane = new Lane(this.o.requestsPerMinute, this.o.clock, this.o.sleep)));
    return lane;
  }

  /** The most requests this mailbox ever had in flight (status, tests). */
  peakInFlight(mailbox: string): number {
    return this.lanes.get(mailbox.toLowerCase())?.peak ?? 0;
  }

  /** When this mailbox may be asked again (epoch ms; 0 when not paused). */
  pausedUntil(mailbox: string): number {
    return this.lanes.get(mailbox.toLowerCase())?.pacer.pausedUntilMs ?? 0;
  }

  async request(mailbox: string, req: GraphRequest): Promise<GraphAnswer> {
    const url = new URL(req.path, this.o.graphRoot);
    const what = `${req.method} ${url.pathname}`;
    const lane = this.lane(mailbox);
    let refreshed = false;
    const attempt = async (): Promise<GraphAnswer> => {
      const answer = await lane.run(() => this.send(url, req, what));
      if ((answer.status >= 200 && answer.status < 300) || req.accept?.includes(answer.status)) {
        this.o.onCall?.(mailbox, req.op, 'ok');
        return { status: answer.status, json: parse(what, answer) };
      }
      throw errorFromAnswer(what, answer, this.o.clock.now());
    };
    const judge = (e: unknown): Verdict => {
      const err = e instanceof OffOriginError ? new GraphError('invalid', e.message) : errorFromFailure(what, e);
      this.o.onCall?.(mailbox, req.op, err.kind);
      // An access token that expired early (or was revoked) gets one more try with a new one.
      if (err.status === 401 && !refreshed) {
        refreshed = true;
        this.o.tokens.invalidate();
        return { error: err, retry: true, again: true };
      }
      return {
        error: err,
        retry: isRetryable(err),
        rateLimited: err.kind === 'rate_limited',
        ...(err.retryAfterMs !== undefined ? { waitMs: err.retryAfterMs } : {}),
        reason: err.message,
      };
    };
    return withRetries(attempt, judge, {
      policy: this.o.policy,
      sleep: this.o.sleep,
      now: () => this.o.clock.now(),
      pacer: lane.pacer,
      ...(this.o.random ? { random: this.o.random } : {}),
    });
  }

  private async send(url: URL, req: GraphRequest, what: string): Promise<OutboundAnswer> {
    const token = await this.o.tokens.token();
    const headers: Record<string, string> = {
      ...req.headers,
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      'user-agent': 'calbridge',
    };
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    return this.out.send(
      url,
      {
        method: req.method,
        headers,
        ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}),
        timeoutMs: this.o.timeoutMs,
        maxBodyBytes: MAX_ANSWER_BYTES,
      },
      what,
    );
  }
}

function parse(what: string, answer: OutboundAnswer): Record<string, unknown> {
  if (answer.text === null)
    throw new GraphError('invalid', `${what}: the answer is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB`, answer.status);
  if (answer.text === '' || answer.status === 204) return {};
  try {
    const v = JSON.parse(answer.text) as unknown;
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new GraphError(
    'invalid',
    `${what}: Microsoft Graph answered ${answer.status} with a body that is not a JSON object`,
    answer.status,
  );
}
