// Breakers: a pass that would remove much of a mirror at once is more likely a fault (a booking
// service answering empty, a lost sync token) than real work, so it stops and says so.

/** The writer: a pass that would delete more than `share` of the mirrored events stops (small numbers never trip it). */
const BREAKER_MIN_DELETES = 10;

export function breakerTrips(deletes: number, mirrored: number, share: number): boolean {
  return deletes >= BREAKER_MIN_DELETES && deletes > share * mirrored;
}

/** The reverse sync: deletions found by a full listing, acted on at once, beyond `share` of the mirrored events. */
export function deletionsTripBreaker(deletions: number, mirrored: number, share: number): boolean {
  if (deletions <= 1) return false;
  return deletions > Math.max(1, share * mirrored);
}
