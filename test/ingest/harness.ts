// The runtime (the same builder as serve) on a real database, its booking API the simulator over
// real HTTP; the ingest part's receiver answers through the runtime's app (app.request, no port).
import type { Hono } from 'hono';
import type { Simulator, SimulatorOptions } from '../../src/booking/simulator/index.ts';
import type { BookingApi } from '../../src/booking/port.ts';
import { systemClock, type Clock } from '../../src/core/clock.ts';
import type { Job, JobName } from '../../src/jobs/job.ts';
import type { Part } from '../../src/wiring/part.ts';
import { createTestContext, testConfig, TEST_WEBHOOK_SECRET, type TestContext } from '../helpers/context.ts';
import { simulatorClient, startTestSimulator } from '../helpers/simulator.ts';

export interface Harness {
  sim: Simulator;
  t: TestContext;
  part: Part;
  app: Hono;
  poll: Job;
  deliveries: Job;
  post(body: unknown): Promise<Response>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  config?: Record<string, unknown>;
  sim?: SimulatorOptions;
  clock?: Clock;
  /** Wraps the real client (a listing that loses records, a broken API). */
  booking?: (real: BookingApi) => BookingApi;
}

export async function ingestHarness(options: HarnessOptions = {}): Promise<Harness> {
  const sim = await startTestSimulator(options.sim);
  const overrides = options.config ?? {};
  const config = testConfig({
    ...overrides,
    booking: { base_url: sim.url, token: sim.token, timezone: 'America/Sao_Paulo', ...(overrides.booking as object | undefined) },
  });
  const real = simulatorClient(sim, { timezone: config.booking.timezone });
  // The simulator lives in real time; so does the part unless a test moves a clock by hand.
  const clock = options.clock ?? systemClock;
  const t = createTestContext({ config, booking: options.booking ? options.booking(real) : real, clock });
  const part = t.runtime.parts.find((p) => p.name === 'ingest')!;
  const app = t.runtime.app;
  const job = (name: JobName) => {
    const found = part.jobs?.find((j) => j.name === name);
    if (!found) throw new Error(`no job ${name}`);
    return found;
  };
  return {
    sim,
    t,
    part,
    app,
    poll: job('poll'),
    deliveries: job('deliveries'),
    post: async (body) =>
      app.request(`/webhooks/${TEST_WEBHOOK_SECRET}/`, {
        method: 'POST',
        body: typeof body === 'string' ? body : JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      }),
    async close() {
      await t.close();
      await sim.close();
    },
  };
}

/** The seed's envelope for a record the simulator shows now. */
export function envelopeFor(sim: Simulator, key: string, event = 'appointment.updated'): Record<string, unknown> {
  return { event, timestamp: new Date().toISOString(), data: sim.record(key) ?? { appointment_key: key } };
}
