// In serve, WAL checkpoints run in a worker thread: commits stop paying for them, yet the WAL is
// still copied into the database file, and SQLite's own checkpointing returns at stop.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { FLOOD_DELIVERIES, startCheckpointer, startCheckpointerWhenBusy } from '../../src/store/checkpointer.ts';
import { DeliveryStore } from '../../src/store/delivery-store.ts';
import { AppointmentStore } from '../../src/store/appointment-store.ts';
import { systemClock } from '../../src/core/clock.ts';
import { testAppointment } from '../helpers/appointment.ts';
import { silentLogger } from '../../src/log.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';

let t: TestContext | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await t?.close();
  t = undefined;
});

describe('background checkpointer', () => {
  it('copies the WAL into the database file off the event loop, and hands checkpoints back at stop', async () => {
    t = createTestContext();
    const db = t.ctx.db;
    const path = db.name;
    const checkpointer = startCheckpointer(db, { log: silentLogger(), intervalMs: 50 });
    expect(checkpointer).toBeDefined();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    const before = statSync(path).size;
    const store = new DeliveryStore(db);
    for (let b = 0; b < 40; b++) {
      store.insertMany(
        Array.from({ length: 50 }, (_, i) => ({
          dedupeKey: `k-${b}-${i}`,
          appointmentKey: `a${i}`,
          event: null,
          body: 'x'.repeat(800),
          receivedAt: 0,
        })),
      );
    }
    // Until the copy is whole: the file grows page by page while the checkpoint runs, so the first growth seen may be part of it.
    for (let i = 0; i < 100 && statSync(path).size <= before + 1_000_000; i++) await new Promise((r) => setTimeout(r, 50));
    expect(statSync(path).size).toBeGreaterThan(before + 1_000_000);
    await checkpointer!.stop();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    expect((db.prepare('SELECT COUNT(*) AS n FROM deliveries').get() as { n: number }).n).toBe(2000);
  });

  it('never makes a store write fail while it truncates the WAL under the writes', async () => {
    // An upsert reads the row, then writes it. Begun deferred, such a transaction failed at once
    // ("database is locked") when the checkpointer's TRUNCATE moved the WAL on between the two: a
    // poll of 20,000 appointments in serve failed that way.
    t = createTestContext();
    const db = t.ctx.db;
    const checkpointer = startCheckpointer(db, { log: silentLogger(), intervalMs: 1, truncateFrames: 1 });
    const store = new AppointmentStore(db, systemClock);
    const failures: string[] = [];
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 1500; i++) {
        try {
          store.upsert(testAppointment({ key: `a${i}`, searchCode: `S${i}-${round % 2}` }));
        } catch (e) {
          failures.push((e as Error).message);
        }
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    await checkpointer!.stop();
    expect(failures).toEqual([]);
    expect(store.counts().total).toBe(1500);
  });

  it('cuts a WAL that grew back to its limit once the checkpoints caught up', async () => {
    t = createTestContext();
    const db = t.ctx.db;
    const checkpointer = startCheckpointer(db, { log: silentLogger(), intervalMs: 20, truncateFrames: 64 });
    const store = new DeliveryStore(db);
    for (let b = 0; b < 40; b++) {
      store.insertMany(
        Array.from({ length: 50 }, (_, i) => ({
          dedupeKey: `k-${b}-${i}`,
          appointmentKey: `a${i}`,
          event: null,
          body: 'x'.repeat(1500),
          receivedAt: 0,
        })),
      );
    }
    const wal = () => statSync(`${db.name}-wal`).size;
    expect(wal()).toBeGreaterThan(64 * 4096);
    // Once the thread has copied it all, the next commit starts the WAL over and cuts it back.
    for (let i = 0; i < 200 && wal() > 64 * 4096; i++) {
      await new Promise((r) => setTimeout(r, 20));
      store.insertMany([{ dedupeKey: `after-${i}`, appointmentKey: 'b', event: null, body: 'x', receivedAt: 0 }]);
    }
    expect(wal()).toBeLessThanOrEqual(64 * 4096);
    await checkpointer!.stop();
    expect((db.prepare("SELECT COUNT(*) AS n FROM deliveries WHERE dedupe_key LIKE 'k-%'").get() as { n: number }).n).toBe(2000);
  });

  it('in serve, starts only when webhooks flood in: not for an idle daemon, nor for other heavy writes', async () => {
    t = createTestContext();
    vi.useFakeTimers({ toFake: ['performance'] }); // the flood window's clock
    const db = t.ctx.db;
    const checkpointer = startCheckpointerWhenBusy(db, { log: silentLogger() })!;
    const store = new DeliveryStore(db);
    const batch = (b: number) =>
      Array.from({ length: 50 }, (_, i) => ({
        dedupeKey: `k-${b}-${i}`,
        appointmentKey: `a${i}`,
        event: null,
        body: 'x'.repeat(1500),
        receivedAt: 0,
      }));
    const autocheckpoint = () => db.pragma('wal_autocheckpoint', { simple: true });
    // A large WAL from a writer that is not the receiver (say, a first import), a few webhooks now and then: no worker thread.
    for (let b = 0; b < 40; b++) store.insertMany(batch(b));
    checkpointer.stored(FLOOD_DELIVERIES / 2);
    vi.advanceTimersByTime(2100);
    checkpointer.stored(FLOOD_DELIVERIES / 2);
    expect(autocheckpoint()).toBe(1000); // SQLite still checkpoints by itself
    // The receiver stores a flood's worth within two seconds: the thread takes over at once.
    checkpointer.stored(FLOOD_DELIVERIES / 2);
    expect(autocheckpoint()).toBe(0);
    for (let b = 40; b < 80; b++) store.insertMany(batch(b));
    await checkpointer.stop();
    expect(autocheckpoint()).toBe(1000);
  });

  it('does nothing for an in-memory database', () => {
    const memory = new Database(':memory:');
    expect(startCheckpointer(memory, { log: silentLogger() })).toBeUndefined();
    memory.close();
  });
});
