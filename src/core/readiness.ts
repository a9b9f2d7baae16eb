// Readiness (docs/reference/http.md, "Readiness"): each part's share, and the whole process's answer.

/** A warning in our own words, with where status tells more, and what it is about. */
export interface Warning {
  /** One sentence, no pointer: "Google has not answered successfully for over 15 minutes". */
  text: string;
  /** Where the status document has the details: `booking_api`, `targets.google.default.last_error`. */
  see?: string;
  /** A calendar target account's trouble, by kind: the status page tells a cause once, not each warning it causes. */
  cause?: { account: string; kind: 'auth' | 'setup' | 'quiet' | 'round_failed' };
}

export interface Readiness {
  /**
   * Why this process cannot take traffic (make /readyz 503). Upstream trouble never belongs here:
   * an orchestrator would cut off webhooks and feeds because Google is down.
   */
  reasons: string[];
  /** Worth a look, but not a reason to be unready. Public: our own words, never an upstream's error text. */
  warnings: Warning[];
}

export interface OverallReadiness {
  ready: boolean;
  reasons: string[];
  /** Each warning as /readyz says it: the sentence, then where status has the details. */
  warnings: string[];
  /** The same warnings as data (the status page). */
  notes: Warning[];
}

/** A warning as one public sentence. */
const sentenceOf = (w: Warning): string => (w.see ? `${w.text} (details in status: ${w.see})` : w.text);

/** Every share together: ready when no share gives a reason. */
export function overallReadiness(shares: readonly Readiness[]): OverallReadiness {
  const reasons = shares.flatMap((r) => r.reasons);
  const notes = shares.flatMap((r) => r.warnings);
  return { ready: reasons.length === 0, reasons, warnings: notes.map(sentenceOf), notes };
}
