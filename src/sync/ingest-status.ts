// The ingest section of `status` and /api/status, and its share of /readyz. Read from the database,
// so a one-shot `status` shows what `serve` did.
import type { Clock } from '../core/clock.ts';
import type { Readiness } from '../part.ts';
import type { AppointmentStore } from '../store/appointment-store.ts';
import type { DeliveryStore } from '../store/delivery-store.ts';
import type { RejectionStore } from '../store/rejection-store.ts';
import type { BookingHealth } from './booking-health.ts';
import type { PollHistory } from './poll-history.ts';
import { cronPeriodMs } from './cron-period.ts';

export interface IngestStatusDeps {
  clock: Clock;
  appointments: AppointmentStore;
  deliveries: DeliveryStore;
  rejections: RejectionStore;
  health: BookingHealth;
  history: PollHistory;
  pollSchedule: string;
}

const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString());
const STUCK_MS = 10 * 60_000;

export function ingestStatus(d: IngestStatusDeps): Record<string, unknown> {
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
      last_errors: d.deliveries.lastErrors().map((e) => ({ appointment_key: e.appointmentKey, state: e.state, attempts: e.attempts, error: e.error, at: iso(e.at) })),
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
        unchanged: last.unchanged,
        failed: last.failed,
        unannounced: last.unannounced,
        ...(last.error ? { error: last.error } : {}),
      },
      last_success_at: iso(d.history.lastSuccessAt()),
      unannounced_changes_total: d.history.unannouncedTotal(),
    },
    booking_api: { last_ok_at: iso(health.lastOkAt), last_error: health.lastError && { at: iso(health.lastError.at), message: health.lastError.message } },
  };
}

export function ingestReadiness(d: IngestStatusDeps): Readiness {
  const now = d.clock.now();
  const reasons: string[] = [];
  const warnings: string[] = [];
  const { lastOkAt, lastError } = d.health.state();
  const allowed = Math.max(3 * cronPeriodMs(d.pollSchedule), 60_000);
  const lastErr = lastError && (lastOkAt === null || lastError.at >= lastOkAt) ? ` (last error: ${lastError.message})` : '';
  if (lastOkAt === null) reasons.push(`the booking API has not answered successfully yet${lastErr}`);
  else if (now - lastOkAt > allowed) reasons.push(`the booking API has not answered successfully since ${iso(lastOkAt)}${lastErr}`);

  const passes = d.history.history().filter((h) => h.outcome === 'success').slice(-2);
  if (passes.length === 2 && passes.every((p) => p.unannounced > 0)) {
    const n = passes.reduce((s, p) => s + p.unannounced, 0);
    warnings.push(
      `webhooks seem silent: the last two polls found ${n} changes that no webhook announced; check \`calbridge webhooks list\` and the booking service's webhook settings`,
    );
  }
  const last = d.history.last();
  if (last?.outcome === 'breaker' && last.error) warnings.push(`the last poll was stopped by the breaker: ${last.error}`);
  const counts = d.deliveries.counts();
  if (counts.failed > 0) warnings.push(`${counts.failed} webhook deliveries failed (see status: deliveries.last_errors)`);
  if (counts.oldestPendingAt !== null && now - counts.oldestPendingAt > STUCK_MS) {
    warnings.push(`webhook deliveries are waiting since ${iso(counts.oldestPendingAt)} (${counts.pending} pending)`);
  }
  return { reasons, warnings };
}
