// Fault injection: a share of answers become 429 (with Retry-After) or 503, answers can be slow or
// carry rate-limit headers, and tests can script the next few answers exactly, hostile ones included
// (a gateway's own 404 body, an absurd Retry-After, a body of many megabytes).
import type { Random } from '../../core/random.ts';

export interface Faults {
  /** Share (0..1) of API requests answered 429. */
  rate429?: number;
  /** Share (0..1) of API requests answered 503. */
  rate503?: number;
  /** Every API answer waits this long first. */
  delayMs?: number;
  /** Retry-After sent with each 429; default 1. */
  retryAfterSeconds?: number;
  /** Every API answer says the allowance is used up: X-RateLimit-Remaining: 0 and this X-RateLimit-Reset, verbatim. */
  rateLimitReset?: string;
}

/** The next answers, scripted; any status (a 200 too, e.g. with an oversized body). */
export interface ScriptedFailure {
  status: number;
  /** How many requests in a row fail this way; default 1. */
  count?: number;
  retryAfterSeconds?: number;
  detail?: string;
  /** Only requests whose path contains this. */
  pathIncludes?: string;
  /** Sent as well, overriding the defaults (e.g. a Retry-After given as an HTTP date). */
  headers?: Record<string, string>;
  /** The JSON body instead of the service's `{"detail": ...}`: a gateway's `{"message": ...}`. */
  body?: unknown;
  /** The body is padded to at least this many bytes. */
  bodyBytes?: number;
}

export interface Failure {
  status: number;
  headers: Record<string, string>;
  /** The JSON text of the answer. */
  text: string;
}

const DETAILS: Record<number, string> = {
  429: 'Request was throttled. Expected available in 1 second.',
  503: 'Service temporarily unavailable, try again later.',
};

export class FaultPlan {
  faults: Faults = {};
  private readonly script: ScriptedFailure[] = [];

  constructor(private readonly random: Random) {}

  failNext(f: ScriptedFailure): void {
    this.script.push({ ...f, count: f.count ?? 1 });
  }

  /** The failure this request meets, if any. */
  next(path: string): Failure | undefined {
    const scripted = this.script.find((s) => !s.pathIncludes || path.includes(s.pathIncludes));
    if (scripted) {
      scripted.count = (scripted.count ?? 1) - 1;
      if (scripted.count <= 0) this.script.splice(this.script.indexOf(scripted), 1);
      const failure = this.failure(
        scripted.status,
        scripted.retryAfterSeconds ?? this.faults.retryAfterSeconds,
        scripted.detail,
        scripted.body,
      );
      Object.assign(failure.headers, scripted.headers);
      if (scripted.bodyBytes !== undefined) failure.text = padded(failure.text, scripted.bodyBytes);
      return failure;
    }
    const roll = this.random();
    const r429 = this.faults.rate429 ?? 0;
    if (roll < r429) return this.failure(429, this.faults.retryAfterSeconds);
    if (roll < r429 + (this.faults.rate503 ?? 0)) return this.failure(503);
    return undefined;
  }

  /** Headers every API answer carries. */
  headers(): Record<string, string> {
    const reset = this.faults.rateLimitReset;
    return reset === undefined ? {} : { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset };
  }

  private failure(status: number, retryAfter?: number, detail?: string, body?: unknown): Failure {
    const headers: Record<string, string> = {};
    if (status === 429) {
      headers['retry-after'] = String(retryAfter ?? 1);
      headers['x-ratelimit-remaining'] = '0';
    }
    const text = JSON.stringify(body ?? { detail: detail ?? DETAILS[status] ?? `Simulated failure ${status}.` });
    return { status, headers, text };
  }
}

/** The same JSON object with a `padding` member making its text at least `bytes` long. */
function padded(text: string, bytes: number): string {
  const extra = Math.max(0, bytes - text.length);
  return text.startsWith('{') ? `{"padding":"${'x'.repeat(extra)}",${text.slice(1)}` : text + ' '.repeat(extra);
}
