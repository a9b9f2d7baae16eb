// The ingest section of `status` and /api/status, and its share of /readyz. Read from the database,
// so a one-shot `status` shows what `serve` did.
import type { Clock } from '../core/clock.ts';
import type { Readiness, Warning } from '../core/readiness.ts';
import type { IngestSection } from '../status/status-document.ts';
import type { AppointmentStore } from '../store/appointment-store.ts';
import type { DeliveryStore } from '../store/delivery-store.ts';
import type { RejectionStore } from '../store/rejection-store.ts';
import type { BookingHealth } from './booking-health.ts';
import type { GoneBreaker } from './gone-breaker.ts';
import type { PollHistory } from './poll-history.ts';
import { readinessWindowMs } from './readiness-window.ts';

export interface IngestStatusDeps {
  clock: Clock;
  appointments: AppointmentStore;
  deliveries: DeliveryStore;
  rejections: RejectionStore;
  health: BookingHealth;
  history: PollHistory;
  gone: GoneBreaker;
  pollSchedule: string;
}

const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString());
const STUCK_MS = 10 * 60_000;

export function ingestStatus(d: IngestStatusDeps): IngestSection {
  const counts = d.deliveries.counts();
  const last = d.history.last();
  const health = d.health.state();
  return {
    appointments: d.appointments.counts(),
    deliveries: {
      pending: counts.pending,
      retrying: counts.retrying,
      failed: counts.failed,
      applied: counts.done,
      oldest_pending_at: iso(counts.oldestPendingAt),
      last_errors: d.deliveries
        .lastErrors()
        .map((e) => ({ appointment_key: e.appointmentKey, state: e.state, attempts: e.attempts, error: e.error, at: iso(e.at) })),
    },
    webhook_rejections: {
      by_reason: d.rejections.counts(),
      recent: d.rejections.recent(3).map((r) => ({ at: iso(r.at), status: r.status, reason: r.reason, detail: r.detail })),
    },
    poll: {
      schedule: d.pollSchedule,
      last: last && {
        started_at: iso(last.startedAt),
        seconds: (last.finishedAt - last.startedAt) / 1000,
        outcome: last.outcome,
        window: { from: iso(last.window.from), to: iso(last.window.to) },
        listed: last.listed,
        created: last.created,
        changed: last.changed,
        gone: last.gone,
        held: last.held ?? 0,
        unchanged: last.unchanged,
        failed: last.failed,
        ...(last.skipped?.length ? { skipped: last.skipped } : {}),
        unannounced: last.unannounced,
        ...(last.error ? { error: last.error } : {}),
      },
      last_success_at: iso(d.history.lastSuccessAt()),
      unannounced_changes_total: d.history.unannouncedTotal(),
    },
    deletion_breaker: deletionBreaker(d.gone),
    booking_api: {
      last_ok_at: iso(health.lastOkAt),
      last_error: health.lastError && { at: iso(health.lastError.at), message: health.lastError.message },
    },
  };
}

/**
 * Ingest's share of /readyz: only warnings (the receiver takes webhooks whatever the booking API
 * does), in our own words; the booking API's error text stays in status (booking_api.last_error).
 * Reads only keyed rows: cursors and the delivery counters.
 */
export function ingestReadiness(d: IngestStatusDeps): Readiness {
  const now = d.clock.now();
  const warnings: Warning[] = [];
  const say = (text: string, see?: string) => void warnings.push({ text, ...(see ? { see } : {}) });
  const { lastOkAt } = d.health.state();
  if (lastOkAt === null) say('the booking API has not answered successfully yet', 'booking_api');
  else if (now - lastOkAt > readinessWindowMs(d.pollSchedule)) {
    say(`the booking API has not answered successfully since ${iso(lastOkAt)}`, 'booking_api');
  }
  const passes = d.history
    .history()
    .filter((h) => h.outcome === 'success')
    .slice(-2);
  if (passes.length === 2 && passes.every((p) => p.unannounced > 0)) {
    const n = passes.reduce((s, p) => s + p.unannounced, 0);
    say(
      `webhooks seem silent: the last two polls found ${n} changes that no webhook announced; check \`calbridge webhooks list\` and the booking service's webhook settings`,
    );
  }
  const last = d.history.last();
  // The breaker's verdict is our own sentence (counts only).
  if (last?.outcome === 'breaker' && last.error) say(`the last poll was stopped by the breaker: ${last.error}`);
  const held = d.gone.heldCount();
  if (held > 0) {
    say(
      `the deletion breaker holds ${held} appointments the booking service says are gone (more than poll.max_gone_per_hour ${d.gone.perHour} in an hour); ` +
        'they stay as they were until the rate drops; if the deletions are real, run `calbridge sync --allow-mass-changes` once',
    );
  }
  const counts = d.deliveries.counts();
  if (counts.failed > 0) say(`${counts.failed} webhook deliveries failed`, 'ingest.deliveries.last_errors');
  if (counts.oldestPendingAt !== null && now - counts.oldestPendingAt > STUCK_MS) {
    say(`webhook deliveries are waiting since ${iso(counts.oldestPendingAt)} (${counts.pending} pending)`);
  }
  return { reasons: [], warnings };
}

/** How many became gone lately and which are held, the held ones re-checked against their rows. */
function deletionBreaker(gone: GoneBreaker): IngestSection['deletion_breaker'] {
  const held = gone.held();
  return {
    max_gone_per_hour: Number.isFinite(gone.perHour) ? gone.perHour : null,
    gone_last_hour: gone.goneLastHour(),
    held: held.length,
    held_appointments: held.slice(0, 20).map((h) => ({ appointment_key: h.key, reason: h.reason, since: iso(h.since) })),
  };
}
