// The ingest metrics (issue: deliveries by outcome, worker lag, poll duration and outcome, changes
// found only by the poll). Created once per runtime registry.
import type { Metrics } from '../metrics.ts';

export type IngestMetrics = ReturnType<typeof createIngestMetrics>;

export function createIngestMetrics(m: Metrics) {
  return {
    received: m.counter('webhook_requests_total', 'Webhook requests by outcome (stored, duplicate, unavailable, or a rejection reason)', [
      'outcome',
    ]),
    processed: m.counter('deliveries_processed_total', 'Deliveries processed by the worker, by outcome', ['outcome']),
    lag: m.histogram(
      'delivery_lag_seconds',
      'From a delivery being stored to its appointment being re-read and applied',
      [],
      [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600],
    ),
    pending: m.gauge('deliveries_pending', 'Deliveries stored and not yet applied'),
    oldestPending: m.gauge('delivery_oldest_pending_seconds', 'Age of the oldest pending delivery'),
    pollDuration: m.histogram(
      'poll_duration_seconds',
      'Duration of poll passes, by outcome',
      ['outcome'],
      [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    ),
    polls: m.counter('poll_runs_total', 'Poll passes by outcome (success, failed, breaker)', ['outcome']),
    pollChanges: m.counter('poll_changes_total', 'Changes the poll applied, by kind', ['kind']),
    unannounced: m.counter(
      'poll_unannounced_changes_total',
      'Changes found by the poll that no webhook announced (rising: the webhook is broken)',
    ),
  };
}
