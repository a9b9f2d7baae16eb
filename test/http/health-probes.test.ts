// /readyz and /healthz are public, unauthenticated and cheap: asked in a flood against a database of
// 300,000 deliveries, they pass over no table and write nothing per call. Checked through SQLite's
// own query plans of every statement a call runs, and its change counter, never by timing.
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import type { Db } from '../../src/store/db.ts';
import { DeliveryStore } from '../../src/store/delivery-store.ts';
import { createTestContext, testConfig, type TestContext } from '../helpers/context.ts';

let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const DELIVERIES = 300_000;

/**
 * Records the SQL of every statement run from now on, on every database, whenever it was prepared
 * (the stores prepare theirs when they are built, and each connection compiles a text only once).
 * Undone after the test.
 */
function recordStatements(): string[] {
  const executed: string[] = [];
  const proto = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1')) as Record<
    'run' | 'get' | 'all' | 'iterate',
    (...a: unknown[]) => unknown
  >;
  for (const method of ['run', 'get', 'all', 'iterate'] as const) {
    const original = proto[method];
    proto[method] = function (this: { source: string }, ...args: unknown[]) {
      executed.push(this.source);
      return original.apply(this, args);
    };
    undo.push(() => void (proto[method] = original));
  }
  return executed;
}
const undo: (() => void)[] = [];
afterEach(() => {
  for (const u of undo.splice(0)) u();
});

/** The lines of SQLite's plan that read a whole table (`SCAN t`, with or without an index to order by). */
function fullScans(db: Db, sql: string): string[] {
  if (/^\s*PRAGMA/i.test(sql)) return [];
  const params = (sql.match(/\?/g) ?? []).map(() => 0);
  const named = Object.fromEntries([...sql.matchAll(/@(\w+)/g)].map((m) => [m[1], 0]));
  const stmt = db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  const rows = (Object.keys(named).length ? stmt.all(named) : stmt.all(...params)) as { detail: string }[];
  // Walking an index of pending rows in its order, to a LIMIT, reads only as many entries as the limit.
  return rows
    .map((r) => r.detail)
    .filter((d) => /^SCAN /.test(d) && !/^SCAN deliveries USING (COVERING )?INDEX deliveries_(fresh|retry_due|retry_since)$/.test(d));
}

/** 300,000 deliveries as a busy month leaves them: almost all processed, some failed, a backlog pending. */
function seed(db: Db): void {
  db.exec(`
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${DELIVERIES})
    INSERT INTO deliveries (dedupe_key, appointment_key, event, body, received_at_ms, state, attempts, processed_at_ms, last_error)
    SELECT 'seed-' || i, 'appt-' || (i % 20000), 'appointment.updated', '', 1000 + i,
           CASE WHEN i % 1000 = 0 THEN 'pending' WHEN i % 997 = 0 THEN 'failed' ELSE 'done' END,
           CASE WHEN i % 1000 = 0 THEN 0 ELSE 1 END,
           CASE WHEN i % 1000 = 0 THEN NULL ELSE 2000 + i END,
           CASE WHEN i % 997 = 0 AND i % 1000 != 0 THEN 'unreadable record' END
    FROM n`);
}

describe('cheap probes', () => {
  it(`with ${DELIVERIES.toLocaleString('en')} deliveries stored, /readyz and /healthz run no full scan and write nothing per call`, async () => {
    const executed = recordStatements();
    t = createTestContext({ config: testConfig() });
    seed(t.ctx.db);
    const db = t.ctx.db;
    const { app, lifecycle } = t.runtime;
    lifecycle.set('serving');
    // The counts /readyz reports come from counters, and they agree with the table.
    const counts = new DeliveryStore(db).counts();
    expect(counts).toMatchObject({ pending: DELIVERIES / 1000, failed: 300, done: DELIVERIES - DELIVERIES / 1000 - 300 });
    expect(counts.oldestPendingAt).toBe(2000);

    await app.request('/readyz'); // the first call may do the cached write check
    const changesBefore = (t.ctx.db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
    executed.length = 0;
    for (let i = 0; i < 200; i++) {
      expect((await app.request('/readyz')).status).toBe(200);
      expect((await app.request('/healthz')).status).toBe(200);
    }
    const perCall = executed.length / 200;
    const distinct = [...new Set(executed)];
    expect(distinct.length).toBeGreaterThan(0); // the recorder sees what /readyz runs
    const scans = distinct.flatMap((sql) => fullScans(t!.ctx.db, sql).map((line) => `${line}  <-  ${sql.replace(/\s+/g, ' ')}`));
    expect(scans).toEqual([]);
    expect(perCall).toBeLessThanOrEqual(12); // keyed lookups: counters, cursors
    expect(distinct.filter((sql) => /^\s*(INSERT|UPDATE|DELETE|REPLACE)/i.test(sql))).toEqual([]);
    const changesAfter = (t.ctx.db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
    expect(changesAfter).toBe(changesBefore);
  });

  it('checks that the database is writable by a real write, at most once per interval however often it is asked', async () => {
    const executed = recordStatements();
    t = createTestContext();
    t.runtime.lifecycle.set('serving');
    for (let i = 0; i < 1000; i++) expect((await t.runtime.app.request('/readyz')).status).toBe(200);
    expect(executed.filter((sql) => /INSERT INTO kv/.test(sql))).toHaveLength(1);
  });

  it('the delivery worker’s repeated housekeeping reads counters and the pending index, not the table', () => {
    t = createTestContext();
    seed(t.ctx.db);
    const store = new DeliveryStore(t.ctx.db);
    store.due(Date.now(), 64); // once per process: the pending rows remembered, through their own index
    const executed = recordStatements();
    store.counts();
    store.due(Date.now(), 1000); // more than are fresh: the retries due are asked for too
    const distinct = [...new Set(executed)];
    expect(distinct).toHaveLength(4); // the counters, the oldest pending, the due ones (fresh, then retries)
    expect(distinct.flatMap((sql) => fullScans(t!.ctx.db, sql))).toEqual([]);
  });

  it('the worker settles an appointment’s deliveries by looking them up, not by walking the backlog', () => {
    t = createTestContext();
    seed(t.ctx.db);
    const store = new DeliveryStore(t.ctx.db);
    const [first] = store.due(Date.now(), 64);
    const ofKey = () =>
      (
        t!.ctx.db.prepare("SELECT COUNT(*) AS n FROM deliveries WHERE state = 'pending' AND appointment_key = ?").get(first!.key) as {
          n: number;
        }
      ).n;
    const pendingOfKey = ofKey();
    expect(pendingOfKey).toBeGreaterThan(first!.ids.length); // due() saw some, the store remembers them all
    const executed = recordStatements();
    store.settle(first!.key, Date.now(), Date.now(), () => ({ value: null }), first!.ids);
    store.retry(first!.key, Date.now(), 'no answer', () => Date.now() + 5000, first!.ids);
    const plans = [...new Set(executed)].flatMap((sql) => {
      const named = Object.fromEntries([...sql.matchAll(/@(\w+)/g)].map((m) => [m[1], m[1] === 'ids' ? '[1]' : 0]));
      const stmt = t!.ctx.db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
      return (
        (Object.keys(named).length ? stmt.all(named) : stmt.all(...(sql.match(/\?/g) ?? []).map(() => 0))) as { detail: string }[]
      ).map((r) => r.detail);
    });
    expect(plans.filter((d) => /^SCAN deliveries|INDEX deliveries_(fresh|retry_due|retry_since)\b/.test(d))).toEqual([]);
    expect(ofKey()).toBe(0);
    expect(store.counts().pending).toBe(DELIVERIES / 1000 - pendingOfKey);
  });

  it('finds the oldest of a backlog of 30,000 pending deliveries in one index entry, not by visiting them all', () => {
    t = createTestContext();
    t.ctx.db.exec(`
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300000)
      INSERT INTO deliveries (dedupe_key, appointment_key, body, received_at_ms, state, attempts, processed_at_ms)
      SELECT 'b' || i, 'k' || i, '', i, CASE WHEN i % 10 = 0 THEN 'pending' ELSE 'done' END, 1, i FROM n`);
    const executed = recordStatements();
    expect(new DeliveryStore(t.ctx.db).counts()).toMatchObject({ pending: 30_000, oldestPendingAt: 10 });
    const oldest = executed.find((sql) => /MIN\(received_at_ms\)/.test(sql))!;
    const plan = t.ctx.db.prepare(`EXPLAIN QUERY PLAN ${oldest}`).all() as { detail: string }[];
    // MIN over each index of pending rows ordered by arrival: SQLite reads its first entry.
    expect(plan.map((r) => r.detail).filter((d) => / deliveries /.test(d))).toEqual([
      'SEARCH deliveries USING COVERING INDEX deliveries_fresh',
      'SEARCH deliveries USING INDEX deliveries_retry_since',
    ]);
  });
});
