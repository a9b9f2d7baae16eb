// A change reaches Google at once: into a pass already running (a backfill held by the pacer), ahead
// of the older work, written once; and a backfill is not one call at a time.
import { afterEach, expect, it, vi } from 'vitest';
import { appointment, createGoogleEnv, type GoogleEnv } from './google-env.ts';
import { eventIdFor } from '../../src/core/event-id.ts';

let env: GoogleEnv;
afterEach(async () => {
  await env?.closeAll();
});

const insertsOf = (e: GoogleEnv) => e.fake.log.filter((l) => l.kind === 'insert' && l.status === 200);

it('a booking made during a paced backfill is written in the same pass, before the backfill is done, with one call', async () => {
  // 1200 a minute: a burst of 60, then about one call every 53 ms; ten writes wait in the pacer at once.
  env = await createGoogleEnv({ google: { requests_per_minute: 1200 } });
  for (let i = 1; i <= 100; i++) env.put(appointment(i));
  const pass = env.runWriter();
  while (insertsOf(env).length < 60) await new Promise((r) => setTimeout(r, 5));
  const fresh = appointment(1000);
  env.put(fresh);
  const result = await pass;
  expect(result.more).toBeFalsy();
  expect(insertsOf(env)).toHaveLength(101);
  // The fake keeps events in the order they were created: the new one right after the writes already
  // waiting in the pacer, ahead of the thirty or so the backfill still had queued.
  const order = env.fake.events('primary').map((e) => e.id);
  expect(order).toHaveLength(101);
  expect(order.indexOf(eventIdFor(fresh.key))).toBeGreaterThanOrEqual(60);
  expect(order.indexOf(eventIdFor(fresh.key))).toBeLessThan(order.length - 15);
  // A repeat of the same change costs nothing.
  env.put(fresh);
  await env.runWriter();
  expect(insertsOf(env)).toHaveLength(101);
  expect(env.fake.counts().update).toBe(0);
});

it('a pass after a change plans only that change and writes it once; a pass with nothing noted looks at everything', async () => {
  env = await createGoogleEnv();
  for (let i = 1; i <= 5; i++) env.put(appointment(i));
  await env.runWriter();
  env.fake.resetLog();
  env.put(appointment(3, { start: appointment(3).start + 1_800_000, end: appointment(3).end + 1_800_000 }));
  await env.runWriter();
  expect(env.fake.log.filter((l) => l.kind === 'update').map((l) => l.eventId)).toEqual([eventIdFor(appointment(3).key)]);
  // Another process's edit (a restored database) is not a noted change: the scheduled pass finds it.
  env.ctx.db.prepare("DELETE FROM links WHERE target = 'google.default' AND appointment_key = ?").run(appointment(5).key);
  await env.runWriter();
  expect(env.fake.events('primary')).toHaveLength(5);
  expect(env.fake.counts().insert).toBe(1); // the 409 of the existing event adopted it
});

it('changes noted while a pass waits on one call are written at once, side by side, not one after another behind it', async () => {
  env = await createGoogleEnv();
  env.put(appointment(1));
  // Google takes the first insert but keeps its answer: the pass is running, its queue empty.
  const hold = env.fake.holdNext({ kind: 'insert' });
  const pass = env.runWriter();
  await hold.arrived;
  for (let i = 2; i <= 4; i++) env.put(appointment(i));
  // Written while the first call is still unanswered (before, they waited for it, then went one by one).
  await vi.waitFor(() => expect(env.fake.events('primary')).toHaveLength(4), { timeout: 5_000, interval: 10 });
  expect(env.section().pending).toBeGreaterThanOrEqual(1); // the held one: status still counts it
  hold.release();
  const result = await pass;
  expect(result.status).toBe('success');
  expect(insertsOf(env)).toHaveLength(4); // one call each
  expect(env.section().pending).toBe(0);
});

it('status counts as pending the changes a running pass takes on, until they are written', async () => {
  // 600 a minute: a burst of 30, then about ten a second; the first pass plans a single appointment.
  env = await createGoogleEnv({ google: { requests_per_minute: 600 } });
  env.put(appointment(1));
  const hold = env.fake.holdNext({ kind: 'insert' });
  const pass = env.runWriter();
  await hold.arrived;
  for (let i = 2; i <= 60; i++) env.put(appointment(i));
  await new Promise((r) => setImmediate(r));
  // Most still wait for the pacer: a backfill in progress does not read as "nothing pending".
  expect(env.section().pending).toBeGreaterThanOrEqual(20);
  hold.release();
  await pass;
  expect(env.fake.events('primary')).toHaveLength(60);
  expect(env.section().pending).toBe(0);
});
