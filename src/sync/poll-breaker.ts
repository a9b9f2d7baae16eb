// The poll's guard against mass removal (ARCHITECTURE.md, principle 4): a listing that comes back empty, or
// that misses more than `share` of the stored window, is more likely broken than true. Pure.

/** Up to this many missing appointments never trip the breaker (small calendars change a lot in relative terms). */
const BREAKER_FLOOR = 3;

export interface BreakerInput {
  /** Records the listing returned. */
  listed: number;
  /** Stored, not gone, not cancelled appointments in the window. */
  stored: number;
  /** Of those, how many the listing did not return. */
  missing: number;
  /** poll.breaker_share */
  share: number;
}

/** Why the pass must stop without changing anything, or undefined when it may go on. */
export function breakerVerdict(i: BreakerInput): string | undefined {
  if (i.share >= 1) return undefined; // a share of 1 turns the breaker off (`sync --allow-mass-changes`)
  if (i.listed === 0 && i.stored > BREAKER_FLOOR) {
    return `the listing came back empty while ${i.stored} appointments are stored in the window; nothing was changed`;
  }
  const limit = Math.max(BREAKER_FLOOR, Math.floor(i.share * i.stored));
  if (i.missing > limit) {
    return (
      `the listing misses ${i.missing} of ${i.stored} stored appointments in the window (more than poll.breaker_share ${i.share}); ` +
      'nothing was changed. If this is real, run `calbridge sync --allow-mass-changes` once'
    );
  }
  return undefined;
}
