// One WebDAV request: Basic auth, the shared pacer, a timeout, redirects on the same host, and
// retries of rate limits, 5xx and network failures with the one backoff of core/backoff.ts (equal jitter),
// Retry-After as its floor. A conditional PUT or DELETE is safe to repeat: if the first attempt was
// applied and only its answer was lost, the repeat meets a 412 (or a 404), and the caller reads the
// object and finds its own body there.
import type { RetryPolicy } from '../net/retry-policy.ts';
import { backoffMs } from '../core/backoff.ts';
import type { Pacer, Sleep } from '../net/pacer.ts';
import type { Clock } from '../core/clock.ts';
import { httpRequest } from '../net/http-request.ts';
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
  private readonly send_: typeof httpRequest;

  constructor(private readonly o: DavHttpOptions) {
    this.authorization = `Basic ${Buffer.from(`${o.username}:${o.password}`, 'utf8').toString('base64')}`;
    // node:http rather than fetch(): a third of the CPU a request (src/net/http-request.ts), and
    // Node's fetch code is not loaded for it.
    this.send_ = o.request ?? httpRequest;
  }

  async request(req: DavRequest): Promise<DavAnswer> {
    const what = `${req.method} ${req.url.pathname}`;
    for (let attempt = 0; ; attempt++) {
      await this.o.pacer.take();
      let err: CalDavError;
      try {
        const answer = await this.send(req, what);
        if ((answer.status >= 200 && answer.status < 300) || req.accept?.includes(answer.status)) {
          this.o.onCall?.(req.method, 'ok');
          return answer;
        }
        err = errorFromAnswer(what, answer, this.o.clock.now());
      } catch (e) {
        err = errorFromFailure(what, e);
      }
      this.o.onCall?.(req.method, err.kind);
      const now = this.o.clock.now();
      // Told to slow down: every request to this server waits, not only this one.
      if (err.kind === 'rate_limited' && err.retryAfterMs) this.o.pacer.pauseUntil(now + err.retryAfterMs);
      // A pause longer than we would ever wait here is left to the caller's schedule.
      if (!isRetryable(err) || attempt >= this.o.policy.retries || (err.retryAfterMs ?? 0) > this.o.policy.maxMs) throw err;
      const delay = Math.max(backoffMs(attempt, this.o.policy, this.o.random ?? Math.random), err.retryAfterMs ?? 0);
      if (err.kind === 'rate_limited') this.o.pacer.pauseUntil(now + delay);
      await this.o.sleep(delay);
    }
  }

  /** The error a non-2xx answer the caller accepted turns out to be after all. */
  errorOf(what: string, answer: DavAnswer): CalDavError {
    return errorFromAnswer(what, answer, this.o.clock.now());
  }

  private async send(req: DavRequest, what: string): Promise<DavAnswer> {
    let url = req.url;
    for (let hop = 0; ; hop++) {
      const res = await this.send_(url, {
        method: req.method,
        headers: { ...req.headers, authorization: this.authorization, 'user-agent': 'calbridge' },
        body: req.body,
        timeoutMs: this.o.timeoutMs,
        maxBodyBytes: MAX_ANSWER_BYTES,
      });
      if (res.text === null) throw new CalDavError('invalid', `${what}: the answer is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB`, res.status);
      // As fetch()'s text() did: a byte order mark is not part of the text.
      const body = res.text.startsWith('\uFEFF') ? res.text.slice(1) : res.text;
      const location = res.header('location');
      if (res.status < 300 || res.status >= 400 || res.status === 304 || !location) return { status: res.status, header: res.header, body, url };
      const next = new URL(location, url);
      if (hop >= MAX_REDIRECTS) throw new CalDavError('invalid', `${what}: more than ${MAX_REDIRECTS} redirects`, res.status);
      // The password goes only where it was sent first; http -> https on the same host is an upgrade.
      const sameHost = next.hostname === url.hostname && (next.protocol === url.protocol || next.protocol === 'https:');
      if (!sameHost) {
        throw new CalDavError('invalid', `${what}: the server redirects to ${next.origin}; put that address in caldav.url`, res.status);
      }
      url = next;
    }
  }
}
