// Keeps our request rate under Google's per-user quota (600/min, sliding window) so a backfill of
// thousands never trips usage limits. A token bucket: a small burst, then one request per interval.
import type { Clock } from '../core/clock.ts';

export type Sleep = (ms: number) => Promise<void>;
export const realSleep: Sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export class Pacer {
  private tokens: number;
  private last: number;
  private pausedUntil = 0;
  private readonly intervalMs: number;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    requestsPerMinute: number,
    private readonly clock: Clock,
    private readonly sleep: Sleep = realSleep,
    private readonly burst = Math.max(1, Math.min(10, Math.floor(requestsPerMinute / 60))),
  ) {
    this.intervalMs = 60_000 / requestsPerMinute;
    this.tokens = this.burst;
    this.last = clock.now();
  }

  /** Waits until one more request is allowed. Callers are served in order. */
  take(): Promise<void> {
    const turn = this.queue.then(() => this.wait());
    this.queue = turn.catch(() => {});
    return turn;
  }

  /** Everyone waits until then (Google told us to slow down). */
  pauseUntil(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, ms);
  }

  get pausedUntilMs(): number {
    return this.pausedUntil;
  }

  private async wait(): Promise<void> {
    for (;;) {
      const now = this.clock.now();
      if (now < this.pausedUntil) {
        await this.sleep(this.pausedUntil - now);
        continue;
      }
      this.tokens = Math.min(this.burst, this.tokens + (now - this.last) / this.intervalMs);
      this.last = now;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await this.sleep(Math.ceil((1 - this.tokens) * this.intervalMs));
    }
  }
}
