// One request to the booking API through the outbound client (net/outbound.ts: base_url's origin only)
// and its one retry loop (net/retry.ts): what is the booking service's own is here: retries on
// network errors, 5xx and 429 (Retry-After honoured, within a cap), none on other 4xx, and POST only
// when the answer says it was not done; failures become BookingError.
import type { Logger } from '../log.ts';
import { BookingError, ResponseTooLargeError } from './errors.ts';
import { rateLimitResetAt, retryAfterMs } from '../net/rate-limit.ts';
import type { HttpAnswer, httpRequest } from '../net/http-request.ts';
import { Outbound } from '../net/outbound.ts';
import { OffOriginError } from '../net/origin.ts';
import { withRetries, type Verdict } from '../net/retry.ts';

export interface HttpOptions {
  /** booking.base_url: the only origin the token is sent to. */
  origin: URL;
  token: string;
  timeoutMs: number;
  log: Logger;
  request: typeof httpRequest;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  random: () => number;
  maxRetries: number;
  /** First backoff step; doubles per attempt. */
  baseDelayMs: number;
  /** No single wait is longer; a Retry-After beyond it fails now as rate_limited instead. */
  maxDelayMs: number;
  /** Larger answers are not read (ResponseTooLargeError); default 8 MiB. */
  maxBodyBytes?: number;
}

/**
 * Larger answers are not read, so a runaway listing or a proxy streaming garbage cannot fill the
 * daemon's memory: 8 MiB, where a page of 100 records is a few hundred KiB.
 */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

export interface HttpResponse {
  status: number;
  body: unknown;
}

// POST may have been applied before a connection dropped; only answers that say "not done" repeat it.
const RETRY_UNSAFE = new Set([429, 503]);

/** DRF errors: {"detail": "..."} or {"field": ["message"]}; else the text itself. */
export function detailOf(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim().slice(0, 300) || undefined;
  if (!body || typeof body !== 'object') return undefined;
  const o = body as Record<string, unknown>;
  if (typeof o.detail === 'string') return o.detail;
  const parts = Object.entries(o).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.map(String).join(' ') : String(v)}`);
  return parts.length ? parts.join('; ').slice(0, 300) : undefined;
}

/**
 * The service's own error body, as Django REST Framework writes it: `{"detail": "..."}` (a `code`
 * beside it at most). Only this shape on a 404/410 means "gone"; a gateway's `{"message": ...}`, an
 * HTML page or an empty body says nothing about the appointment.
 */
export function isServiceErrorBody(body: unknown): boolean {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  const o = body as Record<string, unknown>;
  return typeof o.detail === 'string' && o.detail.trim() !== '' && Object.keys(o).every((k) => k === 'detail' || k === 'code');
}

/** A non-2xx answer, judged by the retry loop and turned into a BookingError there. */
class NotOk {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly wait: number | undefined,
  ) {}
}

export class BookingHttp {
  /** Set when X-RateLimit-Remaining reached 0: the next request waits until the window resets. */
  private notBefore = 0;
  private readonly out: Outbound;

  constructor(private readonly o: HttpOptions) {
    // The bearer token goes to base_url's origin and nowhere else; a 3xx is an answer (an error), not followed.
    this.out = new Outbound({ origin: o.origin, setting: 'booking.base_url', transport: o.request });
  }

  async request(method: string, url: URL, body?: unknown): Promise<HttpResponse> {
    const what = `${method} ${url.pathname}`;
    const attempt = async (): Promise<HttpResponse> => {
      const hold = this.notBefore - this.o.now();
      if (hold > 0) await this.o.sleep(Math.min(hold, this.o.maxDelayMs));
      const res = await this.out.send(
        url,
        {
          method,
          headers: {
            authorization: `Bearer ${this.o.token}`,
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          timeoutMs: this.o.timeoutMs,
          maxBodyBytes: this.o.maxBodyBytes ?? MAX_BODY_BYTES,
        },
        what,
      );
      this.watchRateLimit(res);
      // Not retried: the same request would bring the same flood. Transient for the caller.
      if (res.text === null) throw new ResponseTooLargeError(what, this.o.maxBodyBytes ?? MAX_BODY_BYTES);
      const parsed = parseBody(res.text);
      if (res.status >= 200 && res.status < 300) return { status: res.status, body: parsed };
      throw new NotOk(res.status, parsed, res.status === 429 ? retryAfterMs(res.header('retry-after') ?? null, this.o.now()) : undefined);
    };
    const judge = (e: unknown): Verdict => {
      if (e instanceof NotOk) {
        const retryable = e.status === 429 || e.status >= 500;
        // POST may have been applied before a connection dropped; only answers that say "not done" repeat it.
        const safe = method !== 'POST' || RETRY_UNSAFE.has(e.status);
        return { error: this.error(e.status, e.body, what, e.wait), retry: retryable && safe, waitMs: e.wait, reason: `HTTP ${e.status}` };
      }
      if (e instanceof OffOriginError) return { error: new BookingError('invalid', this.scrub(e.message)), retry: false };
      if (e instanceof BookingError) return { error: e, retry: false };
      const reason = this.scrub(
        e instanceof Error && e.name === 'TimeoutError' ? `no answer within ${this.o.timeoutMs} ms` : networkReason(e),
      );
      return { error: new BookingError('transient', `booking service unreachable (${what}): ${reason}`), retry: method !== 'POST', reason };
    };
    return withRetries(attempt, judge, {
      policy: { retries: this.o.maxRetries, baseMs: this.o.baseDelayMs, maxMs: this.o.maxDelayMs },
      sleep: this.o.sleep,
      now: this.o.now,
      random: this.o.random,
      onRetry: ({ attempt: n, waitMs, verdict }) =>
        this.o.log.warn({ request: what, reason: verdict.reason, attempt: n + 1, waitMs }, 'booking request failed; retrying'),
    });
  }

  private watchRateLimit(res: HttpAnswer): void {
    const remaining = Number(res.header('x-ratelimit-remaining') ?? NaN);
    if (!Number.isFinite(remaining) || remaining > 0) return;
    // Epoch seconds, epoch milliseconds or seconds to wait, and never further off than the cap.
    const at = rateLimitResetAt(res.header('x-ratelimit-reset') ?? null, this.o.now());
    if (at === undefined) return; // a 429's Retry-After says how long; nothing more to go on
    this.notBefore = Math.max(this.notBefore, at);
    this.o.log.warn({ resetInMs: at - this.o.now() }, 'booking rate limit exhausted; pausing until it resets');
  }

  private error(status: number, body: unknown, what: string, wait: number | undefined): BookingError {
    const detail = this.scrubOpt(detailOf(body));
    const said = detail ? `: ${detail}` : '';
    if (status === 401 || status === 403) {
      return new BookingError(
        'unauthorized',
        `the booking service refused our token (${status} on ${what})${said}; check booking.token`,
        detail,
        status,
      );
    }
    if (status === 404 || status === 410) {
      // Only the API's own answer means gone; an HTML, empty or other JSON 404 comes from a gateway,
      // a proxy or a wrong base_url, and treating it as "gone" would remove appointments one by one.
      if (!isServiceErrorBody(body)) {
        return new BookingError(
          'transient',
          `a ${status} on ${what} that did not come from the booking API (not its {"detail": ...} error body); check booking.base_url and any proxy in front of it`,
          detail,
          status,
        );
      }
      return new BookingError('not_found', `not found at the booking service (${status} on ${what})${said}`, detail, status);
    }
    if (status === 429) {
      const after = wait !== undefined ? `; it asks to wait ${Math.ceil(wait / 1000)} s` : '';
      return new BookingError(
        'rate_limited',
        `the booking service is rate limiting us (429 on ${what})${after}${said}`,
        detail,
        status,
        wait,
      );
    }
    if (status >= 500) return new BookingError('transient', `the booking service failed (${status} on ${what})${said}`, detail, status);
    if (status >= 300 && status < 400) {
      return new BookingError(
        'invalid',
        `the booking service answered a redirect (${status} on ${what}); check booking.base_url`,
        detail,
        status,
      );
    }
    return new BookingError('invalid', `the booking service rejected the request (${status} on ${what})${said}`, detail, status);
  }

  private scrub(s: string): string {
    return this.o.token ? s.split(this.o.token).join('****') : s;
  }

  private scrubOpt(s: string | undefined): string | undefined {
    return s === undefined ? undefined : this.scrub(s);
  }
}

function parseBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function networkReason(e: unknown): string {
  const cause = e instanceof Error && e.cause instanceof Error ? e.cause : undefined;
  const code = cause && 'code' in cause ? String((cause as { code: unknown }).code) : undefined;
  return code ?? cause?.message ?? (e instanceof Error ? e.message : String(e));
}
