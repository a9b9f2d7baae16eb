// Reverse-sync metrics (calbridge_reverse_*): moves seen, what came of them, deletions, channels.
import type { Metrics } from '../metrics.ts';

export type ReverseMetrics = ReturnType<typeof createReverseMetrics>;

export function createReverseMetrics(metrics: Metrics) {
  return {
    rounds: metrics.counter('reverse_sync_rounds_total', 'Reverse-sync rounds per calendar by mode (incremental, full) and outcome', ['mode', 'outcome']),
    moves: metrics.counter('reverse_moves_detected_total', 'Events moved by a person in Google'),
    reschedules: metrics.counter('reverse_reschedules_total', 'Moves carried to the booking service, by outcome (done, reverted, failed, dropped)', ['outcome', 'reason']),
    deletions: metrics.counter('reverse_deletions_total', 'Events deleted by a person in Google, by the action taken', ['action']),
    restores: metrics.counter('reverse_restores_total', 'Google events put back because the booking service wins', ['reason']),
    breaker: metrics.counter('reverse_breaker_trips_total', 'Rounds whose deletions were held back by the mass-change breaker'),
    channels: metrics.gauge('reverse_channels_active', 'Google push channels open'),
    pending: metrics.gauge('reverse_pending', 'Reschedules and cancellations waiting to be sent'),
  };
}
