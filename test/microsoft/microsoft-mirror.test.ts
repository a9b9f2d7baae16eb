// The Outlook mirror end to end in one process: the booking simulator and the Graph simulator over
// HTTP, a real database, and the runtime `serve` builds, its Microsoft jobs run explicitly. Exactly
// one event per appointment under faults, no writes on a repeat pass, and a person's move or
// deletion in Outlook carried back as the mirror rules say.
import { DateTime } from 'luxon';
import { afterEach, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/booking/simulator/index.ts';
import { systemClock } from '../../src/core/clock.ts';
import type { JobName } from '../../src/jobs/job.ts';
import { KEY_PROPERTY } from '../../src/microsoft/graph-event.ts';
import { startGraphSimulator, type GraphSimulator, type SimulatedEvent } from '../../src/microsoft/simulator/index.ts';
import { createTestContext, testConfig, type TestContext } from '../helpers/context.ts';
import { simulatorClient, startTestSimulator, TEST_ZONE } from '../helpers/simulator.ts';
import { CLIENT_ID, CLIENT_SECRET, H, MAILBOX, TENANT } from './env.ts';

interface Env {
  sim: Simulator;
  graph: GraphSimulator;
  t: TestContext;
  run(job: JobName): Promise<unknown>;
  settle(rounds?: number): Promise<void>;
  events(): SimulatedEvent[];
  eventOf(key: string): SimulatedEvent | undefined;
  patches(key?: string): number;
  status(): Record<string, any>;
  close(): Promise<void>;
}

/** Tomorrow 09:00 in the booking zone, plus `hours`. */
const slot = (hours: number) => DateTime.now().setZone(TEST_ZONE).plus({ days: 1 }).set({ hour: 9, minute: 0, second: 0, millisecond: 0 }).toMillis() + hours * H;

async function start(reverse: Record<string, unknown> = {}): Promise<Env> {
  const sim = await startTestSimulator();
  const graph = await startGraphSimulator({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, mailboxes: [MAILBOX], retryAfterSeconds: 0 });
  const config = testConfig({
    booking: { base_url: sim.url, token: sim.token, timezone: TEST_ZONE },
    microsoft: {
      tenant: TENANT,
      credentials: { client_id: CLIENT_ID, client_secret: CLIENT_SECRET },
      authority_url: graph.authorityUrl,
      graph_root: graph.graphRoot,
      calendars: [{ calendar_key: '*', user: MAILBOX, calendar: 'Calendar' }],
      requests_per_minute: 1000,
      reverse_sync: { schedule: '0 0 1 1 *', ...reverse },
    },
  });
  const t = createTestContext({
    config,
    booking: simulatorClient(sim),
    clock: systemClock,
    tuning: { microsoftRetry: { retries: 3, baseMs: 1, maxMs: 5 }, microsoftItemBackoff: { baseMs: 0, maxMs: 0 } },
  });
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
    patches: (key) => sim.requests.filter((r) => r.method === 'PATCH' && r.path.endsWith('/reschedule/') && (!key || r.path.includes(key))).length,
    status: () => t.runtime.status().microsoft as Record<string, any>,
    async close() {
      await t.runtime.scheduler.stop();
      await t.close();
      await sim.close();
      await graph.close();
    },
  };
}

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe('the Outlook mirror', () => {
  it('with 30 % faults (before and after applying), exactly one event per appointment; a repeat pass writes nothing', async () => {
    env = await start();
    const keys = Array.from({ length: 30 }, (_, i) => env!.sim.create({ start: slot(i % 8) }).appointment_key);
    env.graph.setFaults({ rate: 0.3, kinds: [429, 503, 500, 'network'], after: true });
    await env.run('poll');
    for (let pass = 0; pass < 30 && env.status().pending > 0; pass++) await env.run('microsoft-writer');
    env.graph.setFaults(null);
    expect(env.status().pending).toBe(0);
    const byKey = new Map<string, number>();
    for (const e of env.events()) {
      const key = e.extended.find((p) => p.id === KEY_PROPERTY)!.value;
      byKey.set(key, (byKey.get(key) ?? 0) + 1);
    }
    expect([...byKey.keys()].sort()).toEqual([...keys].sort());
    expect([...byKey.values()].every((n) => n === 1)).toBe(true);
    expect(env.graph.log.some((r) => r.fault !== undefined)).toBe(true);

    env.graph.resetLog();
    await env.settle(2);
    expect(env.graph.writes()).toBe(0);
    expect(env.graph.counts()).toMatchObject({ create: 0, patch: 0, delete: 0 });
  });

  it('a move in Outlook becomes exactly one reschedule, and no write follows it', async () => {
    env = await start();
    const key = env.sim.create({ start: slot(0) }).appointment_key;
    await env.settle(1);
    expect(env.eventOf(key)?.start).toBe(slot(0));
    await env.run('microsoft-reverse-sync'); // the cursor now follows our own writes
    env.graph.mailbox().userEdit(env.eventOf(key)!.id, { start: slot(3), end: slot(4) });
    env.graph.resetLog();

    await env.settle(3);
    expect(env.patches(key)).toBe(1);
    expect(env.sim.get(key)?.start).toBe(slot(3));
    expect(env.eventOf(key)?.start).toBe(slot(3));
    expect(env.events()).toHaveLength(1);
    // At most one write: the booking service's record of the new time in the event's text, nothing more.
    expect(env.graph.writes()).toBeLessThanOrEqual(1);
    expect(env.status().reverse_sync).toMatchObject({ moves_detected: 1, reschedules: { done: 1, reverted: 0, pending: 0 } });
  });

  it('a move onto a taken slot is moved back, with no reschedule', async () => {
    env = await start();
    const key = env.sim.create({ start: slot(0) }).appointment_key;
    env.sim.create({ start: slot(3) });
    await env.settle(1);
    await env.run('microsoft-reverse-sync');
    env.graph.mailbox().userEdit(env.eventOf(key)!.id, { start: slot(3), end: slot(4) });
    await env.settle(3);
    expect(env.patches(key)).toBe(0);
    expect(env.eventOf(key)?.start).toBe(slot(0));
  });

  it('a deletion in Outlook follows on_delete: recreate puts it back, cancel cancels at the booking service', async () => {
    env = await start();
    const key = env.sim.create({ start: slot(0) }).appointment_key;
    await env.settle(1);
    await env.run('microsoft-reverse-sync');
    env.graph.mailbox().userDelete(env.eventOf(key)!.id);
    await env.settle(2);
    expect(env.events()).toHaveLength(1);
    expect(env.eventOf(key)?.start).toBe(slot(0));
    await env.close();

    env = await start({ on_delete: 'cancel' });
    const other = env.sim.create({ start: slot(1) }).appointment_key;
    await env.settle(1);
    await env.run('microsoft-reverse-sync');
    env.graph.mailbox().userDelete(env.eventOf(other)!.id);
    await env.settle(2);
    expect(env.sim.requests.some((r) => r.method === 'DELETE' && r.path.includes(other))).toBe(true);
    expect(env.events()).toHaveLength(0);
  });
});
