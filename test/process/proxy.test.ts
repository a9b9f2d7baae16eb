// `serve` behind a plain reverse proxy on the same host that adds no header (as nginx's default
// proxy_pass does: it even names the upstream, a loopback address, in Host). To the daemon such a
// request is a loopback caller in every way, so the status pages must not open to it without the token.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calbridgeProcesses } from '../helpers/calbridge-process.ts';

const calbridge = calbridgeProcesses();
const ADMIN_TOKEN = 'proxy-test-admin-token-0123456789';
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Forwards method, path, headers and body to `target` and the answer back; adds nothing, Host becomes the upstream's. */
async function startProxy(target: URL): Promise<string> {
  const server: Server = createServer((req, res) => {
    const headers = { ...req.headers };
    delete headers.host; // the client sets the upstream's, as a proxy_pass to 127.0.0.1 does
    delete headers.connection;
    const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise<void>((r) => server.close(() => r())).then(() => server.closeAllConnections()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function serveBehindProxy(server: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-proxy-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'config.yaml');
  writeFileSync(
    file,
    `server: { host: 127.0.0.1, port: 0, public_url: "https://calendar.example.com"${server} }
database: { path: calbridge.db }
booking: { base_url: "http://127.0.0.1:9", token: proxy-test-booking-token-0123 }
webhook: { secret: proxy-test-webhook-secret-0123456, register: false }
poll: { schedule: "0 0 1 1 *" }
feeds: [{ name: Clinic, token: proxy-test-feed-token-0123456789 }]
`,
  );
  const serve = calbridge.spawn(['serve', '--config', file]);
  return startProxy(new URL(await serve.listening()));
}

const status = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers }).then((r) => r.status);
const basic = (password: string) => `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;

describe('behind a reverse proxy that adds no header', () => {
  it('a proxy that adds no header does not open /status or /api/status when no admin_token is set', async () => {
    const proxy = await serveBehindProxy('');
    expect(await status(`${proxy}/healthz`)).toBe(200); // the proxy does reach the daemon
    expect(await status(`${proxy}/status`)).toBe(401);
    expect(await status(`${proxy}/api/status`)).toBe(401);
  });

  it('a proxy that adds no header does not open them with admin_token set either; the token does', async () => {
    const proxy = await serveBehindProxy(`, admin_token: ${ADMIN_TOKEN}`);
    expect(await status(`${proxy}/status`)).toBe(401);
    expect(await status(`${proxy}/api/status`)).toBe(401);
    expect(await status(`${proxy}/api/status`, { authorization: `Bearer ${ADMIN_TOKEN}` })).toBe(200);
    expect(await status(`${proxy}/status`, { authorization: basic(ADMIN_TOKEN) })).toBe(200);
  });
});
