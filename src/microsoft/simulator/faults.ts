// Injected failures of the simulated Graph: random ones at a rate (seeded, so a run repeats) and
// scripted ones for the next calls, with the bodies and Retry-After Graph sends for each.
import type { Random } from '../../core/random.ts';

export type FaultKind = 429 | 503 | 500 | 504 | 'network';

export interface FaultRate {
  rate: number;
  kinds: FaultKind[];
  /**
   * Apply a write before failing its answer (the client then retries what already happened): always
   * (true), never (false, the default), or for this share of the faults (0.5: half before, half after).
   */
  after?: boolean | number;
}

/** status, code, message */
export const FAULT_ANSWERS: Record<Exclude<FaultKind, 'network'>, [number, string, string]> = {
  429: [429, 'ApplicationThrottled', 'Application is over its MailboxConcurrency limit.'],
  503: [503, 'ServiceUnavailable', 'Service Unavailable'],
  500: [500, 'ErrorInternalServerError', 'An internal server error occurred. The operation failed.'],
  504: [504, 'UnknownError', 'Gateway Timeout'],
};

export class FaultPlan {
  rate: FaultRate | null = null;
  private readonly queued: FaultKind[] = [];

  constructor(private readonly random: Random) {}

  failNext(kind: FaultKind, times: number): void {
    this.queued.push(...Array<FaultKind>(times).fill(kind));
  }

  /** The fault for this Graph call, if any (token calls never fail here). */
  next(): FaultKind | undefined {
    if (this.queued.length) return this.queued.shift();
    const r = this.rate;
    if (r?.kinds.length && this.random() < r.rate) return r.kinds[Math.floor(this.random() * r.kinds.length)];
    return undefined;
  }

  /** Whether this fault of a write comes after the write was applied (asked once per faulted write). */
  appliesFirst(): boolean {
    const after = this.rate?.after;
    return after === true || (typeof after === 'number' && this.random() < after);
  }
}
