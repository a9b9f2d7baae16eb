// `serve` as users and service managers run it: a real process, a real port, SIGTERM to stop.
import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, schemaVersion } from '../../src/store/db.ts';
import { calbridgeProcesses } from '../helpers/calbridge-process.ts';
import { freePort } from '../helpers/free-port.ts';
import { waitFor } from '../helpers/wait-for.ts';

const calbridge = calbridgeProcesses();
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function writeConfig(dir: string, port: number): string {
  const file = join(dir, 'config.yaml');
  writeFileSync(
    file,
    `server:
  host: 127.0.0.1
  port: ${port}
  public_url: http://127.0.0.1:${port}
database:
  path: db/calbridge.db
booking:
  base_url: http://127.0.0.1:9
  token: \${BOOKING_TOKEN}
webhook:
  secret: serve-test-secret-0123456789
  register: false
poll:
  schedule: "0 0 1 1 *"
`,
  );
  return file;
}

const env = { BOOKING_TOKEN: 'booking-token-never-logged-0123' };

/** The container image's HEALTHCHECK command, exactly as the Dockerfile gives it, aimed at `port`. */
function imageHealthcheck(port: number): number | null {
  const line = /HEALTHCHECK[^\n]*\\\n\s*CMD (\[.*\])/.exec(readFileSync('Dockerfile', 'utf8'));
  if (!line?.[1]) throw new Error('the Dockerfile has no HEALTHCHECK CMD in exec form');
  const [cmd, ...args] = (JSON.parse(line[1]) as string[]).map((a) => a.replace('127.0.0.1:8080', `127.0.0.1:${port}`));
  expect(cmd).toBe('node');
  return spawnSync(process.execPath, args, { timeout: 10_000 }).status;
}

describe('serve', () => {
  it('answers /healthz (and the image HEALTHCHECK), stops within 5 s of SIGTERM with exit 0, and leaves a database that reopens', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'calbridge-serve-'));
    dirs.push(dir);
    const port = await freePort();
    const serve = calbridge.spawn(['serve', '--config', writeConfig(dir, port)], { env });

    await serve.answering(`http://127.0.0.1:${port}`);
    expect(imageHealthcheck(port)).toBe(0);

    const sentAt = Date.now();
    serve.child.kill('SIGTERM');
    const code = await serve.exited;
    expect(code).toBe(0);
    expect(Date.now() - sentAt).toBeLessThan(5000);
    expect(imageHealthcheck(port)).toBe(1); // nothing listens any more

    // Logs are JSON lines (the helper checks that they carry no secret).
    const lines = serve.output().trim().split('\n');
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();

    const db = openDatabase(join(dir, 'db', 'calbridge.db'));
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(schemaVersion(db)).toBeGreaterThan(0);
    db.close();
  });

  it('says at start, when npm start runs it, that stopping npm does not stop it and what to run instead', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'calbridge-serve-'));
    dirs.push(dir);
    const port = await freePort();
    // What npm sets for the scripts it runs.
    const serve = calbridge.spawn(['serve', '--config', writeConfig(dir, port)], { env: { ...env, npm_lifecycle_event: 'start' } });
    await serve.answering(`http://127.0.0.1:${port}`);
    await waitFor('the warning', () => serve.stdout().includes('started by `npm start`'), { process: serve });
    expect(serve.stdout()).toMatch(/under a service manager run bin\/calbridge\.js serve directly/);
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
  });

  it('writes a request line soon after the request, and every line still buffered when it stops', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'calbridge-serve-'));
    dirs.push(dir);
    const port = await freePort();
    const serve = calbridge.spawn(['serve', '--config', writeConfig(dir, port)], { env });
    const base = `http://127.0.0.1:${port}`;
    await serve.answering(base);
    const requestLines = () =>
      serve
        .stdout()
        .split('\n')
        .filter((l) => l.includes('"msg":"request"') && l.includes('"route":"(no route)"'));

    // Lines go out in batches, yet a lone line is not held back until the next ones come.
    expect((await fetch(`${base}/nothing-here`)).status).toBe(404);
    await waitFor('the request line', () => requestLines().length === 1 || undefined);

    // Ten more, then SIGTERM at once: the lines not written yet are written before it exits.
    for (let i = 0; i < 10; i++) expect((await fetch(`${base}/nothing-here`)).status).toBe(404);
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
    expect(requestLines()).toHaveLength(11);
  });

  it('answers webhooks, feeds (200 and 304) and the status API (401 without the token) as a process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'calbridge-serve-'));
    dirs.push(dir);
    const port = await freePort();
    const config = writeConfig(dir, port);
    const withFeed = `${readFileSync(config, 'utf8')}feeds:\n  - name: Everyone\n    token: serve-test-feed-token-0123456789\n`;
    writeFileSync(config, withFeed.replace('  public_url:', '  admin_token: serve-test-admin-token-0123\n  public_url:'));
    const serve = calbridge.spawn(['serve', '--config', config], { env });
    const base = `http://127.0.0.1:${port}`;
    await serve.answering(base);

    const hook = await fetch(`${base}/webhooks/serve-test-secret-0123456789/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'appointment.updated', timestamp: new Date().toISOString(), data: { appointment_key: 'apt-1' } }),
    });
    expect(hook.status).toBe(200);
    expect(await hook.json()).toEqual({ status: 'stored' });
    const feed = await fetch(`${base}/feeds/serve-test-feed-token-0123456789.ics`);
    expect(feed.status).toBe(200);
    expect(await feed.text()).toContain('BEGIN:VCALENDAR');
    const again = await fetch(`${base}/feeds/serve-test-feed-token-0123456789.ics`, {
      headers: { 'if-none-match': feed.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
    const status = await fetch(`${base}/api/status`, { headers: { authorization: 'Bearer serve-test-admin-token-0123' } });
    expect(status.status).toBe(200);
    expect((await fetch(`${base}/api/status`)).status).toBe(401);
  });

  it('refuses an invalid config with exit 2 before listening', () => {
    const dir = mkdtempSync(join(tmpdir(), 'calbridge-serve-'));
    dirs.push(dir);
    const file = join(dir, 'config.yaml');
    writeFileSync(file, 'server:\n  public_url: https://x.example.com\n  prot: 1\n');
    const result = calbridge.run(['serve', '--config', file], { env });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('server.prot, line 3: unknown key');
    expect(result.stderr).toContain('  booking: is required');
  });
});
