// `calbridge backup <file>`: a consistent copy while a real `serve` takes a storm of webhooks, that
// restores to a database calbridge opens, with every delivery acknowledged before the backup began.
import { afterEach, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/store/db.ts';
import { runCli } from '../../src/cli.ts';
import type { CommandIo } from '../../src/commands/command.ts';
import { calbridgeProcesses } from '../helpers/calbridge-process.ts';
import { freePort } from '../helpers/free-port.ts';

const SECRET = 'backup-test-secret-0123456789';
const calbridge = calbridgeProcesses();
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup(port = 0): { dir: string; config: string; database: string } {
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-backup-'));
  dirs.push(dir);
  const config = join(dir, 'config.yaml');
  writeFileSync(
    config,
    [
      `server: {host: 127.0.0.1, port: ${port}, public_url: "http://127.0.0.1:${port}"}`,
      'database: {path: db/calbridge.db}',
      'booking: {base_url: "http://127.0.0.1:9", token: booking-token-0123456789abcdef}',
      `webhook: {secret: ${SECRET}, register: false}`,
      'poll: {schedule: "0 0 1 1 *"}',
    ].join('\n'),
  );
  return { dir, config, database: join(dir, 'db', 'calbridge.db') };
}

function captured(): CommandIo & { lines: string[] } {
  const lines: string[] = [];
  return { lines, out: (l) => lines.push(l), err: (l) => lines.push(l), isTty: false };
}

async function run(args: string[]): Promise<{ code: number | null; output: string }> {
  const child = calbridge.spawn(args);
  const code = await child.exited;
  return { code, output: child.output() };
}

describe('backup', () => {
  it('copies a database under a webhook storm into one that opens, checks clean and holds every acknowledged delivery', async () => {
    const port = await freePort();
    const { dir, config } = setup(port);
    const serve = calbridge.spawn(['serve', '--config', config]);
    const base = `http://127.0.0.1:${port}`;
    await serve.answering(`${base}`);

    // The storm: concurrent senders, each delivery a new appointment key, until told to stop.
    const acknowledged: string[] = [];
    let storming = true;
    const sender = async (n: number) => {
      for (let i = 0; storming; i++) {
        const key = `storm-${n}-${i}`;
        const res = await fetch(`${base}/webhooks/${SECRET}/`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ event: 'appointment.updated', timestamp: new Date().toISOString(), data: { appointment_key: key } }),
        });
        await res.arrayBuffer();
        if (res.status === 200) acknowledged.push(key);
      }
    };
    const senders = Array.from({ length: 8 }, (_, n) => sender(n));
    while (acknowledged.length < 300) await new Promise((r) => setTimeout(r, 20));

    const before = [...acknowledged]; // every delivery answered 200 before the backup began
    const file = join(dir, 'calbridge-backup.db');
    const backup = await run(['backup', file, '--config', config]);
    const during = acknowledged.length - before.length;
    storming = false;
    await Promise.all(senders);
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toMatch(/^Backed up .*calbridge\.db to .*calbridge-backup\.db \(.+, checked\)/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(during, 'the storm went on while the backup ran').toBeGreaterThan(0);

    // Restore as the README says: the file becomes database.path of a calbridge that is not running.
    const restored = join(dir, 'restored', 'calbridge.db');
    mkdirSync(join(dir, 'restored'));
    copyFileSync(file, restored);
    const db = openDatabase(restored);
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const stored = new Set(db.prepare('SELECT appointment_key FROM deliveries').pluck().all() as string[]);
      const missing = before.filter((key) => !stored.has(key));
      expect(missing, `${missing.length} of ${before.length} acknowledged deliveries are missing`).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('keeps an existing file unless --force, and replaces it whole with --force', async () => {
    const { dir, config, database } = setup();
    openDatabase(database).close();
    const file = join(dir, 'nightly.db');
    writeFileSync(file, 'last night');

    const refused = captured();
    expect(await runCli(['backup', file, '--config', config], refused)).toBe(1);
    expect(refused.lines).toEqual([`calbridge backup: ${file} already exists; choose another name, or add --force to replace it.`]);
    expect(readFileSync(file, 'utf8')).toBe('last night');

    const forced = captured();
    expect(await runCli(['backup', file, '--force', '--config', config], forced)).toBe(0);
    const copy = openDatabase(file);
    expect(copy.pragma('user_version', { simple: true })).toBeGreaterThan(0);
    copy.close();
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('refuses to write over the database itself, into a folder, or from a database that does not exist', async () => {
    const { dir, config, database } = setup();
    const none = captured();
    expect(await runCli(['backup', join(dir, 'b.db'), '--config', config], none)).toBe(1);
    expect(none.lines[0]).toBe(`calbridge backup: there is no database at ${database}; check database.path.`);

    openDatabase(database).close();
    const itself = captured();
    expect(await runCli(['backup', database, '--force', '--config', config], itself)).toBe(1);
    expect(itself.lines[0]).toBe(`calbridge backup: ${database} is the database itself; give another file name.`);
    const folder = captured();
    expect(await runCli(['backup', dir, '--config', config], folder)).toBe(1);
    expect(folder.lines[0]).toMatch(/is a folder; give the backup a file name/);
    expect(openDatabase(database).pragma('integrity_check', { simple: true })).toBe('ok');
  });
});
