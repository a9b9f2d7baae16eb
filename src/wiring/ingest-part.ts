// Ingest: the webhook receiver, the delivery worker and the poll, composed into one part.
// Together they make stored state match the booking service, whatever webhooks arrive.
import { DeliveryWriter } from '../store/delivery-writer.ts';
import { startCheckpointerWhenBusy, type BusyCheckpointer } from '../store/checkpointer.ts';
import { webhookRoutes, type RejectedRequest } from '../http/webhook-routes.ts';
import type { ApplyDeps } from '../sync/apply-record.ts';
import { BookingHealth } from '../sync/booking-health.ts';
import { createIngestMetrics } from '../sync/ingest-metrics.ts';
import { createDeliveryWorker } from '../sync/delivery-worker.ts';
import { ReceiverGate } from '../sync/receiver-gate.ts';
import { createPollJob } from '../sync/poll.ts';
import { PollHistory } from '../sync/poll-history.ts';
import { ingestReadiness, ingestStatus, type IngestStatusDeps } from '../sync/ingest-status.ts';
import type { Part } from './part.ts';
import type { Services } from './services.ts';

// Unauthenticated callers are only counted: a stranger guessing secrets never causes a write.
const UNAUTHENTICATED = new Set(['wrong_secret', 'unauthorized']);

export function createIngestPart(s: Services, apply: ApplyDeps): Part {
  const { config, clock, appointments, deliveries, rejections } = s;
  const log = s.log.child({ module: 'ingest' });
  const health = new BookingHealth(s.cursors, clock);
  const history = new PollHistory(s.cursors);
  const metrics = createIngestMetrics(s.metrics);
  let checkpointer: BusyCheckpointer | undefined;
  const writer = new DeliveryWriter(deliveries, {
    onStored: (n) => {
      checkpointer?.stored(n); // a flood of webhooks starts the checkpointer thread
      s.wake('deliveries');
    },
  });
  const common = { ...apply, booking: s.booking, deliveries, health, metrics, clock, log };
  // The delivery worker takes turns with the receiver: a small share of the event loop while webhooks
  // arrive, all of it otherwise (src/sync/receiver-gate.ts).
  const receiver = new ReceiverGate();

  const onRejected = (r: RejectedRequest): void => {
    metrics.received.inc({ outcome: r.reason });
    if (UNAUTHENTICATED.has(r.reason)) {
      log.debug({ reason: r.reason, status: r.status }, 'webhook rejected');
      return;
    }
    log.warn({ reason: r.reason, status: r.status, detail: r.detail, contentType: r.contentType }, 'webhook rejected');
    try {
      rejections.record({ ...r, at: clock.now() });
    } catch (e) {
      log.warn({ err: e }, 'could not keep the rejected webhook sample');
    }
  };

  const statusDeps: IngestStatusDeps = {
    clock,
    appointments,
    deliveries,
    rejections,
    health,
    history,
    gone: apply.gone,
    pollSchedule: config.poll.schedule,
  };

  return {
    name: 'ingest',
    routes: webhookRoutes({
      secret: config.webhook.secret,
      previousSecret: config.webhook.previous_secret,
      authToken: config.webhook.auth_token,
      write: (d) => writer.write(d),
      clock,
      log,
      onRejected,
      onAccepted: (outcome) => metrics.received.inc({ outcome }),
      activity: receiver,
    }),
    // `sync` runs them in this order: the poll brings the window up to date, then deliveries.
    jobs: [
      createPollJob({ ...common, activity: s.activity, history, poll: config.poll, timezone: config.booking.timezone }),
      createDeliveryWorker({ ...common, receiver }),
    ],
    async start() {
      // serve only: keep WAL checkpoints (page copies, fsync) out of the receiver's commits, once
      // webhooks flood in.
      checkpointer = startCheckpointerWhenBusy(s.db, { log });
      // Catch up at once: what changed while we were down, and deliveries stored before a crash.
      s.wake('poll');
      s.wake('deliveries');
    },
    async stop() {
      writer.flush();
      await checkpointer?.stop();
      checkpointer = undefined;
    },
    status: () => ({ ingest: ingestStatus(statusDeps) }),
    readiness: () => ingestReadiness(statusDeps),
  };
}
