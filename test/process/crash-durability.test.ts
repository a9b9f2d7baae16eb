// Acknowledge only what is durable: deliveries are posted to a real `serve` process, which is
// SIGKILLed mid-stream; after a restart every delivery that was answered 200 ends up applied.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Simulator } from '../../src/booking/simulator/index.ts';
import { systemClock } from '../../src/core/clock.ts';
import { AppointmentStore } from '../../src/store/appointment-store.ts';
import { DeliveryStore } from '../../src/store/delivery-store.ts';
import { startTestSimulator } from '../helpers/simulator.ts';
import { calbridgeProcesses, type CalbridgeProcess } from '../helpers/calbridge-process.ts';
import { freePort } from '../helpers/free-port.ts';
import { waitFor } from '../helpers/wait-for.ts';

const SECRET = 'crash-test-secret-0123456789';
const DAY = 86_400_000;

const calbridge = calbridgeProcesses();
let sim: Simulator | undefined;
let dir: string | undefined;
afterEach(async () => {
  await sim?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  sim = dir = undefined;
});

async function startServe(config: string, port: number): Promise<CalbridgeProcess> {
  const serve = calbridge.spawn(['serve', '--config', config]);
  await serve.answering(`http://127.0.0.1:${port}`);
  return serve;
}

describe('crash durability', () => {
  it('every delivery answered 200 before a SIGKILL is applied after the restart', async () => {
    sim = await startTestSimulator();
    // Far outside the poll window: only the deliveries can bring these in.
    const keys = Array.from({ length: 400 }, (_, i) => sim!.create({ start: Date.now() + 60 * DAY + i * 3_600_000 }).appointment_key);
    sim.setFaults({ delayMs: 40 }); // a slow API keeps the worker behind the receiver
    dir = mkdtempSync(join(tmpdir(), 'calbridge-crash-'));
    const port = await freePort();
    const config = join(dir, 'config.yaml');
    writeFileSync(
      config,
      [
        `server: { host: 127.0.0.1, port: ${port}, public_url: "http://127.0.0.1:${port}" }`,
        'database: { path: db/calbridge.db }',
        `booking: { base_url: "${sim.url}", token: "${sim.token}", timezone: America/Sao_Paulo }`,
        `webhook: { secret: ${SECRET}, register: false }`,
        'poll: { schedule: "0 0 1 1 *", past_days: 1, future_days: 1 }',
        '',
      ].join('\n'),
    );

    let child = await startServe(config, port);
    const acknowledged = new Set<string>();
    let next = 0;
    const poster = async () => {
      while (next < keys.length) {
        const key = keys[next++]!;
        if (acknowledged.size >= 150 && !child.child.killed) child.child.kill('SIGKILL');
        const res = await fetch(`http://127.0.0.1:${port}/webhooks/${SECRET}/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ event: 'appointment.created', timestamp: new Date().toISOString(), data: { appointment_key: key } }),
        }).catch(() => undefined);
        if (res?.status === 200) acknowledged.add(key);
      }
    };
    await Promise.all(Array.from({ length: 8 }, poster));
    await child.exited;
    expect(acknowledged.size).toBeGreaterThanOrEqual(150);
    expect(acknowledged.size).toBeLessThan(keys.length); // the kill really cut the stream

    const dbPath = join(dir, 'db', 'calbridge.db');
    const peek = new Database(dbPath, { readonly: true });
    const stored = peek.prepare('SELECT appointment_key FROM deliveries').all() as { appointment_key: string }[];
    const pendingAtKill = new DeliveryStore(peek).counts().pending;
    peek.close();
    const storedKeys = new Set(stored.map((r) => r.appointment_key));
    expect([...acknowledged].filter((k) => !storedKeys.has(k))).toEqual([]);
    expect(pendingAtKill).toBeGreaterThan(0); // work was left over for the restart

    sim.setFaults({});
    child = await startServe(config, port);
    let missing = [...acknowledged];
    await waitFor(
      'every acknowledged delivery applied after the restart',
      () => {
        const db = new Database(dbPath, { readonly: true });
        const applied = new Set(new AppointmentStore(db, systemClock).listAll().map((s) => s.appointment.key));
        db.close();
        missing = missing.filter((k) => !applied.has(k));
        return missing.length === 0;
      },
      { process: child },
    ).catch(() => undefined); // what is missing is the assertion below
    expect(missing).toEqual([]);
    child.child.kill('SIGTERM');
    await child.exited;
  }, 60_000);
});
