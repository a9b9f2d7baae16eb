// A large feed is assembled in slices: the server answers other requests meanwhile, requests for the
// feed wait for that one assembly, and the feeds' counts in status come from their stored members
// (the same numbers a count over every appointment gives) as changes arrive.
import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../src/wiring/runtime.ts';
import { appointment } from './appointments.ts';
import { checkFeed } from './ics-assert.ts';
import { countsBecome, feedCounts, servingRuntimes, TOKEN } from './serving-runtime.ts';

const { newPath, open, serving } = servingRuntimes();

async function renderedSoFar(runtime: Runtime): Promise<number> {
  const text = await runtime.services.metrics.registry.metrics();
  return Number(/calbridge_feed_events_rendered_total (\d+)/.exec(text)?.[1] ?? 0);
}

/**
 * Stores `count` appointments, asks for the feed, and waits through the event loop until its
 * assembly has rendered its first events: it has begun and not ended.
 */
async function feedRequestedAndBegun(runtime: Runtime, count: number): Promise<{ response: Promise<Response>; done: boolean }> {
  runtime.services.appointments.batch(() => {
    for (let n = 1; n <= count; n++) runtime.services.appointments.upsert(appointment(n));
  });
  const request = {
    done: false,
    response: Promise.resolve(runtime.app.request(`/feeds/${TOKEN}.ics`)).then((res) => {
      request.done = true;
      return res;
    }),
  };
  while (!request.done && (await renderedSoFar(runtime)) === 0) await new Promise((resolve) => setImmediate(resolve));
  expect(request.done).toBe(false);
  return request;
}

describe('a large feed being assembled', () => {
  it('leaves the server answering meanwhile, and requests for it wait for that one assembly', async () => {
    const runtime = await serving(newPath('calbridge-feed-slices-'));
    const count = 3000;
    const request = await feedRequestedAndBegun(runtime, count);
    const first = request.response;

    const second = runtime.app.request(`/feeds/${TOKEN}.ics`);
    const health = await runtime.app.request('/healthz');
    expect(health.status).toBe(200);
    // Answered while the feed was still being assembled.
    expect(request.done).toBe(false);

    const [a, b] = await Promise.all([first, second]);
    const [textA, textB] = await Promise.all([a.text(), b.text()]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(checkFeed(textA)).toHaveLength(count);
    // One assembly for both: the same body under the same ETag, each event rendered once.
    expect(b.headers.get('etag')).toBe(a.headers.get('etag'));
    expect(textB).toBe(textA);
    expect(await renderedSoFar(runtime)).toBe(count);

    // Unchanged: a 304 for that ETag, without assembling anything.
    const again = await runtime.app.request(`/feeds/${TOKEN}.ics`, { headers: { 'if-none-match': a.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect(await renderedSoFar(runtime)).toBe(count);
  });

  it('includes changes that arrive while its events are being rendered, under the ETag of what it sends', async () => {
    const runtime = await serving(newPath('calbridge-feed-slices-'));
    const first = (await feedRequestedAndBegun(runtime, 2000)).response;
    // Webhooks applied meanwhile: one new appointment, one cancelled.
    runtime.services.appointments.upsert(appointment(2001));
    runtime.services.appointments.upsert(appointment(5, { status: 'CANCELLED' }));

    const res = await first;
    const uids = checkFeed(await res.text()).map((e) => e.uid);
    expect(uids).toHaveLength(2000);
    expect(new Set(uids).size).toBe(2000);
    expect(uids).toContain('apt02001@calbridge');
    expect(uids).not.toContain('apt00005@calbridge');
    // Its ETag names that body: nothing changed since, so asking with it gets a 304.
    const next = await runtime.app.request(`/feeds/${TOKEN}.ics`, { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(next.status).toBe(304);

    // A change after it was sent: a new body under a new ETag.
    runtime.services.appointments.upsert(appointment(6, { status: 'CANCELLED' }));
    const changed = await runtime.app.request(`/feeds/${TOKEN}.ics`, { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(res.headers.get('etag'));
    expect(checkFeed(await changed.text()).map((e) => e.uid)).not.toContain('apt00006@calbridge');
  });

  it('ends when the daemon stops meanwhile, leaving no partial body behind', async () => {
    const path = newPath('calbridge-feed-slices-');
    const runtime = await serving(path);
    const request = await feedRequestedAndBegun(runtime, 2000);
    await runtime.close();
    expect((await request.response).status).toBe(500);
    expect(existsSync(`${path}-feeds`) ? readdirSync(`${path}-feeds`) : []).toEqual([]);
  });
});

describe("the feeds' counts in status", () => {
  it('follow changes, small and bulk, and agree with a count over every appointment', async () => {
    const path = newPath('calbridge-feed-counts-');
    const runtime = await serving(path);
    const store = runtime.services.appointments;
    expect(feedCounts(runtime)).toEqual({ Clinic: 0, Everything: 0 });

    store.batch(() => {
      for (let n = 1; n <= 300; n++) store.upsert(appointment(n));
    });
    expect(feedCounts(runtime)).toEqual({ Clinic: 300, Everything: 300 });

    store.upsert(appointment(7, { status: 'CANCELLED' }));
    store.markGone(appointment(8).key, 'deleted');
    store.upsert(appointment(301));
    expect(feedCounts(runtime)).toEqual({ Clinic: 299, Everything: 300 });

    // More changes at once than are read key by key: one pass over every row, in slices. Status
    // answers meanwhile from the members stored so far, and shows them all once the pass is over.
    store.batch(() => {
      for (let n = 302; n <= 5400; n++) store.upsert(appointment(n));
      for (let n = 10; n < 20; n++) store.upsert(appointment(n, { status: 'CANCELLED' }));
    });
    await countsBecome(runtime, { Clinic: 5400 - 2 - 10, Everything: 5400 - 1 });

    // A process that does not serve (`calbridge status` beside serve) counts from the appointments: the same.
    expect(feedCounts(open(path))).toEqual(feedCounts(runtime));
  });
});
