// Ingest inside the whole runtime: /api/status carries the ingest section, /readyz follows the
// booking API, and `sync`'s order (poll, then deliveries) is what the part lists.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRuntime, type Runtime } from '../../src/wiring/runtime.ts';
import type { Simulator } from '../../src/booking/simulator/index.ts';
import { silentLogger } from '../../src/log.ts';
import { testConfig, TEST_WEBHOOK_SECRET } from '../helpers/context.ts';
import { simulatorClient, startTestSimulator } from '../helpers/simulator.ts';

let sim: Simulator | undefined;
let runtime: Runtime | undefined;
let dir: string | undefined;
afterEach(async () => {
  await runtime?.close();
  await sim?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  runtime = sim = dir = undefined;
});

async function start(adminToken?: string) {
  sim = await startTestSimulator();
  dir = mkdtempSync(join(tmpdir(), 'calbridge-ingest-'));
  const config = testConfig({
    server: { host: '127.0.0.1', port: 0, public_url: 'http://127.0.0.1:8080', admin_token: adminToken },
    database: { path: join(dir, 'db.sqlite') },
    booking: { base_url: sim.url, token: sim.token },
  });
  runtime = await buildRuntime(config, { log: silentLogger(), processMetrics: false, booking: simulatorClient(sim) });
  return runtime;
}

describe('ingest in the runtime', () => {
  it('is ready once started, warning until the booking API has answered; /api/status shows the ingest section', async () => {
    const rt = await start('admin-token-0123456789');
    sim!.create({ start: Date.now() + 86_400_000 });
    const starting = await rt.app.request('/readyz');
    expect(starting.status).toBe(503);
    expect(((await starting.json()) as { reasons: string[] }).reasons.join(' ')).toMatch(/^starting/);

    rt.lifecycle.set('serving'); // what `serve` does once its schedules run
    const before = await rt.app.request('/readyz');
    expect(before.status).toBe(200);
    expect(((await before.json()) as { warnings: string[] }).warnings.join(' ')).toMatch(
      /the booking API has not answered successfully yet/,
    );

    const ingest = rt.parts.find((p) => p.name === 'ingest');
    expect(ingest?.jobs?.map((j) => j.name)).toEqual(['poll', 'deliveries']);
    expect((await rt.scheduler.runNow('poll')).status).toBe('success');
    const after = await rt.app.request('/readyz');
    expect(after.status).toBe(200);
    expect(await after.json()).toEqual({ ready: true, reasons: [], warnings: [] });

    expect((await rt.app.request('/api/status')).status).toBe(401);
    const res = await rt.app.request('/api/status', { headers: { authorization: 'Bearer admin-token-0123456789' } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      ingest: { appointments: { total: number }; poll: { last: { outcome: string; listed: number } }; deliveries: { pending: number } };
    };
    expect(body.ingest.appointments.total).toBe(1);
    expect(body.ingest.poll.last).toMatchObject({ outcome: 'success', listed: 1 });
    expect(body.ingest.deliveries.pending).toBe(0);
  });

  it('counts webhook outcomes and poll runs in /metrics', async () => {
    const rt = await start();
    const a = sim!.create();
    const post = (body: unknown) =>
      rt.app.request(`/webhooks/${TEST_WEBHOOK_SECRET}/`, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
    await post({ event: 'appointment.created', data: { appointment_key: a.appointment_key } });
    await post({ event: 'appointment.created', data: { appointment_key: a.appointment_key } });
    await post([1]);
    await rt.scheduler.runNow('deliveries');
    await rt.scheduler.runNow('poll');
    const text = await (await rt.app.request('/metrics')).text();
    expect(text).toMatch(/calbridge_webhook_requests_total\{outcome="stored"\} 1/);
    expect(text).toMatch(/calbridge_webhook_requests_total\{outcome="duplicate"\} 1/);
    expect(text).toMatch(/calbridge_webhook_requests_total\{outcome="not_a_notification"\} 1/);
    expect(text).toMatch(/calbridge_deliveries_processed_total\{outcome="changed"\} 1/);
    // 2 when the repeat arrived after the worker (woken by the first) had asked: it is read once more.
    expect(text).toMatch(/calbridge_delivery_lag_seconds_count [12]\n/);
    expect(text).toMatch(/calbridge_poll_runs_total\{outcome="success"\} 1/);
    expect(text).toMatch(/calbridge_poll_duration_seconds_count\{outcome="success"\} 1/);
  });
});

describe('ingest in the runtime: WAL checkpoints', () => {
  it('leaves them to SQLite through a first import, and hands them to the thread once webhooks flood in', async () => {
    const rt = await start();
    const ingest = rt.parts.find((p) => p.name === 'ingest')!;
    await ingest.start?.(); // as serve does
    const autocheckpoint = () => rt.services.db.pragma('wal_autocheckpoint', { simple: true });
    for (let i = 0; i < 600; i++) sim!.create({ start: Date.now() + 86_400_000 + i * 3_600_000 });
    expect((await rt.scheduler.runNow('poll')).status).toBe('success');
    expect(autocheckpoint()).toBe(1000); // an import is not a flood: no thread
    const post = (n: number) =>
      rt.app.request(`/webhooks/${TEST_WEBHOOK_SECRET}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ event: 'appointment.updated', data: { appointment_key: `flood-${n}` } }),
      });
    const answers = await Promise.all(Array.from({ length: 120 }, (_, n) => post(n)));
    expect(answers.every((r) => r.status === 200)).toBe(true);
    expect(autocheckpoint()).toBe(0); // the thread checkpoints now
  });
});
