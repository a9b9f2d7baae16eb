// Two Microsoft accounts (app-only, two mailboxes) on the Graph simulator, through the runtime
// `serve` builds, with Graph change notifications on: each mailbox holds exactly its account's
// appointments, each account subscribes its own calendar through the handshake, and a move in one
// mailbox reaches the booking service through the shared notification route, woken on that account.
import { afterEach, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.ts';
import { KEY_PROPERTY } from '../../src/microsoft/graph-event.ts';
import { startGraphSimulator, type SimulatedEvent } from '../../src/microsoft/simulator/index.ts';
import { listen, portOf } from '../../src/net/hono-server.ts';
import { createTestContext, testConfig } from '../helpers/context.ts';
import { simulatorClient, startTestSimulator, TEST_ZONE } from '../helpers/simulator.ts';
import { slot } from '../helpers/slot.ts';
import { CLIENT_ID, CLIENT_SECRET, TENANT } from '../microsoft/env.ts';

const PUBLIC_URL = 'https://calbridge.test';
const ANA = 'ana@clinic.example';
const CARLA = 'carla@clinic.example';
const K_ANA = 'a0000000-0000-4000-a000-000000000001';
const K_CARLA = 'b0000000-0000-4000-a000-000000000002';

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const keyOf = (e: SimulatedEvent) => e.extended.find((p) => p.id === KEY_PROPERTY)?.value;

it('two Microsoft accounts: each mailbox holds its own, each subscribes its calendar, a move comes back through the shared route', async () => {
  let appFetch: (r: Request) => Response | Promise<Response> = () => new Response('starting', { status: 503 });
  const server = await listen((r) => appFetch(r), { port: 0, host: '127.0.0.1' });
  closers.push(() => new Promise((r) => server.close(r)));
  const sim = await startTestSimulator();
  closers.push(() => sim.close());
  const graph = await startGraphSimulator({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    mailboxes: [ANA, CARLA],
    retryAfterSeconds: 0,
    pushAddress: (u) => u.replace(PUBLIC_URL, `http://127.0.0.1:${portOf(server)}`),
  });
  closers.push(() => graph.close());
  for (let i = 0; i < 6; i++) {
    sim.create({ appointment_key: `apt-${i}`, start: slot(2 * i), calendar: { calendar_key: i % 2 ? K_CARLA : K_ANA, name: 'x' } });
  }
  const account = (name: string, key: string, user: string) => ({
    name,
    credentials: { client_id: CLIENT_ID, client_secret: CLIENT_SECRET },
    calendars: [{ calendar_key: key, user, calendar: 'Calendar' }],
  });
  const t = createTestContext({
    config: testConfig({
      server: { host: '127.0.0.1', port: 0, public_url: PUBLIC_URL },
      booking: { base_url: sim.url, token: sim.token, timezone: TEST_ZONE },
      microsoft: {
        tenant: TENANT,
        authority_url: graph.authorityUrl,
        graph_root: graph.graphRoot,
        requests_per_minute: 1000,
        reverse_sync: { schedule: '0 0 1 1 *', push_notifications: true },
        accounts: [account('ana', K_ANA, ANA), account('carla', K_CARLA, CARLA)],
      },
    }),
    booking: simulatorClient(sim),
    clock: systemClock,
    // A wake runs the job, as in serve: a notification's wake reaches the reverse sync.
    runJobs: true,
    tuning: { microsoftRetry: { retries: 3, baseMs: 1, maxMs: 5 }, microsoftItemBackoff: { baseMs: 0, maxMs: 0 } },
  });
  closers.push(async () => {
    await t.runtime.scheduler.stop();
    await t.close();
  });
  appFetch = (r) => t.runtime.app.fetch(r);
  const run = (job: Parameters<typeof t.runtime.scheduler.runNow>[0]) => t.runtime.scheduler.runNow(job);

  await run('poll');
  await t.runtime.scheduler.idle();
  await run('microsoft.ana-writer');
  await run('microsoft.carla-writer');
  const held = (mailbox: string) => [...graph.mailbox(mailbox).events.values()].map(keyOf).sort();
  expect(held(ANA)).toEqual(['apt-0', 'apt-2', 'apt-4']);
  expect(held(CARLA)).toEqual(['apt-1', 'apt-3', 'apt-5']);

  await run('microsoft.ana-subscriptions');
  await run('microsoft.carla-subscriptions');
  const subs = [...graph.subscriptions.all.values()];
  expect(subs).toHaveLength(2);
  expect(subs.every((s) => s.notificationUrl === `${PUBLIC_URL}/microsoft/notifications`)).toBe(true);
  expect(graph.subscriptions.deliveries.filter((d) => d.kind === 'validation').map((d) => d.status)).toEqual([200, 200, 200, 200]);
  const status = t.runtime.status().targets;
  for (const id of ['microsoft.ana', 'microsoft.carla']) {
    expect(status[id]).toMatchObject({ account: id, mirrored: 3 });
    const rs = status[id]!.reverse_sync;
    expect(rs.enabled && rs.push).toMatchObject({ enabled: true, channels_active: 1 });
  }
  await run('microsoft.ana-reverse-sync');
  await run('microsoft.carla-reverse-sync');
  await t.runtime.scheduler.idle();

  // Carla moves apt-3 in Outlook: Graph notifies, the shared route finds Carla's subscription, her
  // reverse sync reads the change and the booking service gets one reschedule.
  t.runtime.scheduler.start();
  const event = [...graph.mailbox(CARLA).events.values()].find((e) => keyOf(e) === 'apt-3')!;
  graph.mailbox(CARLA).userEdit(event.id, { start: slot(20), end: slot(21) });
  const patches = () => sim.requests.filter((r) => r.method === 'PATCH' && r.path.includes('apt-3')).length;
  const t0 = Date.now();
  while (patches() === 0 && Date.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 10));
  expect(patches()).toBe(1);
  expect(sim.get('apt-3')!.start).toBe(slot(20));
  await t.runtime.scheduler.idle();
  expect(held(ANA)).toEqual(['apt-0', 'apt-2', 'apt-4']);
  expect(held(CARLA)).toEqual(['apt-1', 'apt-3', 'apt-5']);
});
