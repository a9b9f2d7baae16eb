// Fault injection: a share of answers become 429 (with Retry-After) or 503, answers can be slow,
// and tests can script the next few failures exactly.
import type { Random } from './random.ts';

export interface Faults {
  /** Share (0..1) of API requests answered 429. */
  rate429?: number;
  /** Share (0..1) of API requests answered 503. */
  rate503?: number;
  /** Every API answer waits this long first. */
  delayMs?: number;
  /** Retry-After sent with each 429; default 1. */
  retryAfterSeconds?: number;
}

export interface ScriptedFailure {
  status: number;
  /** How many requests in a row fail this way; default 1. */
  count?: number;
  retryAfterSeconds?: number;
  detail?: string;
  /** Only requests whose path contains this. */
  pathIncludes?: string;
}

export interface Failure {
  status: number;
  headers: Record<string, string>;
  detail: string;
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
      return this.failure(scripted.status, scripted.retryAfterSeconds ?? this.faults.retryAfterSeconds, scripted.detail);
    }
    const roll = this.random();
    const r429 = this.faults.rate429 ?? 0;
    if (roll < r429) return this.failure(429, this.faults.retryAfterSeconds);
    if (roll < r429 + (this.faults.rate503 ?? 0)) return this.failure(503);
    return undefined;
  }

  private failure(status: number, retryAfter?: number, detail?: string): Failure {
    const headers: Record<string, string> = {};
    if (status === 429) {
      headers['retry-after'] = String(retryAfter ?? 1);
      headers['x-ratelimit-remaining'] = '0';
    }
    return { status, headers, detail: detail ?? DETAILS[status] ?? `Simulated failure ${status}.` };
  }
}
