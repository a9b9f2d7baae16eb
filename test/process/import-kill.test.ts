// A first import killed half way: `serve` is SIGKILLed while its first poll stores a listing of
// thousands of appointments; after a restart the next pass stores the rest, and what the first run
// committed is there once, unchanged.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Simulator } from '../../src/booking/simulator/index.ts';
import { systemClock } from '../../src/core/clock.ts';
import { AppointmentStore } from '../../src/store/appointment-store.ts';
import { startTestSimulator } from '../helpers/simulator.ts';
import { calbridgeProcesses, type CalbridgeProcess } from '../helpers/calbridge-process.ts';
import { freePort } from '../helpers/free-port.ts';
import { waitFor } from '../helpers/wait-for.ts';

const COUNT = 5_000;
const calbridge = calbridgeProcesses();
let sim: Simulator | undefined;
let dir: string | undefined;
afterEach(async () => {
  await sim?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  sim = dir = undefined;
});

/** What the database holds now, read from outside the process. */
function storedRows(path: string): { appointment_key: string; revision: number }[] {
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    return new AppointmentStore(db, systemClock)
      .listAll({ includeGone: true })
      .map((s) => ({ appointment_key: s.appointment.key, revision: s.revision }));
  } catch {
    return []; // not created yet
  } finally {
    db?.close();
  }
}

describe('first import killed half way', () => {
  it('loses nothing: after a restart the next pass stores the rest, and what was stored stays as it was', async () => {
    sim = await startTestSimulator({ seed: COUNT, pageSize: 100 });
    const listed = sim.all().map((a) => a.appointment_key);
    dir = mkdtempSync(join(tmpdir(), 'calbridge-import-kill-'));
    const port = await freePort();
    const config = join(dir, 'config.yaml');
    const dbPath = join(dir, 'db', 'calbridge.db');
    writeFileSync(
      config,
      [
        `server: { host: 127.0.0.1, port: ${port}, public_url: "http://127.0.0.1:${port}" }`,
        'database: { path: db/calbridge.db }',
        `booking: { base_url: "${sim.url}", token: "${sim.token}", timezone: America/Sao_Paulo, page_size: 100 }`,
        'webhook: { secret: import-kill-secret-0123456789, register: false }',
        'poll: { schedule: "0 0 1 1 *", past_days: 30, future_days: 60 }',
        '',
      ].join('\n'),
    );

    // The first poll starts with serve; killed once some of the listing is stored.
    let child: CalbridgeProcess = calbridge.spawn(['serve', '--config', config]);
    await waitFor('the import under way', () => storedRows(dbPath).length > 0, { process: child, everyMs: 10 });
    child.child.kill('SIGKILL');
    await child.exited;
    const atKill = storedRows(dbPath);
    expect(atKill.length).toBeGreaterThan(0);
    expect(atKill.length).toBeLessThan(listed.length); // the kill really cut the import

    child = calbridge.spawn(['serve', '--config', config]);
    await waitFor('every listed appointment stored', () => storedRows(dbPath).length === listed.length, { process: child });
    const after = storedRows(dbPath);
    expect(after.map((r) => r.appointment_key).sort()).toEqual([...listed].sort());
    // Stored once and not changed since: the restart's pass found the first run's rows as they were.
    expect(after.filter((r) => r.revision !== 1)).toEqual([]);
    child.child.kill('SIGTERM');
    await child.exited;
  }, 90_000);
});
