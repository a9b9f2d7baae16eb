// One WebDAV request: Basic auth, sent through the outbound client (net/outbound.ts: caldav.url's
// origin only, redirects within it) and its one retry loop (net/retry.ts: the shared pacer, backoff,
// Retry-After as its floor); this file says which failures are worth another try. A conditional PUT or DELETE is safe to repeat: if the first attempt was
// applied and only its answer was lost, the repeat meets a 412 (or a 404), and the caller reads the
// object and finds its own body there.
import type { RetryPolicy } from '../net/retry-policy.ts';
import type { Pacer, Sleep } from '../net/pacer.ts';
import type { Clock } from '../core/clock.ts';
import type { httpRequest } from '../net/http-request.ts';
import { Outbound, TooManyRedirectsError } from '../net/outbound.ts';
import { OffOriginError } from '../net/origin.ts';
import { insideNetworkCause } from '../net/address-guard.ts';
import { withRetries, type Verdict } from '../net/retry.ts';
import { CalDavError, errorFromAnswer, errorFromFailure, isRetryable, type CalDavErrorKind } from './errors.ts';

export type DavMethod = 'PROPFIND' | 'REPORT' | 'GET' | 'PUT' | 'DELETE';

export interface DavRequest {
  method: DavMethod;
  url: URL;
  headers?: Record<string, string>;
  body?: string;
  /** Statuses that are answers for the caller rather than errors (412 on a conditional PUT, 404 on GET). */
  accept?: readonly number[];
}

export interface DavAnswer {
  status: number;
  /** A response header (lower-case name). */
  header(name: string): string | undefined;
  body: string;
  /** Where the answer came from, after redirects: relative hrefs resolve against it. */
  url: URL;
}

export interface DavHttpOptions {
  /** caldav.url: the only origin the password is sent to. */
  origin: URL;
  username: string;
  password: string;
  pacer: Pacer;
  clock: Clock;
  sleep: Sleep;
  policy: RetryPolicy;
  timeoutMs: number;
  /** The transport (tests put a fake here); node:http by default, as the booking client's. */
  request?: typeof httpRequest;
  random?: () => number;
  /** Every HTTP answer or failure, for metrics. */
  onCall?: (method: DavMethod, outcome: 'ok' | CalDavErrorKind) => void;
}

const MAX_REDIRECTS = 3;

/**
 * A REPORT or PROPFIND over a large calendar answers with every object's ETag or data: tens of
 * megabytes at most for a calendar of 100,000 events. Past this, the server is not answering what
 * was asked.
 */
export const MAX_ANSWER_BYTES = 256 * 1024 * 1024;

export class DavHttp {
  private readonly authorization: string;
  private readonly out: Outbound;

  constructor(private readonly o: DavHttpOptions) {
    this.authorization = `Basic ${Buffer.from(`${o.username}:${o.password}`, 'utf8').toString('base64')}`;
    // The password goes to caldav.url's origin only: a redirect elsewhere (another host, another port,
    // https down to http) or a DAV href elsewhere is an error naming the address (net/origin.ts).
    this.out = new Outbound({ origin: o.origin, setting: 'caldav.url', maxRedirects: MAX_REDIRECTS, transport: o.request });
  }

  /** An absolute URL taken from an answer (a DAV href), held to the same origin rule; throws CalDavError. */
  linked(url: URL, what: string): URL {
    try {
      return this.out.linked(url, what);
    } catch (e) {
      throw e instanceof OffOriginError ? new CalDavError('invalid', e.message) : e;
    }
  }

  async request(req: DavRequest): Promise<DavAnswer> {
    const what = `${req.method} ${req.url.pathname}`;
    const attempt = async (): Promise<DavAnswer> => {
      const answer = await this.send(req, what);
      if ((answer.status >= 200 && answer.status < 300) || req.accept?.includes(answer.status)) {
        this.o.onCall?.(req.method, 'ok');
        return answer;
      }
      throw errorFromAnswer(what, answer, this.o.clock.now());
    };
    const judge = (e: unknown): Verdict => {
      const inside = insideNetworkCause(e);
      const err = inside
        ? new CalDavError('inside_network', `${what}: ${inside.message}`)
        : e instanceof OffOriginError || e instanceof TooManyRedirectsError
          ? new CalDavError('invalid', e.message)
          : errorFromFailure(what, e);
      this.o.onCall?.(req.method, err.kind);
      return { error: err, retry: isRetryable(err), waitMs: err.retryAfterMs, rateLimited: err.kind === 'rate_limited' };
    };
    return withRetries(attempt, judge, {
      policy: this.o.policy,
      sleep: this.o.sleep,
      now: () => this.o.clock.now(),
      random: this.o.random,
      pacer: this.o.pacer,
    });
  }

  /** The error a non-2xx answer the caller accepted turns out to be after all. */
  errorOf(what: string, answer: DavAnswer): CalDavError {
    return errorFromAnswer(what, answer, this.o.clock.now());
  }

  private async send(req: DavRequest, what: string): Promise<DavAnswer> {
    const res = await this.out.send(
      req.url,
      {
        method: req.method,
        headers: { ...req.headers, authorization: this.authorization, 'user-agent': 'calbridge' },
        body: req.body,
        timeoutMs: this.o.timeoutMs,
        maxBodyBytes: MAX_ANSWER_BYTES,
      },
      what,
    );
    if (res.text === null)
      throw new CalDavError('invalid', `${what}: the answer is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB`, res.status);
    // As fetch()'s text() did: a byte order mark is not part of the text.
    const body = res.text.startsWith('\uFEFF') ? res.text.slice(1) : res.text;
    return { status: res.status, header: res.header, body, url: res.url };
  }
}
