import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/http/app.ts';
import { openDatabase, type Db } from '../../src/store/db.ts';
import { createMetrics } from '../../src/metrics.ts';
import { silentLogger } from '../../src/log.ts';
import type { Part } from '../../src/part.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function setup(options: { adminToken?: string; parts?: Part[] } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-app-'));
  const db: Db = openDatabase(join(dir, 'cb.db'));
  cleanups.push(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const app = createApp({
    db,
    log: silentLogger(),
    metrics: createMetrics({ processMetrics: false }),
    adminToken: options.adminToken,
    parts: options.parts ?? [],
    status: () => ({ hello: 'world' }),
  });
  return { app, db };
}

const basic = (password: string) => `Basic ${Buffer.from(`anyone:${password}`).toString('base64')}`;

describe('HTTP skeleton', () => {
  it('answers /healthz', async () => {
    const res = await setup().app.request('/healthz');
    expect(res.status).toBe(200);
  });

  it('is ready when the database is writable and no part objects', async () => {
    const res = await setup().app.request('/readyz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ready: true, reasons: [], warnings: [] });
  });

  it('is not ready when a part gives a reason, and shows warnings without failing', async () => {
    const parts: Part[] = [
      { name: 'a', readiness: () => ({ reasons: ['the booking API has not answered for 20 minutes'], warnings: [] }) },
      { name: 'b', readiness: () => ({ reasons: [], warnings: ['webhooks look silent'] }) },
    ];
    const res = await setup({ parts }).app.request('/readyz');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      ready: false,
      reasons: ['the booking API has not answered for 20 minutes'],
      warnings: ['webhooks look silent'],
    });
  });

  it('is not ready when the database cannot be written', async () => {
    const { app, db } = setup();
    db.pragma('query_only = ON');
    const res = await app.request('/readyz');
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
    expect(await bearer.json()).toEqual({ hello: 'world' });
    expect((await app.request('/api/status', { headers: { authorization: basic('admin-token-0123456789') } })).status).toBe(200);
    expect((await app.request('/api/status', { headers: { authorization: basic('nope') } })).status).toBe(401);
  });

  it('without an admin token, refuses callers that are not on loopback', async () => {
    const res = await setup().app.request('/api/status');
    expect(res.status).toBe(401);
  });

  it('answers unknown routes with 404', async () => {
    expect((await setup().app.request('/nope')).status).toBe(404);
  });
});

describe('loopback without an admin token', () => {
  it('lets a caller on this machine in, but not one relayed by a reverse proxy here', async () => {
    const { serve } = await import('@hono/node-server');
    const { app } = setup();
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((r) => server.once('listening', r));
    cleanups.push(() => server.close());
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/status`;
    expect((await fetch(url)).status).toBe(200);
    expect((await fetch(url, { headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(401);
    expect((await fetch(url, { headers: { forwarded: 'for=203.0.113.9' } })).status).toBe(401);
    expect((await fetch(url, { headers: { 'x-real-ip': '203.0.113.9' } })).status).toBe(401);
  });
});
