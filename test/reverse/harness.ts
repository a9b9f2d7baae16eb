// The whole loop in one process, over real HTTP: the booking simulator (its webhooks delivered to
// our receiver), the fake Google driven by the real googleapis client (its push notifications too),
// a real database, and the runtime serve builds (ingest, feeds, Google, reverse sync) with its
// real Scheduler, through the same builder.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { listen as listenHono } from '../../src/net/hono-server.ts';
import { DateTime } from 'luxon';
import type { Simulator } from '../../src/booking/simulator/index.ts';
import { systemClock, type Clock } from '../../src/core/clock.ts';
import { eventIdFor } from '../../src/core/event-id.ts';
import type { JobName, JobResult } from '../../src/jobs/job.ts';
import type { Scheduler } from '../../src/jobs/scheduler.ts';
import type { Part } from '../../src/wiring/part.ts';
import {
  startGoogleSimulator,
  type SimulatedEvent,
  type GoogleSimulator,
  type GoogleSimulatorOptions,
} from '../../src/google/simulator/index.ts';
import { createTestContext, testConfig, TEST_WEBHOOK_SECRET, type TestContext } from '../helpers/context.ts';
import { simulatorClient, startTestSimulator, TEST_ZONE } from '../helpers/simulator.ts';
import { slot } from '../helpers/slot.ts';
import type { StatusDocument } from '../../src/status/status-document.ts';
import { CLIENT, googleSection } from '../google/google-env.ts';

export const CAL = 'primary';
const PUBLIC_URL = 'https://calbridge.test';
const FEED_TOKEN = 'reverse-sync-feed-token-0123456789';

export interface ReverseEnv {
  sim: Simulator;
  fake: GoogleSimulator;
  t: TestContext;
  parts: Part[];
  scheduler: Scheduler;
  /** Where the daemon's HTTP app listens (webhooks, push notifications, feeds). */
  url: string;
  run(job: JobName): Promise<JobResult>;
  /** Successful event writes Google received (a 412 writes nothing). */
  googleWrites(): number;
  /** Polls the booking service and writes Google until nothing is left to do. */
  settle(rounds?: number): Promise<void>;
  eventOf(key: string): SimulatedEvent | undefined;
  moveInGoogle(key: string, start: number): void;
  deleteInGoogle(key: string): void;
  reschedulePatches(key?: string): number;
  status(): StatusDocument;
  close(): Promise<void>;
}

export interface ReverseEnvOptions {
  reverse?: Record<string, unknown>;
  google?: Record<string, unknown>;
  fake?: GoogleSimulatorOptions;
  /** Deliver the simulator's webhooks to our receiver (default true). */
  webhooks?: boolean;
  clock?: Clock;
  /** Backoff of an appointment whose write failed (default: none, retried on the next pass). */
  itemBackoff?: { baseMs: number; maxMs: number };
}

export { slot };

export async function startReverseEnv(options: ReverseEnvOptions = {}): Promise<ReverseEnv> {
  let appFetch: (r: Request) => Response | Promise<Response> = () => new Response('starting', { status: 503 });
  const server: Server = await listenHono((r) => appFetch(r), { port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const local = (address: string) => address.replace(PUBLIC_URL, url);
  const sim = await startTestSimulator({ notify: { deliver: options.webhooks ?? true, rewriteCallback: local } });
  sim.addWebhook(`${PUBLIC_URL}/webhooks/${TEST_WEBHOOK_SECRET}/`, ['appointment.created', 'appointment.updated', 'appointment.canceled']);
  const fake = await startGoogleSimulator({
    clientId: CLIENT.client_id,
    clientSecret: CLIENT.client_secret,
    pushAddress: local,
    ...options.fake,
  });
  const config = testConfig({
    server: { host: '127.0.0.1', port: 0, public_url: PUBLIC_URL },
    booking: { base_url: sim.url, token: sim.token, timezone: TEST_ZONE },
    google: googleSection(fake, { ...options.google, reverse_sync: { schedule: '0 0 1 1 *', ...options.reverse } }),
    feeds: [{ name: 'Clinic', token: FEED_TOKEN }],
  });
  const fast = { retries: 3, baseMs: 2, maxMs: 20 };
  const t = createTestContext({
    config,
    booking: simulatorClient(sim),
    clock: options.clock ?? systemClock,
    runJobs: true,
    tuning: { googleRetry: fast, googleItemBackoff: options.itemBackoff ?? { baseMs: 0, maxMs: 0 } },
  });
  const { parts, scheduler: sched, status } = t.runtime;
  appFetch = (r) => t.runtime.app.fetch(r);
  const run = (job: JobName) => sched.runNow(job);

  const env: ReverseEnv = {
    sim,
    fake,
    t,
    parts,
    scheduler: sched,
    url,
    run,
    async settle(rounds = 3) {
      await sim.idle();
      await run('poll');
      for (let i = 0; i < rounds; i++) {
        await sim.idle();
        await run('deliveries');
        await run('google-writer');
        await run('google-reverse-sync');
        await run('google-reschedules');
        await run('google-writer');
      }
    },
    eventOf: (key) => fake.events(CAL, { includeDeleted: true }).find((e) => e.id === eventIdFor(key)),
    moveInGoogle(key, start) {
      const ev = env.eventOf(key);
      if (!ev?.start?.dateTime || !ev.end?.dateTime) throw new Error(`no timed event for ${key}`);
      const duration = Date.parse(ev.end.dateTime) - Date.parse(ev.start.dateTime);
      const at = (ms: number) => ({ dateTime: DateTime.fromMillis(ms, { zone: TEST_ZONE }).toISO()!, timeZone: TEST_ZONE });
      fake.state.userEdit(CAL, ev.id, { start: at(start), end: at(start + duration) });
    },
    deleteInGoogle: (key) => fake.state.userDelete(CAL, eventIdFor(key)),
    reschedulePatches: (key) =>
      sim.requests.filter((r) => r.method === 'PATCH' && r.path.endsWith('/reschedule/') && (!key || r.path.includes(key))).length,
    googleWrites: () =>
      fake.log.filter((r) => ['insert', 'update', 'patch', 'delete'].includes(r.kind) && r.status >= 200 && r.status < 300).length,
    status,
    async close() {
      await sched.stop();
      await sim.idle().catch(() => undefined);
      await new Promise<void>((r) => {
        server.close(() => r());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await sim.close();
      await fake.close();
      await t.close();
    },
  };
  return env;
}

/** Google's start of an event as epoch ms. */
export const googleStart = (ev: SimulatedEvent | undefined): number | null => (ev?.start?.dateTime ? Date.parse(ev.start.dateTime) : null);

/** An appointment at slot(0), written to Google and seen by a first reverse round: everyone agrees. */
export async function agreedAppointment(e: ReverseEnv): Promise<string> {
  const key = e.sim.create({ start: slot(0) }).appointment_key;
  await e.settle(1);
  await e.run('google-reverse-sync');
  return key;
}

/** A change just made at the booking service, delivered to us by its webhook and written to Google. */
export async function deliverAndWrite(e: ReverseEnv): Promise<void> {
  await e.sim.idle();
  await e.run('deliveries');
  await e.run('google-writer');
}
