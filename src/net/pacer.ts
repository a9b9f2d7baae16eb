// Keeps our request rate under an upstream's per-minute quota (Google: 600 a minute per user,
// counted over a rolling window) while letting a burst of changes go out at once.
//
// A token bucket shaped like the quota: `burst` tokens at most, refilled at a little under
// (rpm + 1 - burst) a minute. However it is used, a window of WINDOW_MS (ends included) starts with
// at most a full bucket and gains less than rpm + 1 - burst tokens during it, so it holds at most
// rpm calls. WINDOW_MS is the upstream's minute plus a margin: it counts a call when it arrives, a
// little after we let it go, and how much later varies. A backfill runs at the refill rate, about
// 95 % of the configured rate with the default burst.
// A token is WINDOW_MS + 1 units and the bucket gains (rpm + 1 - burst) units a millisecond; with
// whole milliseconds the arithmetic is exact, so the window bound cannot slip by a rounding error.
import type { Clock } from '../core/clock.ts';

export type Sleep = (ms: number) => Promise<void>;
export const realSleep: Sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The quota's minute and a quarter of a second for calls that reach the upstream late. */
export const WINDOW_MS = 60_250;
/** One token, in units: one more than the window's milliseconds, so a full window refills strictly less than (rpm + 1 - burst) tokens. */
const TOKEN = WINDOW_MS + 1;

/** A twentieth of the minute's quota: tens of changes at once, and a backfill still at about 95 % of the rate. */
export function defaultBurst(requestsPerMinute: number): number {
  return Math.max(1, Math.floor(requestsPerMinute / 20));
}

export class Pacer {
  /** Tokens × TOKEN. */
  private units: number;
  private last: number;
  private pausedUntil = 0;
  readonly burst: number;
  /** Units added per millisecond (≈ tokens added per minute). */
  private readonly refill: number;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly requestsPerMinute: number,
    private readonly clock: Clock,
    private readonly sleep: Sleep = realSleep,
    burst = defaultBurst(requestsPerMinute),
  ) {
    if (!(requestsPerMinute >= 1)) throw new RangeError(`requests per minute must be at least 1, not ${requestsPerMinute}`);
    this.burst = Math.max(1, Math.min(Math.floor(burst), requestsPerMinute));
    this.refill = requestsPerMinute + 1 - this.burst;
    this.units = this.burst * TOKEN;
    this.last = clock.now();
  }

  /**
   * Waits until one more request is allowed. Callers are let through in order; the requests
   * themselves then run concurrently, as many at once as the bucket allows.
   */
  take(): Promise<void> {
    const turn = this.queue.then(() => this.wait());
    this.queue = turn.catch(() => {});
    return turn;
  }

  /**
   * Everyone waits until then (the upstream told us to slow down), and the bucket starts empty
   * after it: what the upstream counted before the pause is still in its window.
   */
  pauseUntil(ms: number): void {
    if (ms <= this.pausedUntil) return;
    this.pausedUntil = ms;
    this.units = 0;
    this.last = Math.max(this.last, ms);
  }

  get pausedUntilMs(): number {
    return this.pausedUntil;
  }

  /** Whole tokens available now (status, tests). */
  available(): number {
    this.fill(this.clock.now());
    return Math.floor(this.units / TOKEN);
  }

  private fill(now: number): void {
    if (now > this.last) {
      this.units = Math.min(this.burst * TOKEN, this.units + (now - this.last) * this.refill);
      this.last = now;
    }
  }

  private async wait(): Promise<void> {
    for (;;) {
      const now = this.clock.now();
      if (now < this.pausedUntil) {
        await this.sleep(this.pausedUntil - now);
        continue;
      }
      this.fill(now);
      if (this.units >= TOKEN) {
        this.units -= TOKEN;
        return;
      }
      await this.sleep(Math.max(1, Math.ceil((TOKEN - this.units) / this.refill)));
    }
  }
}
