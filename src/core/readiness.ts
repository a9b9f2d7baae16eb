// Readiness (docs/reference/http.md, "Readiness"): each part's share, and the whole process's answer.

export interface Readiness {
  /**
   * Why this process cannot take traffic (make /readyz 503). Upstream trouble never belongs here:
   * an orchestrator would cut off webhooks and feeds because Google is down.
   */
  reasons: string[];
  /** Worth a look, but not a reason to be unready. Public: our own words, never an upstream's error text. */
  warnings: string[];
}

export interface OverallReadiness extends Readiness {
  ready: boolean;
}

/** Every share together: ready when no share gives a reason. */
export function overallReadiness(shares: readonly Readiness[]): OverallReadiness {
  const reasons = shares.flatMap((r) => r.reasons);
  const warnings = shares.flatMap((r) => r.warnings);
  return { ready: reasons.length === 0, reasons, warnings };
}
