// After a restart (or a commit by another process, or a bulk change) the feeds' stored members are
// brought up to date by a pass over every stored appointment. The pass goes in slices: status answers
// at once from the members stored so far, requests beside it are answered, a feed request waits for
// it and gets every event, and changes that arrive meanwhile are not lost, wherever the pass is.
import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/db.ts';
import { AppointmentStore } from '../../src/store/appointment-store.ts';
import { ManualClock } from '../../src/core/clock.ts';
import type { Runtime } from '../../src/wiring/runtime.ts';
import { appointment } from './appointments.ts';
import { checkFeed } from './ics-assert.ts';
import { sha256Hex } from '../../src/core/hash.ts';
import { ALL_TOKEN, BOTH_FEEDS, countsBecome, feedCounts, nextTurn, servingRuntimes, TOKEN } from './serving-runtime.ts';

const { newPath, serving } = servingRuntimes();

// Ten pages of a pass; the last quarter (the end of key order) is cancelled while the daemon is stopped.
const COUNT = 2000;
const CANCELLED_FROM = 1501;
const BEFORE = { Clinic: COUNT, Everything: COUNT };
const AFTER = { Clinic: CANCELLED_FROM - 1, Everything: COUNT };

const uid = (n: number) => `apt${String(n).padStart(5, '0')}@calbridge`;

/**
 * A database whose feeds' members are those of a run that stored COUNT appointments (and, with
 * `served`, assembled the Clinic feed's body); then a one-shot `sync` (another process) cancelled the
 * last ones. The daemon restarted over it has a pass to do.
 */
async function restartedAfterAnotherProcessChanged(served = false): Promise<{ path: string; runtime: Runtime }> {
  const path = newPath('calbridge-member-pass-');
  const first = await serving(path);
  expect(feedCounts(first)).toEqual({ Clinic: 0, Everything: 0 });
  first.services.appointments.batch(() => {
    for (let n = 1; n <= COUNT; n++) first.services.appointments.upsert(appointment(n));
  });
  expect(feedCounts(first)).toEqual(BEFORE);
  if (served) expect(checkFeed(await (await first.app.request(`/feeds/${TOKEN}.ics`)).text())).toHaveLength(COUNT);
  await first.close();
  const other = openDatabase(path);
  try {
    const store = new AppointmentStore(other, new ManualClock(Date.now() + 60_000));
    store.batch(() => {
      for (let n = CANCELLED_FROM; n <= COUNT; n++) store.upsert(appointment(n, { status: 'CANCELLED' }));
    });
  } finally {
    other.close();
  }
  return { path, runtime: await serving(path) };
}

describe('the pass over every row after a restart', () => {
  it('leaves status answering at once from the stored members, lets the event loop go, and ends with exact counts', async () => {
    const { runtime } = await restartedAfterAnotherProcessChanged();
    let seenAtNextTurn: Record<string, number> | undefined;
    setImmediate(() => {
      seenAtNextTurn = feedCounts(runtime);
    });
    // The first status call starts the pass and does not wait for it: the previous run's members.
    expect(feedCounts(runtime)).toEqual(BEFORE);
    await nextTurn();
    // A callback scheduled before the pass began ran before the pass reached the rows that changed.
    expect(seenAtNextTurn).toEqual(BEFORE);
    await countsBecome(runtime, AFTER);
  });

  it('answers /healthz while a feed request waits for it, and that request gets every change, not the stored body', async () => {
    const { runtime } = await restartedAfterAnotherProcessChanged(true);
    let done = false;
    const feed = Promise.resolve(runtime.app.request(`/feeds/${TOKEN}.ics`)).then((res) => {
      done = true;
      return res;
    });
    const health = await runtime.app.request('/healthz');
    expect(health.status).toBe(200);
    expect(done).toBe(false);
    // The pass is still under way: status shows the members stored so far.
    expect(feedCounts(runtime)).toEqual(BEFORE);

    const res = await feed;
    expect(res.status).toBe(200);
    const uids = checkFeed(await res.text()).map((e) => e.uid);
    expect(uids).toHaveLength(CANCELLED_FROM - 1);
    expect(uids).toContain(uid(CANCELLED_FROM - 1));
    expect(uids).not.toContain(uid(CANCELLED_FROM));
    expect(feedCounts(runtime)).toEqual(AFTER);
    // Its ETag names that body: nothing changed since, so asking with it gets a 304.
    const again = await runtime.app.request(`/feeds/${TOKEN}.ics`, { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('keeps the changes that arrive meanwhile, to rows it has read and rows it has yet to read', async () => {
    const { runtime } = await restartedAfterAnotherProcessChanged();
    const store = runtime.services.appointments;
    expect(feedCounts(runtime)).toEqual(BEFORE); // under way: its first page is read
    // Webhooks meanwhile: behind the pass (its first page), ahead of it, and a new appointment.
    store.upsert(appointment(5, { status: 'CANCELLED' }));
    store.markGone(appointment(10).key, 'deleted');
    store.upsert(appointment(1000, { status: 'CANCELLED' }));
    store.upsert(appointment(COUNT + 1));
    await nextTurn();
    // And one more once it has gone on, behind it again.
    store.upsert(appointment(6, { status: 'CANCELLED' }));

    const res = await runtime.app.request(`/feeds/${TOKEN}.ics`);
    const uids = checkFeed(await res.text()).map((e) => e.uid);
    for (const n of [5, 6, 10, 1000, CANCELLED_FROM]) expect(uids).not.toContain(uid(n));
    expect(uids).toContain(uid(COUNT + 1));
    expect(uids).toContain(uid(7));
    expect(uids).toHaveLength(CANCELLED_FROM - 1 - 4 + 1);
    expect(feedCounts(runtime)).toEqual({ Clinic: CANCELLED_FROM - 1 - 4 + 1, Everything: COUNT - 1 + 1 });
  });

  it('starts over when more rows it has read change meanwhile than are kept by key', async () => {
    const { runtime } = await restartedAfterAnotherProcessChanged();
    const store = runtime.services.appointments;
    expect(feedCounts(runtime)).toEqual(BEFORE);
    // An import meanwhile: more new appointments than are kept by key (5,000), all with keys the pass
    // has passed ('a-' sorts before 'apt'), and a cancellation behind it.
    const imported = 5001;
    store.batch(() => {
      store.upsert(appointment(5, { status: 'CANCELLED' }));
      for (let n = 1; n <= imported; n++) store.upsert(appointment(n, { key: `a-${String(n).padStart(5, '0')}` }));
    });
    await countsBecome(runtime, { Clinic: AFTER.Clinic - 1 + imported, Everything: COUNT + imported });
  });

  it("forgets the members of a feed no longer configured, and keeps the others'", async () => {
    const { path } = await restartedAfterAnotherProcessChanged();
    const storedMembers = (runtime: Runtime, token: string) =>
      runtime.services.fragments.members.summary(sha256Hex(`feed:${token}`).slice(0, 32)).events;
    const clinicOnly = await serving(path, BOTH_FEEDS.slice(0, 1));
    expect(feedCounts(clinicOnly)).toEqual({ Clinic: BEFORE.Clinic });
    expect(storedMembers(clinicOnly, ALL_TOKEN)).toBe(0);
    await countsBecome(clinicOnly, { Clinic: AFTER.Clinic });
    expect(storedMembers(clinicOnly, TOKEN)).toBe(AFTER.Clinic);
  });

  it('ends when the daemon stops meanwhile: a feed request waiting for it fails, and the next start does it whole', async () => {
    const { path, runtime } = await restartedAfterAnotherProcessChanged();
    const feed = runtime.app.request(`/feeds/${TOKEN}.ics`);
    expect(feedCounts(runtime)).toEqual(BEFORE);
    await runtime.close();
    expect((await feed).status).toBe(500);
    expect(existsSync(`${path}-feeds`) ? readdirSync(`${path}-feeds`) : []).toEqual([]);

    const restarted = await serving(path);
    feedCounts(restarted);
    await countsBecome(restarted, AFTER);
  });
});

describe('the pass and keys outside ASCII', () => {
  it('keeps a change to a row it has read in SQLite order, though JavaScript orders the two keys the other way', async () => {
    const path = newPath('calbridge-member-pass-');
    // SQLite orders keys by their UTF-8 bytes, JavaScript by UTF-16 units: '\uFFFD' comes before
    // '😀' in the first order, after it in the second.
    const read = 'k-\uFFFD';
    const cursor = 'k-😀';
    const keys = [...Array.from({ length: 198 }, (_, i) => `k-${String(i).padStart(4, '0')}`), read, cursor];
    keys.push(...Array.from({ length: 300 }, (_, i) => `z-${String(i).padStart(4, '0')}`));
    const first = await serving(path);
    feedCounts(first);
    first.services.appointments.batch(() => {
      for (const [n, key] of keys.entries()) first.services.appointments.upsert(appointment(n, { key }));
    });
    expect(feedCounts(first)).toEqual({ Clinic: keys.length, Everything: keys.length });
    await first.close();

    const runtime = await serving(path);
    // The pass's first page ends at `cursor`: `read` is behind it.
    feedCounts(runtime);
    runtime.services.appointments.upsert(appointment(keys.indexOf(read), { key: read, status: 'CANCELLED' }));
    await countsBecome(runtime, { Clinic: keys.length - 1, Everything: keys.length });
  });
});
