import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildRuntime, type Runtime } from '../../src/wiring/runtime.ts';
import { silentLogger } from '../../src/log.ts';
import { testConfig, unreachableBooking } from '../helpers/context.ts';
import { appointment } from './appointments.ts';
import { checkFeed } from './ics-assert.ts';

let runtime: Runtime | undefined;
let dir: string | undefined;
afterEach(async () => {
  await runtime?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  runtime = dir = undefined;
});

describe('the daemon', () => {
  it('serves configured feeds and reports them in status, without their tokens', async () => {
    dir = mkdtempSync(join(tmpdir(), 'calbridge-feeds-wiring-'));
    const token = 'wired-feed-token-0123456789';
    const config = testConfig({ database: { path: join(dir, 'db.sqlite') }, feeds: [{ name: 'Clinic', token }] });
    runtime = await buildRuntime(config, { log: silentLogger(), booking: unreachableBooking, processMetrics: false });
    runtime.services.appointments.upsert(appointment(1));
    const res = await runtime.app.request(`/feeds/${token}.ics`);
    expect(res.status).toBe(200);
    expect(checkFeed(await res.text()).map((e) => e.uid)).toEqual(['apt00001@calbridge']);
    const status = JSON.stringify(runtime.status());
    expect(status).toContain('"name":"Clinic"');
    expect(status).not.toContain(token);
    const metrics = await runtime.services.metrics.registry.metrics();
    expect(metrics).toMatch(/calbridge_feed_requests_total\{outcome="ok"\} 1/);
  });
});
