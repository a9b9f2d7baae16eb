// Real time plus a skew the history moves forward: backoffs, retries and "20 seconds of schedule"
// pass at once, while two calls a millisecond apart still see time move (the daemon orders what it
// read and what it wrote by it, so a frozen clock would hide its races rather than test them).
import type { Clock } from '../../src/core/clock.ts';

export class SkewClock implements Clock {
  private skew = 0;

  now(): number {
    return Date.now() + this.skew;
  }

  advance(ms: number): void {
    this.skew += ms;
  }
}
