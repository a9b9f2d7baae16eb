// The reverse-sync section of `status` and /api/status: plain JSON, counts from the database (so a
// one-shot `status` shows the same as the daemon), the booking service's reasons for refusals.
import type { GoogleConfig } from '../config/schema.ts';
import type { Clock } from '../core/clock.ts';
import type { RescheduleStore } from '../store/reschedule-store.ts';
import type { ChannelStore } from '../store/channel-store.ts';
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
  /** Google's push channels; a target without push (CalDAV) has none. */
  push?: { on: boolean; url: string; channels: ChannelStore; configured: boolean };
  calendars: string[];
  config: Pick<GoogleConfig['reverse_sync'], 'on_conflict' | 'on_delete'>;
  clock: Clock;
}): Record<string, unknown> {
  const push = s.push;
  const c = s.actions.counts();
  return {
    enabled: true,
    calendars: s.calendars,
    on_conflict: s.config.on_conflict,
    on_delete: s.config.on_delete,
    last_round_at: iso(s.round.lastAt),
    last_ok_round_at: iso(s.round.lastOkAt),
    last_error: s.round.lastError,
    moves_detected: c.movesDetected,
    reschedules: { done: c.rescheduled, reverted: c.reverted, conflicts: c.conflicts, refused: c.refused, pending: c.pending, failed: c.failed },
    deletions: { recreated: c.recreated, cancelled: c.cancelled, ignored: c.ignoredDeletes },
    restored_booking_wins: c.restored,
    held_by_breaker: s.round.calendars.reduce((n, r) => n + r.held, 0),
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
    ...(push
      ? {
          push: push.on
            ? { enabled: true, address: push.url, channels_active: push.channels.activeCount() }
            : { enabled: false, why: push.configured ? 'public_url is not https' : 'push_notifications is off' },
        }
      : {}),
  };
}
