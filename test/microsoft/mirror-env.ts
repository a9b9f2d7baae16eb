// The Outlook mirror in one process: the booking simulator and the Graph simulator over HTTP, a real
// database, and the runtime `serve` builds, its Microsoft jobs run explicitly (or, with push, woken
// by Graph's notifications through the daemon's own routes). Used by the tests and the bench.
import type { Simulator } from '../../src/booking/simulator/index.ts';
import { systemClock } from '../../src/core/clock.ts';
import type { JobName } from '../../src/jobs/job.ts';
import { KEY_PROPERTY } from '../../src/microsoft/graph-event.ts';
import {
  startGraphSimulator,
  type GraphSimulator,
  type GraphSimulatorOptions,
  type SimulatedEvent,
} from '../../src/microsoft/simulator/index.ts';
import { listen, portOf } from '../../src/net/hono-server.ts';
import type { TargetSection } from '../../src/status/status-document.ts';
import { createTestContext, testConfig, type TestContext } from '../helpers/context.ts';
import { simulatorClient, startTestSimulator, TEST_ZONE } from '../helpers/simulator.ts';
import { CLIENT_ID, CLIENT_SECRET, MAILBOX, TENANT } from './env.ts';

export interface MirrorOptions {
  reverse?: Record<string, unknown>;
  /** Graph change notifications through the daemon's listening app (jobs then run when woken). */
  push?: boolean;
  /** microsoft.requests_per_minute (default 1000). */
  rpm?: number;
  graph?: GraphSimulatorOptions;
  /** On top of the config's server section (an admin token, to read the pages). */
  server?: Record<string, unknown>;
}

export interface Env {
  sim: Simulator;
  graph: GraphSimulator;
  t: TestContext;
  run(job: JobName): Promise<unknown>;
  settle(rounds?: number): Promise<void>;
  events(): SimulatedEvent[];
  eventOf(key: string): SimulatedEvent | undefined;
  patches(key?: string): number;
  status(): TargetSection;
  close(): Promise<void>;
}

export { slot } from '../helpers/slot.ts';

export const PUBLIC_URL = 'https://calbridge.test';

export async function startMirror(o: MirrorOptions = {}): Promise<Env> {
  const reverse = o.reverse ?? {};
  // With push, the daemon's app listens, and Graph's deliveries to the public https address reach it.
  let appFetch: (r: Request) => Response | Promise<Response> = () => new Response('starting', { status: 503 });
  const server = o.push ? await listen((r) => appFetch(r), { port: 0, host: '127.0.0.1' }) : undefined;
  const local = (u: string) => (server ? u.replace(PUBLIC_URL, `http://127.0.0.1:${portOf(server)}`) : u);
  const sim = await startTestSimulator();
  const graph = await startGraphSimulator({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    mailboxes: [MAILBOX],
    retryAfterSeconds: 0,
    pushAddress: local,
    ...o.graph,
  });
  const config = testConfig({
    server: {
      host: '127.0.0.1',
      port: 0,
      public_url: o.push ? PUBLIC_URL : 'http://127.0.0.1:8080',
      ...o.server,
    },
    booking: { base_url: sim.url, token: sim.token, timezone: TEST_ZONE },
    microsoft: {
      tenant: TENANT,
      credentials: { client_id: CLIENT_ID, client_secret: CLIENT_SECRET },
      authority_url: graph.authorityUrl,
      graph_root: graph.graphRoot,
      calendars: [{ calendar_key: '*', user: MAILBOX, calendar: 'Calendar' }],
      requests_per_minute: o.rpm ?? 1000,
      reverse_sync: { schedule: '0 0 1 1 *', push_notifications: o.push ?? false, ...reverse },
    },
  });
  const t = createTestContext({
    config,
    booking: simulatorClient(sim),
    clock: systemClock,
    runJobs: o.push ?? false,
    tuning: { microsoftRetry: { retries: 3, baseMs: 1, maxMs: 5 }, microsoftItemBackoff: { baseMs: 0, maxMs: 0 } },
  });
  appFetch = (r) => t.runtime.app.fetch(r);
  const run = (job: JobName) => t.runtime.scheduler.runNow(job);
  const events = () => [...graph.mailbox().events.values()];
  const keyOf = (e: SimulatedEvent) => e.extended.find((p) => p.id === KEY_PROPERTY)?.value;
  return {
    sim,
    graph,
    t,
    run,
    async settle(rounds = 2) {
      await run('poll');
      for (let i = 0; i < rounds; i++) {
        await run('microsoft-writer');
        await run('microsoft-reverse-sync');
        await run('microsoft-reschedules');
        await run('microsoft-writer');
      }
    },
    events,
    eventOf: (key) => events().find((e) => keyOf(e) === key),
    patches: (key) =>
      sim.requests.filter((r) => r.method === 'PATCH' && r.path.endsWith('/reschedule/') && (!key || r.path.includes(key))).length,
    status: () => t.runtime.status().targets['microsoft.default']!,
    async close() {
      await t.runtime.scheduler.stop();
      await t.close();
      await sim.close();
      await graph.close();
      if (server) await new Promise((r) => server.close(r));
    },
  };
}
