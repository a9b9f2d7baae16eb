// Who may open /status, /api/status and /metrics (docs/reference/http.md, "Who may open the status"), over real loopback sockets: the
// loopback guard alone cannot be trusted, since a reverse proxy on this host that adds no header
// looks exactly like a local caller.
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { listen as listenHono } from '../../src/net/hono-server.ts';
import { createApp } from '../../src/http/app.ts';
import { accessWarnings, presentedToken } from '../../src/http/admin-auth.ts';
import { type ConfigError, parseConfig } from '../../src/config/load.ts';
import { createTestContext, testConfig, type TestContext } from '../helpers/context.ts';
import { statusFixture } from '../helpers/status-fixture.ts';
import { startLoggedDaemon } from './logged-daemon.ts';

const TOKEN = 'admin-token-0123456789abcdef';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function listen(access: { adminToken?: string; statusAuth?: 'token' | 'loopback'; metricsAuth?: boolean }): Promise<number> {
  const t: TestContext = createTestContext();
  const ready = () => ({ ready: true, reasons: [], warnings: [], notes: [] });
  const app = createApp({
    log: t.ctx.log,
    metrics: t.ctx.metrics,
    ...access,
    adminToken: access.adminToken,
    status: () => statusFixture(),
    readiness: ready,
    routes: [],
  });
  const server: Server = await listenHono(app.fetch, { port: 0, host: '127.0.0.1' });
  cleanups.push(() => t.close());
  cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
  return (server.address() as AddressInfo).port;
}

/** A GET with exactly these headers (fetch would not let a test choose Host). */
function get(port: number, path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject).end();
  });
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const basic = (password: string) => ({ authorization: `Basic ${Buffer.from(`anyone:${password}`).toString('base64')}` });

describe('without admin_token (status_auth: token, the default)', () => {
  it('a caller on this machine gets 401 on /status and /api/status: a local proxy that adds no header looks the same', async () => {
    const port = await listen({});
    expect(await get(port, '/status')).toBe(401);
    expect(await get(port, '/api/status')).toBe(401);
    expect(await get(port, '/api/anything')).toBe(401);
  });
});

describe('status_auth: loopback', () => {
  it('lets a caller on this machine in without a token, whatever the port in Host', async () => {
    const port = await listen({ statusAuth: 'loopback' });
    for (const host of [`localhost:${port}`, 'localhost', '127.0.0.1', `127.1.2.3:${port}`, `[::1]:${port}`, 'LOCALHOST:80']) {
      expect(await get(port, '/api/status', { host }), host).toBe(200);
    }
  });

  it.each([
    'forwarded',
    'x-forwarded-for',
    'x-forwarded-host',
    'x-forwarded-proto',
    'x-real-ip',
    'via',
    'cf-connecting-ip',
    'true-client-ip',
  ])('a request relayed by a proxy (it carries %s) does not get in', async (header) => {
    const port = await listen({ statusAuth: 'loopback' });
    expect(await get(port, '/api/status', { [header]: header === 'via' ? '1.1 proxy' : '203.0.113.9' })).toBe(401);
    expect(await get(port, '/status', { [header]: 'x' })).toBe(401);
  });

  it('DNS rebinding: a loopback peer that names another host does not get in', async () => {
    const port = await listen({ statusAuth: 'loopback' });
    for (const host of [
      `evil.example.com:${port}`,
      'calendar.example.com',
      '127.0.0.1.evil.example',
      'localhost.evil.example',
      '127.0.0.256',
      '10.0.0.1',
    ]) {
      expect(await get(port, '/api/status', { host }), host).toBe(401);
    }
  });

  it('still takes the admin token, from anywhere', async () => {
    const port = await listen({ adminToken: TOKEN, statusAuth: 'loopback' });
    expect(await get(port, '/api/status', { 'x-forwarded-for': '203.0.113.9' })).toBe(401);
    expect(await get(port, '/api/status', { 'x-forwarded-for': '203.0.113.9', ...bearer(TOKEN) })).toBe(200);
  });
});

describe('the admin token', () => {
  it('opens /status and /api/status to any caller as Bearer or as the Basic password, and nothing else does', async () => {
    const port = await listen({ adminToken: TOKEN });
    expect(await get(port, '/status')).toBe(401);
    expect(await get(port, '/api/status', { 'x-forwarded-for': '203.0.113.9', host: 'calendar.example.com', ...basic(TOKEN) })).toBe(200);
    expect(await get(port, '/api/status', bearer(TOKEN))).toBe(200);
    expect(await get(port, '/api/status', { authorization: `bearer   ${TOKEN}  ` })).toBe(200);
    for (const wrong of [
      bearer(`${TOKEN}x`),
      bearer(TOKEN.slice(1)),
      basic('nope'),
      { authorization: TOKEN },
      { authorization: `Token ${TOKEN}` },
    ]) {
      expect(await get(port, '/api/status', wrong)).toBe(401);
    }
  });

  it('a token with spaces inside matches as Bearer, where the first word alone never could', async () => {
    const spaced = 'correct horse battery staple';
    expect(presentedToken(`Bearer ${spaced}`)).toBe(spaced);
    const port = await listen({ adminToken: spaced });
    expect(await get(port, '/api/status', bearer(spaced))).toBe(200);
    expect(await get(port, '/api/status', basic(spaced))).toBe(200);
    expect(await get(port, '/api/status', bearer('correct'))).toBe(401);
  });

  it('reads the Basic password after the first colon, so a password may hold colons', () => {
    expect(presentedToken(basic('a:b:c-0123456789abcdef').authorization)).toBe('a:b:c-0123456789abcdef');
    expect(presentedToken('Basic !!!not-base64')).toBeUndefined();
    expect(presentedToken('Bearer')).toBeUndefined();
    expect(presentedToken(undefined)).toBeUndefined();
  });
});

describe('/metrics', () => {
  it('is open by default, so scrapers stay simple', async () => {
    const port = await listen({ adminToken: TOKEN });
    expect(await get(port, '/metrics', { 'x-forwarded-for': '203.0.113.9' })).toBe(200);
  });

  it('needs the admin token with metrics_auth', async () => {
    const port = await listen({ adminToken: TOKEN, metricsAuth: true });
    expect(await get(port, '/metrics')).toBe(401);
    expect(await get(port, '/metrics', bearer(TOKEN))).toBe(200);
    expect(await get(port, '/healthz')).toBe(200);
  });
});

describe('config', () => {
  const config = (server: string) =>
    `server: {public_url: "https://c.example.com", ${server}}\nbooking: {base_url: "https://b.example.com", token: t}\nwebhook: {secret: admin-test-secret-0123456789}\n`;
  const problems = (text: string) => {
    try {
      parseConfig(text, 'config.yaml', {});
      return [];
    } catch (e) {
      return (e as ConfigError).problems.map((p) => `${p.path}: ${p.message}`);
    }
  };

  it('refuses an admin_token under 16 characters, naming the key', () => {
    expect(problems(config('admin_token: short-token'))).toEqual([
      'server.admin_token: must be at least 16 characters (it is the only thing guarding this route)',
    ]);
    expect(problems(config(`admin_token: ${TOKEN}`))).toEqual([]);
  });

  it('refuses an admin_token that an HTTP header cannot carry (whitespace at an end)', () => {
    expect(problems(config('admin_token: "admin-token-0123456789 "'))).toEqual([
      'server.admin_token: must not start or end with whitespace or hold control characters (an HTTP header cannot carry them)',
    ]);
  });

  it('has status_auth token and metrics_auth off by default, and refuses other values', () => {
    expect(parseConfig(config(''), 'config.yaml', {}).server).toMatchObject({ status_auth: 'token', metrics_auth: false });
    expect(problems(config('status_auth: open'))[0]).toMatch(/^server\.status_auth: /);
  });
});

describe('startup warnings', () => {
  const server = (over: Record<string, unknown>) => testConfig({ server: over }).server;

  it('serve says at start when no one can open the status pages, and what to do', async () => {
    const d = await startLoggedDaemon({ server: { admin_token: undefined } });
    const line = await d.line((l) => l.level === 'warn' && l.msg.startsWith('server.admin_token is not set'));
    expect(line.msg).toMatch(/answer 401 to everyone; set it \(16 characters or more\)/);
  });

  it('warns differently when loopback mode listens beyond loopback, and not at all when set up safely', () => {
    expect(accessWarnings(server({ host: '0.0.0.0', status_auth: 'loopback' }))).toEqual([
      expect.stringMatching(/^server\.status_auth is loopback while the server listens on 0\.0\.0\.0: /),
    ]);
    expect(accessWarnings(server({ host: '127.0.0.1', status_auth: 'loopback' }))).toEqual([]);
    expect(accessWarnings(server({ host: '0.0.0.0', admin_token: TOKEN }))).toEqual([]);
    expect(accessWarnings(server({ metrics_auth: true }))).toHaveLength(2);
  });
});
