// check-config's warnings about upstreams that would carry tokens in clear text: a warning, never a
// failure, and none for loopback (the simulator, a sidecar proxy).
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli.ts';
import type { CommandIo } from '../../src/commands/command.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function checkConfig(yaml: string): Promise<{ code: number; stdout: string[]; stderr: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-check-'));
  dirs.push(dir);
  const file = join(dir, 'config.yaml');
  writeFileSync(file, yaml);
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io: CommandIo = { out: (l) => stdout.push(l), err: (l) => stderr.push(l), isTty: false };
  return { code: await runCli(['check-config', '--config', file], io), stdout, stderr };
}

const config = (bookingUrl: string, google = '') =>
  `server: {public_url: "https://c.example.com", admin_token: admin-token-0123456789abcdef}\nbooking: {base_url: "${bookingUrl}", token: t}\nwebhook: {secret: cli-test-secret-0123456789}\n${google}`;
const google = (apiRoot: string, tokenUrl: string) =>
  `google: {credentials: {client_id: id, client_secret: s, refresh_token: r}, api_root: "${apiRoot}", token_url: "${tokenUrl}"}\n`;

describe('check-config warns about what serve would warn about at start', () => {
  const base = 'booking: {base_url: "https://b.example.com", token: t}\n';

  it('an http:// public_url with webhook registration and Google push on, and no admin_token: each a warning, exit 0', async () => {
    const result = await checkConfig(
      `server: {public_url: "http://calendar.example.com"}\n${base}webhook: {secret: cli-test-secret-0123456789, register: true}\n` +
        'google: {credentials: {client_id: id, client_secret: s, refresh_token: r}}\n',
    );
    expect(result.code).toBe(0);
    expect(result.stdout[0]).toMatch(/: valid\.$/);
    expect(result.stderr).toEqual([
      expect.stringMatching(/^warning: server\.admin_token is not set, so \/status and \/api\/status answer 401 to everyone; /),
      expect.stringMatching(
        /^warning: webhook\.register: serve would skip the registration: server\.public_url \(http:\/\/calendar\.example\.com\) is not https:\/\//,
      ),
      expect.stringMatching(/^warning: google\.reverse_sync\.push_notifications: Google delivers push notifications only to https:\/\//),
    ]);
  });

  it('says none of it with an https:// public_url and an admin_token, or with registration and push off', async () => {
    const fine = await checkConfig(
      `server: {public_url: "https://c.example.com", admin_token: admin-token-0123456789abcdef}\n${base}webhook: {secret: cli-test-secret-0123456789}\n`,
    );
    expect(fine).toMatchObject({ code: 0, stderr: [] });
    const off = await checkConfig(
      `server: {public_url: "http://calendar.example.com", admin_token: admin-token-0123456789abcdef}\n${base}webhook: {secret: cli-test-secret-0123456789, register: false}\n` +
        'google: {credentials: {client_id: id, client_secret: s, refresh_token: r}, reverse_sync: {push_notifications: false}}\n',
    );
    expect(off).toMatchObject({ code: 0, stderr: [] });
  });

  it('warns about status_auth: loopback on an address others reach', async () => {
    const result = await checkConfig(
      `server: {public_url: "https://c.example.com", admin_token: admin-token-0123456789abcdef, host: 0.0.0.0, status_auth: loopback}\n${base}webhook: {secret: cli-test-secret-0123456789}\n`,
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toEqual([
      expect.stringMatching(/^warning: server\.status_auth is loopback while the server listens on 0\.0\.0\.0/),
    ]);
  });
});

describe('check-config and plain http:// upstreams', () => {
  it('warns, without failing, that tokens would travel in clear to a host that is not this machine', async () => {
    const result = await checkConfig(config('http://booking.example.com', google('http://10.0.0.5:8080/', 'http://proxy.internal/token')));
    expect(result.code).toBe(0);
    expect(result.stdout[0]).toMatch(/: valid\.$/);
    expect(result.stderr).toEqual([
      'warning: booking.base_url: uses http:// on booking.example.com, which is not this machine: the booking token would travel in clear text; use https://',
      'warning: google.token_url: uses http:// on proxy.internal, which is not this machine: Google credentials and access tokens would travel in clear text; use https://',
      'warning: google.api_root: uses http:// on 10.0.0.5, which is not this machine: Google access tokens would travel in clear text; use https://',
    ]);
  });

  it.each(['http://127.0.0.1:9000', 'http://localhost:9000', 'http://[::1]:9000', 'http://sim.localhost', 'https://booking.example.com'])(
    'says nothing about %s',
    async (url) => {
      const result = await checkConfig(config(url, google(`${url}/`, `${url}/token`)));
      expect(result).toMatchObject({ code: 0, stderr: [] });
    },
  );

  it('says nothing about Google URLs while Google is disabled', async () => {
    const result = await checkConfig(config('https://booking.example.com', 'google: {enabled: false, api_root: "http://10.0.0.5/"}\n'));
    expect(result).toMatchObject({ code: 0, stderr: [] });
  });
});
