// Upstreams that quote our request back in an error (the body we sent, the header we sent): what
// the one-shot commands print never holds a configured secret, as serve's log lines never do. And a
// password written into a URL is masked wherever the config is shown.
import { afterEach, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliFolder } from '../helpers/cli-env.ts';
import { cli } from '../helpers/run-cli.ts';
import { startServer, type Misbehaving } from '../helpers/misbehaving.ts';
import { slot } from '../helpers/slot.ts';
import { redactStatus } from '../../src/http/status-page/redact.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function track(s: Promise<Misbehaving>): Promise<Misbehaving> {
  const started = await s;
  cleanups.push(() => started.close());
  return started;
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-echo-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const printed = (r: { out: string; err: string }) => `${r.out}\n${r.err}`;

it('webhooks ensure against a booking service that echoes our request in its error prints no webhook secret', async () => {
  const secret = 'echoed-webhook-secret-0123456789';
  const token = 'echoed-booking-token-0123456789';
  const booking = await track(
    startServer((req, res) => {
      if (req.method === 'GET') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"results": [], "next": null}');
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ detail: `bad request ${req.body} with ${req.headers.authorization}` }));
    }),
  );
  const dir = tempDir();
  const file = join(dir, 'config.yaml');
  writeFileSync(
    file,
    `server: { host: 127.0.0.1, port: 0, public_url: "https://cal.example.com" }
database: { path: calbridge.db }
booking: { base_url: "${booking.origin}", token: "${token}", timezone: America/Sao_Paulo }
webhook: { secret: ${secret} }
`,
  );
  const run = await cli('webhooks', 'ensure', '--config', file);
  expect(run.code).toBe(1);
  expect(booking.requests.some((r) => r.method === 'POST' && r.body.includes(secret))).toBe(true); // it was echoed
  expect(printed(run)).toContain('bad request');
  expect(printed(run)).not.toContain(secret);
  expect(printed(run)).not.toContain(token);
});

/** A token endpoint that answers every refresh with an OAuth error quoting the form we sent. */
async function echoingTokenEndpoint(): Promise<{ file: string; secrets: string[] }> {
  const clientSecret = 'echoed-client-secret-0123456789';
  const refreshToken = 'echoed-refresh-token-0123456789';
  const token = await track(
    startServer((req, res) =>
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: 'invalid_request', error_description: `cannot use ${req.body}` })),
    ),
  );
  const { file, sim } = await cliFolder(
    cleanups,
    async () => `google:
  credentials: { client_id: echo-client, client_secret: ${clientSecret}, refresh_token: ${refreshToken} }
  api_root: "${token.origin}/"
  token_url: "${token.origin}/token"
`,
  );
  sim.create({ start: slot(1) });
  return { file, secrets: [clientSecret, refreshToken, encodeURIComponent(refreshToken)] };
}

it('sync against a token endpoint that echoes our request prints no refresh token or client secret', async () => {
  const { file, secrets } = await echoingTokenEndpoint();
  const run = await cli('sync', '--config', file);
  expect(printed(run)).toContain('cannot use');
  for (const s of secrets) expect(printed(run)).not.toContain(s);
});

it('sync --dry-run against a token endpoint that echoes our request prints no refresh token or client secret', async () => {
  const { file, secrets } = await echoingTokenEndpoint();
  const run = await cli('sync', '--dry-run', '--config', file);
  expect(printed(run)).toContain('cannot use');
  for (const s of secrets) expect(printed(run)).not.toContain(s);
});

it('check-config --print masks a password written into a URL', async () => {
  const dir = tempDir();
  const file = join(dir, 'config.yaml');
  writeFileSync(
    file,
    `server: { public_url: "https://cal.example.com" }
booking: { base_url: "https://clinic:url-password-0123456789@booking.example.com", token: booking-token-0123456789 }
webhook: { secret: webhook-secret-0123456789 }
`,
  );
  const run = await cli('check-config', '--print', '--config', file);
  expect(run.code).toBe(0);
  expect(run.out).toContain('booking.example.com');
  expect(printed(run)).not.toContain('url-password-0123456789');
});

it('/api/status masks a password written into a URL', () => {
  const doc = redactStatus(
    {
      caldav: {
        url: 'https://alice:dav-password-0123456789@dav.example.com/dav/',
        last_error: 'PROPFIND https://alice:dav-password-0123456789@dav.example.com/ failed',
      },
    },
    [],
  );
  expect(JSON.stringify(doc)).toContain('dav.example.com');
  expect(JSON.stringify(doc)).not.toContain('dav-password-0123456789');
});
