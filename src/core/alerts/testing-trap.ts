// Google's OAuth apps left in "Testing" give refresh tokens that stop working 7 days after they were
// issued. A refusal (invalid_grant) 6 to 8 days after the token was issued is almost surely that, and
// the fix is not another sign-in but publishing the consent screen; a week later it happens again.

const DAY = 86_400_000;

/** Whole days since the token was issued, when that falls in the 6-to-8-day window; else null. */
export function testingTrapDays(issuedAt: number | null, now: number): number | null {
  if (issuedAt === null) return null;
  const age = now - issuedAt;
  if (age < 6 * DAY || age > 8 * DAY) return null;
  return Math.round(age / DAY);
}
