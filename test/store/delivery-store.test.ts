import { afterEach, describe, expect, it } from 'vitest';
import { testDelivery as delivery } from '../helpers/delivery.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { DeliveryStore } from '../../src/store/delivery-store.ts';
import { testAppointment } from '../helpers/appointment.ts';

let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('delivery store: was an appointment announced by a webhook?', () => {
  it('yes while a delivery is pending, whenever it arrived', () => {
    t = createTestContext();
    const store = new DeliveryStore(t.ctx.db);
    store.insertMany([delivery(1, 'a', 1000)]);
    expect(store.announced('a', 5000)).toBe(true);
    expect(store.announced('b', 0)).toBe(false);
  });

  it('after processing, only for deliveries that arrived since the given time, and it survives pruning', () => {
    t = createTestContext();
    const store = new DeliveryStore(t.ctx.db);
    expect(store.insertMany([delivery(1, 'a', 1000), delivery(2, 'a', 3000), delivery(3, 'b', 2000)])).toEqual([true, true, true]);
    for (const { key } of store.due(10_000, 10)) store.settle(key, 4000, 4000, () => ({ value: null }));
    expect(store.announced('a', 3000)).toBe(true);
    expect(store.announced('a', 3001)).toBe(false);
    expect(store.announced('b', 2000)).toBe(true);
    store.prune(10_000, 100);
    expect(store.announced('a', 3000)).toBe(true);
  });

  it('queues a repeat of an already processed delivery again (the same bytes can announce a new change)', () => {
    t = createTestContext();
    const store = new DeliveryStore(t.ctx.db);
    store.insertMany([delivery(1, 'a', 1000)]);
    store.settle('a', 2000, 2000, () => ({ value: null }));
    expect(store.counts().pending).toBe(0);
    expect(store.insertMany([delivery(1, 'a', 3000)])).toEqual([true]);
    expect(store.due(10_000, 10).map((d) => d.key)).toEqual(['a']);
    expect(store.counts().oldestPendingAt).toBe(3000);
  });

  it('knows a repeat within one group commit, and a repeat of what was pending before a restart', () => {
    t = createTestContext();
    const store = new DeliveryStore(t.ctx.db);
    expect(store.insertMany([delivery(1, 'a', 1000), delivery(1, 'a', 1001), delivery(2, 'b', 1002)])).toEqual([true, false, true]);
    // a new process over the same file: what was pending is read back before its first webhook
    const restarted = new DeliveryStore(t.ctx.db);
    expect(restarted.insertMany([delivery(2, 'b', 2000), delivery(3, 'c', 2000)])).toEqual([false, true]);
    expect(restarted.counts().pending).toBe(3);
  });

  it('stores a repeat of a delivery another process settled meanwhile (the row decides, not the memory)', () => {
    t = createTestContext();
    const receiver = new DeliveryStore(t.ctx.db);
    receiver.insertMany([delivery(1, 'a', 1000)]);
    // a one-shot `sync` in another process settles it; the receiver still remembers it as pending
    const other = new DeliveryStore(t.ctx.db);
    for (const { key, ids } of other.due(5000, 10)) other.settle(key, 2000, 2000, () => ({ value: null }), ids);
    expect(receiver.insertMany([delivery(1, 'a', 3000)])).toEqual([true]);
    expect(receiver.due(10_000, 10).map((d) => d.key)).toEqual(['a']);
    expect(receiver.counts()).toMatchObject({ pending: 1, done: 1 });
  });

  it('keeps a delivery pending when a repeat arrived after the worker asked the booking service', () => {
    t = createTestContext();
    const store = new DeliveryStore(t.ctx.db);
    store.insertMany([delivery(1, 'a', 1000), delivery(2, 'b', 1000)]);
    expect(store.insertMany([delivery(1, 'a', 1500)])).toEqual([false]); // before the worker asked: covered
    // the worker asks at 2000; a repeat of b's notification arrives at 2500, while it waits for the answer
    expect(store.insertMany([delivery(2, 'b', 2500)])).toEqual([false]);
    // and a new delivery of a arrives at 2600: the answer asked for at 2000 may predate what it announces
    store.insertMany([delivery(3, 'a', 2600)]);
    expect(store.settle('a', 2000, 3000, () => ({ value: null })).receivedAt).toEqual([1000]);
    expect(store.settle('b', 2000, 3000, () => ({ value: null })).receivedAt).toEqual([]);
    expect(store.due(10_000, 10).map((d) => d.key)).toEqual(['b', 'a']);
    expect(store.settle('b', 3500, 4000, () => ({ value: null })).receivedAt).toEqual([1000]);
    expect(store.settle('a', 3500, 4000, () => ({ value: null })).receivedAt).toEqual([2600]);
    expect(store.due(10_000, 10).map((d) => d.key)).toEqual([]);
  });

  it('commits what the re-read stored and the deliveries it settles together: a failure leaves both undone', () => {
    t = createTestContext();
    const store = new DeliveryStore(t.ctx.db);
    store.insertMany([delivery(1, 'a', 1000), delivery(2, 'a', 1100)]);
    expect(() =>
      store.settle('a', 2000, 2000, () => {
        t!.ctx.appointments.upsert(testAppointment({ key: 'a' }));
        throw new Error('the disk is full');
      }),
    ).toThrow('the disk is full');
    expect(t.ctx.appointments.get('a')).toBeUndefined();
    expect(store.counts()).toMatchObject({ pending: 2, done: 0 });
    store.settle('a', 2000, 2000, () => ({ value: t!.ctx.appointments.upsert(testAppointment({ key: 'a' })) }));
    expect(t.ctx.appointments.get('a')?.revision).toBe(1);
    expect(store.counts()).toMatchObject({ pending: 0, done: 2 });
  });

  it('stores a repeated delivery once while it is pending', () => {
    t = createTestContext();
    const store = new DeliveryStore(t.ctx.db);
    expect(store.insertMany([delivery(1, 'a', 1000), delivery(1, 'a', 1000)])).toEqual([true, false]);
    expect(store.counts().pending).toBe(1);
  });
});
