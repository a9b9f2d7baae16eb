// Delivery counts come from counters the database keeps as rows change (no pass over the table):
// they must agree with the table through every change a delivery goes through, in every process,
// and start right on a database that already holds deliveries. Bodies are kept only until processed.
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/store/db.ts';
import { DeliveryStore, type DeliveryCounts } from '../../src/store/delivery-store.ts';
import { testDelivery as delivery } from '../helpers/delivery.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { oldDatabases } from './old-databases.ts';

let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});
const databases = oldDatabases('calbridge-counts-');

/** The counts as a pass over the table gives them (what the counters replace). */
function counted(db: Db): Omit<DeliveryCounts, 'oldestPendingAt'> & { oldestPendingAt: number | null } {
  const r = db
    .prepare(
      `SELECT COALESCE(SUM(state = 'pending'), 0) AS pending, COALESCE(SUM(state = 'pending' AND attempts > 0), 0) AS retrying,
              COALESCE(SUM(state = 'failed'), 0) AS failed, COALESCE(SUM(state = 'done'), 0) AS done,
              MIN(CASE WHEN state = 'pending' THEN received_at_ms END) AS oldestPendingAt FROM deliveries`,
    )
    .get() as DeliveryCounts;
  return r;
}

describe('delivery counters', () => {
  it('agree with the table through storing, repeats, retries, failures, re-queues and pruning', () => {
    t = createTestContext();
    const db = t.ctx.db;
    const store = new DeliveryStore(db);
    const check = () => expect(store.counts()).toEqual(counted(db));
    store.insertMany([delivery(1, 'a', 1000), delivery(2, 'b', 1100), delivery(3, 'c', 1200), delivery(1, 'a', 1300)]);
    check();
    expect(store.due(5000, 10).map((d) => d.key)).toEqual(['a', 'b', 'c']);
    store.retry('a', 5000, 'the booking service did not answer', () => 9000);
    check();
    expect(store.counts().retrying).toBe(1);
    store.settle('b', 5000, 2000, () => ({ value: null, failed: 'unreadable' }));
    store.settle('c', 5000, 2000, () => ({ value: null }));
    check();
    store.settle('a', 5000, 3000, () => ({ value: null }));
    check();
    store.insertMany([delivery(3, 'c', 4000)]); // a repeat of a processed one is queued again, as a new row
    check();
    expect(store.counts()).toMatchObject({ pending: 1, done: 2, failed: 1, oldestPendingAt: 4000 });
    store.prune(10_000, 100);
    check();
    expect(store.counts()).toMatchObject({ pending: 1, done: 0, failed: 0 });
  });

  it('are shared by every process on the database (a one-shot sync next to serve)', () => {
    t = createTestContext();
    const serve = new DeliveryStore(t.ctx.db);
    const other = openDatabase(t.ctx.config.database.path);
    try {
      const sync = new DeliveryStore(other);
      serve.insertMany([delivery(1, 'a', 1000), delivery(2, 'b', 1000)]);
      for (const d of sync.due(5000, 10)) sync.settle(d.key, 5000, 2000, () => ({ value: null }), d.ids); // serve stored them: found by due()
      expect(serve.counts()).toMatchObject({ pending: 0, done: 2 });
    } finally {
      other.close();
    }
  });

  it('start from the rows already stored when the database is upgraded', () => {
    const { db: before, path } = databases.atSchema(4);
    const insert = before.prepare(
      `INSERT INTO deliveries (dedupe_key, appointment_key, body, received_at_ms, state, attempts, processed_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    insert.run('p', 'a', '{"kept":"until processed"}', 1000, 'pending', 0, null);
    insert.run('r', 'b', '{"kept":"until processed"}', 1100, 'pending', 2, null);
    insert.run('d', 'c', '{"old":"body"}', 1200, 'done', 1, 1300);
    insert.run('f', 'd', '{"old":"body"}', 1200, 'failed', 1, 1300);
    before.close();

    const db = openDatabase(path);
    try {
      expect(new DeliveryStore(db).counts()).toEqual({ pending: 2, retrying: 1, done: 1, failed: 1, oldestPendingAt: 1000 });
      expect(db.prepare('SELECT dedupe_key, body FROM deliveries ORDER BY id').all()).toEqual([
        { dedupe_key: 'p', body: '{"kept":"until processed"}' },
        { dedupe_key: 'r', body: '{"kept":"until processed"}' },
        { dedupe_key: 'd', body: '' },
        { dedupe_key: 'f', body: '' },
      ]);
    } finally {
      db.close();
    }
  });
});

describe('delivery bodies', () => {
  it('are kept while pending and cleared once processed; a repeat is stored with its body', () => {
    t = createTestContext();
    const store = new DeliveryStore(t.ctx.db);
    const body = (key: string) =>
      (t!.ctx.db.prepare('SELECT body FROM deliveries WHERE appointment_key = ?').get(key) as { body: string }).body;
    store.insertMany([delivery(1, 'a', 1000), delivery(2, 'b', 1000), delivery(3, 'c', 1000)]);
    store.retry('a', 5000, 'no answer', () => 9000);
    store.settle('b', 5000, 2000, () => ({ value: null }));
    store.settle('c', 5000, 2000, () => ({ value: null, failed: 'unreadable' }));
    expect([body('a'), body('b'), body('c')]).toEqual(['{"n":1}', '', '']);
    store.insertMany([delivery(2, 'b', 3000)]);
    const bodies = t.ctx.db.prepare('SELECT state, body FROM deliveries WHERE appointment_key = ? ORDER BY id').all('b');
    expect(bodies).toEqual([
      { state: 'done', body: '' },
      { state: 'pending', body: '{"n":2}' },
    ]);
  });

  it('stays while a repeat that arrived after the worker asked keeps the delivery pending', () => {
    t = createTestContext();
    const store = new DeliveryStore(t.ctx.db);
    store.insertMany([delivery(1, 'a', 1000)]);
    store.insertMany([delivery(1, 'a', 2500)]); // arrives while the worker waits for the answer it asked for at 2000
    store.settle('a', 2000, 3000, () => ({ value: null }));
    expect(t.ctx.db.prepare('SELECT state, body FROM deliveries').get()).toEqual({ state: 'pending', body: '{"n":1}' });
  });
});
