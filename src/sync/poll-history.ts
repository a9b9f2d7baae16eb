// What the poll remembers between passes (in sync_cursors, so `status` in another process sees it):
// the last pass, a short history for the "webhook seems broken" warning, and the first success.
import type { KvStore } from '../store/kv-store.ts';

export type PollOutcome = 'success' | 'failed' | 'breaker';

export interface PollReport {
  startedAt: number;
  finishedAt: number;
  outcome: PollOutcome;
  window: { from: number; to: number };
  listed: number;
  created: number;
  changed: number;
  gone: number;
  /** Gone by the source, but held by the deletion breaker (gone-breaker.ts). */
  held: number;
  unchanged: number;
  /** Records the reader refused, or re-reads that failed. */
  failed: number;
  /** Why the first few refused records were skipped. */
  skipped?: string[];
  /** Changes no webhook announced. */
  unannounced: number;
  error?: string;
}

const LAST = 'poll.last';
const HISTORY = 'poll.history';
const FIRST_SUCCESS = 'poll.first_success_at';
const UNANNOUNCED_TOTAL = 'poll.unannounced_total';
const KEEP = 10;

export interface PollHistoryEntry {
  at: number;
  outcome: PollOutcome;
  unannounced: number;
}

export class PollHistory {
  constructor(private readonly cursors: KvStore) {}

  record(report: PollReport): void {
    this.cursors.set(LAST, report);
    const history = [...this.history(), { at: report.startedAt, outcome: report.outcome, unannounced: report.unannounced }].slice(-KEEP);
    this.cursors.set(HISTORY, history);
    if (report.outcome === 'success' && this.firstSuccessAt() === null) this.cursors.set(FIRST_SUCCESS, report.startedAt);
    if (report.unannounced > 0) this.cursors.set(UNANNOUNCED_TOTAL, this.unannouncedTotal() + report.unannounced);
  }

  last(): PollReport | null {
    return this.cursors.get<PollReport>(LAST) ?? null;
  }

  history(): PollHistoryEntry[] {
    return this.cursors.get<PollHistoryEntry[]>(HISTORY) ?? [];
  }

  firstSuccessAt(): number | null {
    return this.cursors.get<number>(FIRST_SUCCESS) ?? null;
  }

  lastSuccessAt(): number | null {
    const ok = this.history().filter((h) => h.outcome === 'success');
    return ok.at(-1)?.at ?? null;
  }

  unannouncedTotal(): number {
    return this.cursors.get<number>(UNANNOUNCED_TOTAL) ?? 0;
  }
}
