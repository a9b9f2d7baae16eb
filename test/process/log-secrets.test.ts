// Contract §4: no token, secret or refresh token in any log line or printout. `serve` and the
// one-shot commands run as real processes with every kind of secret configured, callers do what
// leaked secrets before (a webhook cut off mid-body, a failing feed route), and all output is
// searched (test/helpers/calbridge-process.ts does that for every process test in the suite).
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import Database from 'better-sqlite3';
import { waitFor } from '../helpers/wait-for.ts';
import { calbridgeProcesses, leakedSecrets } from '../helpers/calbridge-process.ts';
import { createLogger } from '../../src/log.ts';

const calbridge = calbridgeProcesses();

const SECRETS = {
  BOOKING_TOKEN: 'scan-booking-token-0123456789',
  WEBHOOK_SECRET: 'scan-webhook-secret-0123456789',
  WEBHOOK_PREVIOUS_SECRET: 'scan-previous-secret-0123456789',
  WEBHOOK_AUTH_TOKEN: 'scan-webhook-auth-token-0123456789',
  ADMIN_TOKEN: 'scan-admin-token-0123456789',
  FEED_TOKEN: 'scan-feed-token-clinic-0123456789',
  FEED_TOKEN_2: 'scan-feed-token-silva-0123456789',
  GOOGLE_CLIENT_SECRET: 'scan-google-client-secret-0123456789',
  GOOGLE_REFRESH_TOKEN: 'scan-google-refresh-token-0123456789',
};
const ALL = Object.values(SECRETS);

let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

function writeConfig(): string {
  dir = mkdtempSync(join(tmpdir(), 'calbridge-secrets-'));
  const file = join(dir, 'config.yaml');
  writeFileSync(
    file,
    `server: { host: 127.0.0.1, port: 0, public_url: "https://calendar.example.com", admin_token: "\${ADMIN_TOKEN}" }
database: { path: calbridge.db }
booking: { base_url: "http://127.0.0.1:9", token: "\${BOOKING_TOKEN}", timeout_seconds: 1 }
webhook: { secret: "\${WEBHOOK_SECRET}", previous_secret: "\${WEBHOOK_PREVIOUS_SECRET}", auth_token: "\${WEBHOOK_AUTH_TOKEN}", register: false }
poll: { schedule: "0 0 1 1 *" }
google:
  credentials: { client_id: scan.apps.example, client_secret: "\${GOOGLE_CLIENT_SECRET}", refresh_token: "\${GOOGLE_REFRESH_TOKEN}" }
  api_root: "http://127.0.0.1:9/"
  token_url: "http://127.0.0.1:9/token"
feeds:
  - { name: Clinic, token: "\${FEED_TOKEN}" }
  - { name: Silva, token: "\${FEED_TOKEN_2}", privacy: busy }
`,
  );
  return file;
}

/** Sends the headers and the start of a body, then drops the connection. */
async function abortMidBody(url: URL, path: string): Promise<void> {
  const socket = connect(Number(url.port), url.hostname);
  await new Promise((r) => socket.once('connect', r));
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${SECRETS.WEBHOOK_AUTH_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"event":`,
  );
  await new Promise((r) => setTimeout(r, 100));
  socket.destroy();
}

const lines = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { level: string; msg: string; route?: string; status?: number });

describe('no secret in any log line or printout', () => {
  it('serve logs none, whatever its callers do: webhooks good, wrong and aborted, feeds, a failing feed route, the status pages', async () => {
    const config = writeConfig();
    const serve = calbridge.spawn(['serve', '--config', config], { env: { ...SECRETS, CALBRIDGE_LOG_LEVEL: 'debug' } });
    const base = await serve.listening();
    const url = new URL(base);
    const notification = JSON.stringify({
      event: 'appointment.created',
      timestamp: '2026-06-15T10:00:00-03:00',
      data: { appointment_key: 'scan-1' },
    });
    const post = (secret: string, auth: string) =>
      fetch(`${base}/webhooks/${secret}/`, {
        method: 'POST',
        body: notification,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${auth}` },
      }).then((r) => r.status);

    expect(await post(SECRETS.WEBHOOK_SECRET, SECRETS.WEBHOOK_AUTH_TOKEN)).toBe(200);
    expect(await post(SECRETS.WEBHOOK_PREVIOUS_SECRET, SECRETS.WEBHOOK_AUTH_TOKEN)).toBe(200);
    expect(await post(SECRETS.WEBHOOK_SECRET, 'wrong-auth-token-0123456789')).toBe(401);
    expect(await post(`${SECRETS.WEBHOOK_SECRET}x`, SECRETS.WEBHOOK_AUTH_TOKEN)).toBe(404);
    await abortMidBody(url, `/webhooks/${SECRETS.WEBHOOK_SECRET}/`);
    for (const token of [SECRETS.FEED_TOKEN, SECRETS.FEED_TOKEN_2]) expect((await fetch(`${base}/feeds/${token}.ics`)).status).toBe(200);
    expect(
      (
        await fetch(`${base}/status`, {
          headers: { authorization: `Basic ${Buffer.from(`me:${SECRETS.ADMIN_TOKEN}`).toString('base64')}` },
        })
      ).status,
    ).toBe(200);
    expect((await fetch(`${base}/api/status`, { headers: { authorization: `Bearer ${SECRETS.ADMIN_TOKEN}` } })).status).toBe(200);
    expect((await fetch(`${base}/metrics`)).status).toBe(200);

    // The database loses a table under the running daemon: the feed route fails on its next look.
    const db = new Database(join(dir, 'calbridge.db'));
    db.exec('ALTER TABLE appointments RENAME TO appointments_elsewhere');
    db.close();
    // The feed cache looks at the database again within a second: ask until it has.
    await waitFor('the feed to fail', async () => (await fetch(`${base}/feeds/${SECRETS.FEED_TOKEN}.ics`)).status === 500, {
      process: serve,
      everyMs: 250,
    });

    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
    const logged = lines(serve.stdout());
    // What used to carry the secret in its path is there, by its route pattern.
    expect(logged).toContainEqual(
      expect.objectContaining({ level: 'debug', msg: 'request aborted by the client', route: '/webhooks/:secret/' }),
    );
    expect(logged).toContainEqual(expect.objectContaining({ level: 'error', msg: 'request failed', route: '/feeds/:file', status: 500 }));
    expect(logged.filter((l) => l.msg === 'request' && l.route === '/webhooks/:secret/').map((l) => l.status)).toEqual([
      200, 200, 401, 404,
    ]);
    expect(leakedSecrets({ stdout: serve.stdout(), stderr: serve.stderr(), secrets: ALL, printsOnStdout: [] })).toEqual([]);
  });

  it('status, status --json and check-config --print show none, even one a caller got into the database', async () => {
    const config = writeConfig();
    const serve = calbridge.spawn(['serve', '--config', config], { env: SECRETS });
    const base = await serve.listening();
    // A caller holding the webhook secret sends a content type that names a configured secret: the
    // refusal's detail is kept for status.
    const refused = await fetch(`${base}/webhooks/${SECRETS.WEBHOOK_SECRET}/`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': `text/plain; note=${SECRETS.BOOKING_TOKEN}`, authorization: `Bearer ${SECRETS.WEBHOOK_AUTH_TOKEN}` },
    });
    expect(refused.status).toBe(415);
    serve.child.kill('SIGTERM');
    await serve.exited;

    const json = calbridge.run(['status', '--json', '--config', config], { env: SECRETS });
    expect(json.status).toBe(0);
    const doc = JSON.parse(json.stdout) as { ingest: { webhook_rejections: { recent: { detail: string }[] } } };
    expect(doc.ingest.webhook_rejections.recent[0]?.detail).toBe('content type text/plain; note=******** is not JSON');
    expect(calbridge.run(['status', '--config', config], { env: SECRETS }).stdout).toMatch(/^calbridge: /);
    expect(calbridge.run(['check-config', '--print', '--config', config], { env: SECRETS }).status).toBe(0);
    // (The helper searches all of their output when the test ends.)
  });

  it('the logger masks a configured secret that reaches a line anyway: as given, JSON-escaped, percent-encoded', () => {
    const odd = 'odd"secret/with+chars 0123';
    const written: string[] = [];
    const log = createLogger({ level: 'info', secrets: [SECRETS.BOOKING_TOKEN, odd], stream: { write: (l) => written.push(l) } });
    log.error(
      { err: new Error(`upstream said: bad token ${SECRETS.BOOKING_TOKEN}`), url: `https://x.example/?q=${encodeURIComponent(odd)}` },
      `retrying with ${odd}`,
    );
    const line = written.join('');
    for (const form of [SECRETS.BOOKING_TOKEN, odd, JSON.stringify(odd).slice(1, -1), encodeURIComponent(odd)])
      expect(line).not.toContain(form);
    expect(JSON.parse(line)).toMatchObject({
      msg: 'retrying with [redacted]',
      url: 'https://x.example/?q=[redacted]',
      err: { message: 'upstream said: bad token [redacted]' },
    });
  });

  it('a logger without redaction by key name (the request lines) still masks the configured secrets', () => {
    const written: string[] = [];
    const log = createLogger({ level: 'info', secrets: [SECRETS.WEBHOOK_SECRET], stream: { write: (l) => written.push(l) } });
    log.child({}, { redact: [] }).info({ route: `/webhooks/${SECRETS.WEBHOOK_SECRET}/` }, 'request');
    expect(JSON.parse(written.join(''))).toMatchObject({ route: '/webhooks/[redacted]/', msg: 'request' });
  });

  it('the search finds a secret that is printed: `feeds` prints the feed tokens, on purpose and only on stdout', () => {
    const config = writeConfig();
    const printed = calbridge.run(['feeds', '--config', config], {
      env: SECRETS,
      printsOnStdout: [SECRETS.FEED_TOKEN, SECRETS.FEED_TOKEN_2],
    });
    expect(printed.status).toBe(0);
    expect(leakedSecrets({ stdout: printed.stdout, stderr: printed.stderr, secrets: ALL, printsOnStdout: [] })).toEqual([
      `stdout: ${SECRETS.FEED_TOKEN}`,
      `stdout: ${SECRETS.FEED_TOKEN_2}`,
    ]);
  });

  it('every process test starts calbridge through the helper that searches its output', () => {
    const root = join(import.meta.dirname, '..');
    const files = (folder: string): string[] =>
      readdirSync(folder).flatMap((name) => {
        const path = join(folder, name);
        return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
      });
    const bypassing = files(root).filter(
      (f) =>
        !f.endsWith(join('helpers', 'calbridge-process.ts')) && /bin\/calbridge\.js|['"]calbridge\.js['"]/.test(readFileSync(f, 'utf8')),
    );
    expect(bypassing.map((f) => relative(root, f))).toEqual([]);
  });
});
