// Reverse-sync metrics: moves seen, what came of them, deletions, channels. Google's are
// calbridge_reverse_*; another target's carry its name first (calbridge_caldav_reverse_*).
import type { Metrics } from '../metrics.ts';

export type ReverseMetrics = ReturnType<typeof createReverseMetrics>;

/** `target`: the target's name as people read it; `prefix` goes before every metric name ('' for Google). */
export function createReverseMetrics(metrics: Metrics, target = { name: 'Google', prefix: '' }) {
  const { name: where, prefix: p } = target;
  return {
    rounds: metrics.counter(`${p}reverse_sync_rounds_total`, 'Reverse-sync rounds per calendar by mode (incremental, full) and outcome', [
      'mode',
      'outcome',
    ]),
    moves: metrics.counter(`${p}reverse_moves_detected_total`, `Events moved by a person in ${where}`),
    reschedules: metrics.counter(
      `${p}reverse_reschedules_total`,
      'Moves carried to the booking service, by outcome (done, reverted, failed, dropped)',
      ['outcome', 'reason'],
    ),
    deletions: metrics.counter(`${p}reverse_deletions_total`, `Events deleted by a person in ${where}, by the action taken`, ['action']),
    restores: metrics.counter(`${p}reverse_restores_total`, `Events in ${where} put back because the booking service wins`, ['reason']),
    breaker: metrics.counter(`${p}reverse_breaker_trips_total`, 'Rounds whose deletions were held back by the mass-change breaker'),
    pending: metrics.gauge(`${p}reverse_pending`, 'Reschedules and cancellations waiting to be sent'),
  };
}
