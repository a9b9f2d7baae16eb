// Google's per-user quota as the simulator enforces it when asked: at most `perMinute` calendar
// calls in any rolling 60 seconds; a call past it is refused with 403 rateLimitExceeded (and does
// not count). What a pacer is measured against.
const WINDOW_MS = 60_000;

export class RollingQuota {
  /** Times of the calls admitted in the last minute, oldest first. */
  private readonly admitted: number[] = [];
  private head = 0;

  constructor(readonly perMinute: number) {}

  /** Whether a call at `now` is within the quota (and counts it if so). */
  admit(now: number): boolean {
    while (this.head < this.admitted.length && (this.admitted[this.head] as number) <= now - WINDOW_MS) this.head++;
    if (this.head > 4096) {
      this.admitted.splice(0, this.head);
      this.head = 0;
    }
    if (this.admitted.length - this.head >= this.perMinute) return false;
    this.admitted.push(now);
    return true;
  }
}
