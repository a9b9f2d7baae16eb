// A target's reverse-sync section of `status` and /api/status (status/status-document.ts), counts from the database (so a
// one-shot `status` shows the same as the daemon), the booking service's reasons for refusals.
import type { RescheduleStore } from '../store/reschedule-store.ts';
import type { ReverseSyncSection } from '../status/status-document.ts';
import type { CalendarRound } from './reverse-sync.ts';

export interface RoundState {
  lastAt: number | null;
  lastOkAt: number | null;
  lastError: string | null;
  calendars: CalendarRound[];
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function reverseStatus(s: {
  round: RoundState;
  actions: RescheduleStore;
  /** Push channels, for a target that has them (Google). */
  push?: Extract<ReverseSyncSection, { enabled: true }>['push'];
  calendars: readonly string[];
  config: { on_conflict: 'revert' | 'allow'; on_delete: 'recreate' | 'cancel' | 'ignore' };
}): ReverseSyncSection {
  const c = s.actions.counts();
  return {
    enabled: true,
    calendars: [...s.calendars],
    on_conflict: s.config.on_conflict,
    on_delete: s.config.on_delete,
    last_round_at: iso(s.round.lastAt),
    last_ok_round_at: iso(s.round.lastOkAt),
    last_error: s.round.lastError,
    moves_detected: c.movesDetected,
    reschedules: {
      done: c.rescheduled,
      reverted: c.reverted,
      conflicts: c.conflicts,
      refused: c.refused,
      pending: c.pending,
      failed: c.failed,
    },
    deletions: { recreated: c.recreated, cancelled: c.cancelled, ignored: c.ignoredDeletes },
    restored_booking_wins: c.restored,
    held_by_breaker: heldByBreaker(s.round),
    problems: s.actions.recentProblems().map((p) => ({
      appointment_key: p.appointmentKey,
      action: p.kind,
      state: p.state,
      reason: p.reason,
      detail: p.detail ?? p.lastError,
      new_start: new Date(p.newStart).toISOString(),
      at: iso(p.updatedAt),
      ...(p.state === 'pending' ? { attempts: p.attempts, next_attempt_at: iso(p.nextAttemptAt) } : {}),
    })),
    ...(s.push ? { push: s.push } : {}),
  };
}

/** Deletions the last round's breaker held back, over every calendar. */
export const heldByBreaker = (round: RoundState): number => round.calendars.reduce((n, r) => n + r.held, 0);
