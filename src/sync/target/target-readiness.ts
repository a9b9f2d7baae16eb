// A calendar target's share of /readyz, for every target alike: only warnings (feeds, webhooks and
// the other targets work without it), in our own words. The target's own error text (which can name
// accounts or calendars) stays in status, under the account's section.
import type { Readiness, Warning } from '../../core/readiness.ts';
import type { WriterStatus } from '../mirror-writer.ts';
import { heldByBreaker, type RoundState } from '../reverse-status.ts';

const ALLOW_ONCE = 'if they are real, run `calbridge sync --allow-mass-changes` once';

/** The one sentence of a breaker holding deletions, the writer's or the reverse sync's. */
function breakerWarning(where: string, held: { deletes: number; of?: number; madeIn?: string; booking?: true }): string {
  const what =
    held.of === undefined
      ? `${held.deletes} deletions${held.madeIn ? ` in ${held.madeIn}` : ''}`
      : `${held.deletes} deletions of ${held.of} mirrored events`;
  const booking = held.booking ? '; nothing was cancelled at the booking service' : '; check the booking service';
  return `${where}: ${what} held by the breaker${booking}; ${ALLOW_ONCE}`;
}

export interface TargetReadinessInput {
  /** "Google", "CalDAV". */
  name: string;
  /** "Google", "the CalDAV server". */
  server: string;
  /** The account, and where status shows its details: targets.google.default. */
  account: string;
  section: string;
  writing: WriterStatus;
  authWarning: string;
  /** A setup mistake's sentence (details in status under setup_problem). */
  setupWarning: string | null;
  /** Milliseconds since it last answered well, and how long is too long. */
  silenceMs: number;
  windowMs: number;
  /** The reverse sync's last round and failed sends; undefined when it is off. */
  reverse?: { round: RoundState; failed: number };
  /** The adapter's own (no push channel open). */
  own: readonly string[];
}

export function targetReadiness(i: TargetReadinessInput): Readiness {
  const warnings: Warning[] = [];
  const cause = (kind: NonNullable<Warning['cause']>['kind']) => ({ cause: { account: i.account, kind } });
  if (i.writing.authError) warnings.push({ text: i.authWarning, ...cause('auth') });
  else if (i.setupWarning) warnings.push({ text: i.setupWarning, see: `${i.section}.setup_problem`, ...cause('setup') });
  else if (i.silenceMs > i.windowMs) {
    const server = i.server.charAt(0).toUpperCase() + i.server.slice(1);
    warnings.push({
      text: `${server} has not answered successfully for over ${Math.round(i.windowMs / 60_000)} minutes`,
      see: `${i.section}.last_error`,
      ...cause('quiet'),
    });
  }
  if (i.writing.breaker)
    warnings.push({ text: breakerWarning(i.name, { deletes: i.writing.breaker.deletes, of: i.writing.breaker.mirrored }) });
  if (i.reverse) {
    const see = `${i.section}.reverse_sync`;
    const held = heldByBreaker(i.reverse.round);
    if (held) warnings.push({ text: breakerWarning(`${i.name} reverse sync`, { deletes: held, madeIn: i.name, booking: true }) });
    if (i.reverse.failed)
      warnings.push({ text: `${i.name} reverse sync: ${i.reverse.failed} moves could not be sent to the booking service`, see });
    if (i.reverse.round.lastError)
      warnings.push({ text: `${i.name} reverse sync: the last round failed for at least one calendar`, see, ...cause('round_failed') });
  }
  warnings.push(...i.own.map((text) => ({ text })));
  return { reasons: [], warnings };
}
