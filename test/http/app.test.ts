// The HTTP skeleton (createApp) with plain dependencies: the guards, health, /api/status, 404s.
// The runtime's own readiness (its database check) is tested through the builder at the end.
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/http/app.ts';
import { overallReadiness, type Readiness } from '../../src/core/readiness.ts';
import { createMetrics } from '../../src/metrics.ts';
import { silentLogger } from '../../src/log.ts';
import { statusFixture } from '../helpers/status-fixture.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';

let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

function setup(options: { adminToken?: string; shares?: Readiness[] } = {}) {
  const app = createApp({
    log: silentLogger(),
    metrics: createMetrics({ processMetrics: false }),
    adminToken: options.adminToken,
    status: () => statusFixture({ version: 'hello world' }),
    readiness: () => overallReadiness(options.shares ?? []),
    routes: [],
  });
  return { app };
}

const basic = (password: string) => `Basic ${Buffer.from(`anyone:${password}`).toString('base64')}`;

describe('HTTP skeleton', () => {
  it('answers /healthz', async () => {
    const res = await setup().app.request('/healthz');
    expect(res.status).toBe(200);
  });

  it('is ready when no part objects', async () => {
    const res = await setup().app.request('/readyz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ready: true, reasons: [], warnings: [] });
  });

  it('is not ready when a part gives a reason, and shows warnings without failing', async () => {
    const shares: Readiness[] = [
      { reasons: ['the booking API has not answered for 20 minutes'], warnings: [] },
      { reasons: [], warnings: [{ text: 'webhooks look silent' }] },
    ];
    const res = await setup({ shares }).app.request('/readyz');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      ready: false,
      reasons: ['the booking API has not answered for 20 minutes'],
      warnings: ['webhooks look silent'],
    });
  });

  it('is not ready when the database cannot be written (the runtime, as serve builds it)', async () => {
    t = createTestContext();
    t.runtime.lifecycle.set('serving');
    t.ctx.db.pragma('query_only = ON');
    const res = await t.runtime.app.request('/readyz');
    expect(res.status).toBe(503);
    expect(((await res.json()) as { reasons: string[] }).reasons[0]).toMatch(/database is not writable/);
  });

  it('serves Prometheus metrics', async () => {
    const res = await setup().app.request('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
  });

  it('guards /api/status with the admin token, as Bearer or Basic password', async () => {
    const { app } = setup({ adminToken: 'admin-token-0123456789' });
    expect((await app.request('/api/status')).status).toBe(401);
    expect((await app.request('/api/status', { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    const bearer = await app.request('/api/status', { headers: { authorization: 'Bearer admin-token-0123456789' } });
    expect(bearer.status).toBe(200);
    expect(await bearer.json()).toMatchObject({ version: 'hello world' });
    expect((await app.request('/api/status', { headers: { authorization: basic('admin-token-0123456789') } })).status).toBe(200);
    expect((await app.request('/api/status', { headers: { authorization: basic('nope') } })).status).toBe(401);
  });

  it('without an admin token, refuses every caller', async () => {
    const res = await setup().app.request('/api/status');
    expect(res.status).toBe(401);
  });

  it('answers unknown routes with 404', async () => {
    expect((await setup().app.request('/nope')).status).toBe(404);
  });
});
