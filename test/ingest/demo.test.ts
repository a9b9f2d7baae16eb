// `demo` on a fresh checkout: no config, no credentials; appointments arrive (by poll and by
// webhook), the URLs to open are printed, and SIGTERM stops it and removes its database.
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let child: ChildProcess | undefined;
let cwd: string | undefined;
afterEach(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  if (cwd) rmSync(cwd, { recursive: true, force: true });
  child = cwd = undefined;
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function until<T>(what: string, fn: () => Promise<T | undefined> | T | undefined, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('demo', () => {
  it('runs with no configuration and shows appointments arriving', async () => {
    const port = await freePort();
    // An empty working folder: no config.yaml to find, and nothing may be written into it.
    cwd = mkdtempSync(join(tmpdir(), 'calbridge-demo-cwd-'));
    const env = { ...process.env, CALBRIDGE_CONFIG: '' };
    child = spawn(process.execPath, [join(process.cwd(), 'bin/calbridge.js'), 'demo', '--port', String(port), '--interval', '200', '--appointments', '12'], { cwd, env });
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));

    await until('the banner', () => (out.includes('Stop with Ctrl-C') ? true : undefined));
    expect(out).toContain(`status JSON   http://127.0.0.1:${port}/api/status`);
    expect(out).toMatch(/feed +http:\/\/127\.0\.0\.1:\d+\/feeds\/[\w-]+\.ics/);
    expect(out).toContain('Google is off');
    const dbDir = /The database is temporary \((.+)\)/.exec(out)?.[1];
    expect(dbDir && existsSync(dbDir)).toBe(true);

    // Changes keep arriving through the simulator's webhooks, not only the first poll.
    const status = await until('webhook deliveries applied', async () => {
      const s = (await (await fetch(`http://127.0.0.1:${port}/api/status`)).json()) as { ingest: { appointments: { total: number }; deliveries: { applied: number } } };
      return s.ingest.deliveries.applied >= 3 ? s : undefined;
    });
    expect(status.ingest.appointments.total).toBeGreaterThanOrEqual(12);
    expect(out).toMatch(/\d\d:\d\d:\d\d {2}(new|changed|cancelled) /);

    const exited = new Promise<number | null>((r) => child!.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(dbDir!)).toBe(false);
    expect(err).toBe('');
    expect(readdirSync(cwd!)).toEqual([]);
  }, 40_000);
});
