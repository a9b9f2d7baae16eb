// Injected failures of the simulated Calendar API: random ones at a rate (seeded, so a run repeats)
// and scripted ones for the next calls, with the error bodies Google sends for each.
import type { Random } from '../../core/random.ts';

export type FaultKind = 429 | '403rate' | '403userRate' | 'quota' | 500 | 503 | 'network';

export interface FaultRate {
  rate: number;
  kinds: FaultKind[];
  /** Apply a write before failing its answer (the client then retries what already happened). */
  after?: boolean;
}

/** status, reason, domain, message */
export const FAULT_ANSWERS: Record<Exclude<FaultKind, 'network'>, [number, string, string, string]> = {
  429: [429, 'rateLimitExceeded', 'usageLimits', 'Rate Limit Exceeded'],
  '403rate': [403, 'rateLimitExceeded', 'usageLimits', 'Rate Limit Exceeded'],
  '403userRate': [403, 'userRateLimitExceeded', 'usageLimits', 'User Rate Limit Exceeded'],
  quota: [403, 'quotaExceeded', 'usageLimits', 'Calendar usage limits exceeded.'],
  500: [500, 'backendError', 'global', 'Backend Error'],
  503: [503, 'backendError', 'global', 'Service Unavailable'],
};

export class FaultPlan {
  rate: FaultRate | null = null;
  private readonly queued: FaultKind[] = [];

  constructor(private readonly random: Random) {}

  failNext(kind: FaultKind, times: number): void {
    this.queued.push(...Array<FaultKind>(times).fill(kind));
  }

  /** The fault for this calendar call, if any (token calls never fail here). */
  next(): FaultKind | undefined {
    if (this.queued.length) return this.queued.shift();
    const r = this.rate;
    if (r?.kinds.length && this.random() < r.rate) return r.kinds[Math.floor(this.random() * r.kinds.length)];
    return undefined;
  }

  /** Whether a write is applied before its fault is answered. */
  get appliesFirst(): boolean {
    return this.rate?.after === true;
  }
}
