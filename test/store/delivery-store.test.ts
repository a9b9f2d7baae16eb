import { afterEach, describe, expect, it } from 'vitest';
import { testDelivery as delivery } from '../helpers/delivery.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { DeliveryStore } from '../../src/store/delivery-store.ts';

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
    const ids = store.due(10_000, 10).map((d) => d.id);
    store.markDone(ids, 4000);
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
    store.markDone(store.due(10_000, 10).map((d) => d.id), 2000);
    expect(store.counts().pending).toBe(0);
    expect(store.insertMany([delivery(1, 'a', 3000)])).toEqual([true]);
    expect(store.due(10_000, 10)).toMatchObject([{ appointmentKey: 'a', receivedAt: 3000 }]);
  });

  it('keeps a delivery pending when a repeat arrived after the worker asked the booking service', () => {
    t = createTestContext();
    const store = new DeliveryStore(t.ctx.db);
    store.insertMany([delivery(1, 'a', 1000), delivery(2, 'b', 1000)]);
    expect(store.insertMany([delivery(1, 'a', 1500)])).toEqual([false]); // before the worker asked: covered
    const [a, b] = store.due(10_000, 10);
    // the worker asks at 2000; a repeat of b's notification arrives at 2500, while it waits for the answer
    expect(store.insertMany([delivery(2, 'b', 2500)])).toEqual([false]);
    store.markDone([a!.id, b!.id], 3000, 2000);
    expect(store.due(10_000, 10).map((d) => d.appointmentKey)).toEqual(['b']);
    store.markDone([b!.id], 4000, 3500);
    expect(store.due(10_000, 10)).toEqual([]);
  });

  it('stores a repeated delivery once while it is pending', () => {
    t = createTestContext();
    const store = new DeliveryStore(t.ctx.db);
    expect(store.insertMany([delivery(1, 'a', 1000), delivery(1, 'a', 1000)])).toEqual([true, false]);
    expect(store.counts().pending).toBe(1);
  });
});
