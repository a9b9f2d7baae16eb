// The database holds the Google refresh token and personal data: what calbridge creates for it is
// private to its user (folder 0700, files 0600, the WAL and shared-memory files too), under the
// usual umask 022. A folder or file someone made keeps its mode, and serve says so once when the
// database can be read by everyone.
import { afterEach, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { systemClock } from '../../src/core/clock.ts';
import { openDatabase } from '../../src/store/db.ts';
import { KvStore } from '../../src/store/kv-store.ts';
import { worldReadableWarning } from '../../src/store/private-files.ts';
import { startDaemon } from '../../src/main.ts';
import { testConfig, unreachableBooking } from '../helpers/context.ts';
import { calbridgeProcesses } from '../helpers/calbridge-process.ts';
import { freePort } from '../helpers/free-port.ts';

const calbridge = calbridgeProcesses();
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-files-'));
  dirs.push(dir);
  return dir;
}

const mode = (path: string): string => (statSync(path).mode & 0o777).toString(8).padStart(4, '0');

const SECRET = 'files-test-webhook-secret-0123456789';

describe('database files', () => {
  it('serve on a fresh path makes the folder 0700 and the database, WAL and shared-memory files 0600', async () => {
    const dir = tempDir();
    const port = await freePort();
    const config = join(dir, 'config.yaml');
    writeFileSync(
      config,
      `server: { host: 127.0.0.1, port: ${port}, public_url: "http://127.0.0.1:${port}" }
database: { path: state/nested/calbridge.db }
booking: { base_url: "http://127.0.0.1:9", token: booking-token-0123456789 }
webhook: { secret: ${SECRET}, register: false }
poll: { schedule: "0 0 1 1 *" }
`,
    );
    const serve = calbridge.spawn(['serve', '--config', config]);
    await serve.answering(`http://127.0.0.1:${port}`);
    // A stored delivery: the WAL and its shared-memory index exist and hold personal data now.
    const res = await fetch(`http://127.0.0.1:${port}/webhooks/${SECRET}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        event: 'appointment.created',
        data: { appointment_key: 'files-1', person: { email: 'someone@example.com' } },
      }),
    });
    expect(res.status).toBe(200);

    const db = join(dir, 'state', 'nested', 'calbridge.db');
    expect([mode(join(dir, 'state')), mode(join(dir, 'state', 'nested'))]).toEqual(['0700', '0700']);
    expect(existsSync(`${db}-wal`) && existsSync(`${db}-shm`)).toBe(true);
    expect([mode(db), mode(`${db}-wal`), mode(`${db}-shm`)]).toEqual(['0600', '0600', '0600']);
    expect(serve.output()).not.toMatch(/can be read by every user/);
  });

  it('keeps the mode of a folder and a database someone made, and serve warns once when everyone can read it', async () => {
    const dir = tempDir();
    const folder = join(dir, 'shared');
    mkdirSync(folder, { mode: 0o755 });
    chmodSync(folder, 0o755);
    const path = join(folder, 'calbridge.db');
    openDatabase(path).close();
    chmodSync(path, 0o644);

    const lines: string[] = [];
    const log = pino(
      { level: 'warn' },
      new Writable({
        write: (chunk: Buffer, _e, done) => {
          lines.push(chunk.toString());
          done();
        },
      }),
    );
    const daemon = await startDaemon(testConfig({ database: { path } }), {
      log,
      port: 0,
      booking: unreachableBooking,
      processMetrics: false,
    });
    await daemon.stop();

    expect([mode(folder), mode(path)]).toEqual(['0755', '0644']);
    const warnings = lines.filter((l) => l.includes('can be read by every user'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('calbridge.db 0644');
    expect(warnings[0]).toContain('chmod 600');
  });

  it('warns about a world-readable WAL too, and says nothing about private files', () => {
    const dir = tempDir();
    const path = join(dir, 'calbridge.db');
    const db = openDatabase(path);
    new KvStore(db, systemClock).set('k', 1); // a write, so the WAL exists
    expect(worldReadableWarning(path)).toBeUndefined();
    chmodSync(`${path}-wal`, 0o644);
    expect(worldReadableWarning(path)).toMatch(/calbridge\.db-wal 0644/);
    db.close();
  });

  it('check-config warns when everyone can read the database, and stays valid (exit 0)', () => {
    const dir = tempDir();
    const path = join(dir, 'calbridge.db');
    openDatabase(path).close();
    const config = join(dir, 'config.yaml');
    writeFileSync(
      config,
      `server: { public_url: "https://cal.example.com" }
database: { path: calbridge.db }
booking: { base_url: "https://booking.example.com", token: booking-token-0123456789 }
webhook: { secret: ${SECRET} }
`,
    );
    const check = () => calbridge.run(['check-config', '--config', config]);
    const quiet = check();
    expect(quiet.status).toBe(0);
    expect(quiet.stderr).not.toMatch(/every user/);
    chmodSync(path, 0o644);
    const loud = check();
    expect(loud.status).toBe(0);
    expect(loud.stderr).toMatch(
      /^warning: database\.path: the database .*calbridge\.db can be read by every user of this machine \(calbridge\.db 0644\)/m,
    );
  });
});
