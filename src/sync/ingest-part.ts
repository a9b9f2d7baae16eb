// Ingest: the webhook receiver, the delivery worker and the poll, composed into one part.
// Together they make stored state match the booking service, whatever webhooks arrive.
import type { Context } from '../context.ts';
import type { Part } from '../part.ts';
import { readerOptions } from '../core/reader.ts';
import { DeliveryStore } from '../store/delivery-store.ts';
import { DeliveryWriter } from '../store/delivery-writer.ts';
import { RejectionStore } from '../store/rejection-store.ts';
import { startCheckpointer, type Checkpointer } from '../store/checkpointer.ts';
import { webhookRoutes, type RejectedRequest } from '../http/webhook-routes.ts';
import { BookingHealth } from './booking-health.ts';
import { createIngestMetrics } from './ingest-metrics.ts';
import { createDeliveryWorker } from './delivery-worker.ts';
import { createPollJob } from './poll.ts';
import { PollHistory } from './poll-history.ts';
import { ingestReadiness, ingestStatus, type IngestStatusDeps } from './ingest-status.ts';

// Unauthenticated callers are only counted: a stranger guessing secrets never causes a write.
const UNAUTHENTICATED = new Set(['wrong_secret', 'unauthorized']);

export function createIngestPart(ctx: Context): Part {
  const log = ctx.log.child({ module: 'ingest' });
  const deliveries = new DeliveryStore(ctx.db);
  const rejections = new RejectionStore(ctx.db);
  const health = new BookingHealth(ctx.cursors, ctx.clock);
  const history = new PollHistory(ctx.cursors);
  const metrics = createIngestMetrics(ctx.metrics);
  const writer = new DeliveryWriter(deliveries, { onStored: () => ctx.wake('deliveries') });
  const apply = { appointments: ctx.appointments, reader: readerOptions(ctx.config.booking), filters: ctx.config.poll.filters };
  const common = { ...apply, booking: ctx.booking, deliveries, health, metrics, clock: ctx.clock, log };

  const onRejected = (r: RejectedRequest): void => {
    metrics.received.inc({ outcome: r.reason });
    if (UNAUTHENTICATED.has(r.reason)) {
      log.debug({ reason: r.reason, status: r.status }, 'webhook rejected');
      return;
    }
    log.warn({ reason: r.reason, status: r.status, detail: r.detail, contentType: r.contentType }, 'webhook rejected');
    try {
      rejections.record({ ...r, at: ctx.clock.now() });
    } catch (e) {
      log.warn({ err: e }, 'could not keep the rejected webhook sample');
    }
  };

  let checkpointer: Checkpointer | undefined;

  const statusDeps: IngestStatusDeps = {
    clock: ctx.clock,
    appointments: ctx.appointments,
    deliveries,
    rejections,
    health,
    history,
    pollSchedule: ctx.config.poll.schedule,
  };

  return {
    name: 'ingest',
    routes(app) {
      webhookRoutes(app, {
        secret: ctx.config.webhook.secret,
        previousSecret: ctx.config.webhook.previous_secret,
        authToken: ctx.config.webhook.auth_token,
        write: (d) => writer.write(d),
        clock: ctx.clock,
        log,
        onRejected,
        onAccepted: (outcome) => metrics.received.inc({ outcome }),
      });
    },
    // `sync` runs them in this order: the poll brings the window up to date, then deliveries.
    jobs: [
      createPollJob({ ...common, history, poll: ctx.config.poll, timezone: ctx.config.booking.timezone }),
      createDeliveryWorker(common),
    ],
    async start() {
      // serve only: keep WAL checkpoints (page copies, fsync) out of the receiver's commits.
      checkpointer = startCheckpointer(ctx.db, { log });
      // Catch up at once: what changed while we were down, and deliveries stored before a crash.
      ctx.wake('poll');
      ctx.wake('deliveries');
    },
    async stop() {
      writer.flush();
      await checkpointer?.stop();
      checkpointer = undefined;
    },
    status: () => ingestStatus(statusDeps),
    readiness: () => ingestReadiness(statusDeps),
  };
}
