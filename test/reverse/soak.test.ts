// Soak: a couple of minutes of seeded random life on both sides (people moving, deleting and
// retitling events in Google; the booking service booking, moving and cancelling, with and without
// webhooks; Google faults and a lost sync token now and then), with the jobs run in random order.
// At the end Google, the feed and the booking service agree on every appointment.
import { afterEach, expect, it } from 'vitest';
import { checkFeed } from '../feeds/ics-assert.ts';
import { CAL, FEED_TOKEN, googleStart, slot, startReverseEnv, type ReverseEnv } from './harness.ts';
import { seededRandom } from '../../src/booking/simulator/random.ts';

const SEED = 20260615;
const STEPS = 2800;
/** Stops early on a slow machine; every prefix of the sequence is as valid as the whole. */
const BUDGET_MS = 140_000;
const CALENDARS = ['c0000000-0000-4000-a000-000000000001', 'c0000000-0000-4000-a000-000000000002'];
const JOBS = ['deliveries', 'google-writer', 'reverse-sync', 'reschedules', 'google-writer', 'poll'];


let env: ReverseEnv;
afterEach(async () => {
  await env?.close();
});

it('after minutes of random changes on both sides, Google, the feed and the booking service agree', async () => {
  const random = seededRandom(SEED);
  const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)]!;
  const anySlot = () => slot(Math.floor(random() * 36) + Math.floor(random() * 2) * 0.5);
  env = await startReverseEnv();
  for (let i = 0; i < 10; i++) env.sim.create({ start: slot(i * 3), calendar: { calendar_key: CALENDARS[i % 2]! } });
  await env.settle(2);

  const active = () => env.sim.all().filter((a) => !a.status.startsWith('CANCEL'));
  const inGoogle = () => active().filter((a) => env.eventOf(a.appointment_key)?.status === 'confirmed');
  const counts: Record<string, number> = {};
  const started = Date.now();
  for (let step = 0; step < STEPS && Date.now() - started < BUDGET_MS; step++) {
    const r = random();
    const mirrored = inGoogle();
    let op = 'nothing';
    if (r < 0.3 && mirrored.length) {
      op = 'google-move';
      env.moveInGoogle(pick(mirrored).appointment_key, anySlot());
    } else if (r < 0.38 && mirrored.length) {
      op = 'google-delete';
      env.deleteInGoogle(pick(mirrored).appointment_key);
    } else if (r < 0.43 && mirrored.length) {
      op = 'google-retitle';
      env.fake.state.userEdit(CAL, env.eventOf(pick(mirrored).appointment_key)!.id, { summary: `edited ${step}` });
    } else if (r < 0.58 && active().length) {
      op = 'booking-move';
      env.sim.reschedule(pick(active()).appointment_key, anySlot());
    } else if (r < 0.62 && active().length > 4) {
      op = 'booking-cancel';
      env.sim.cancel(pick(active()).appointment_key);
    } else if (r < 0.67) {
      op = 'booking-create';
      env.sim.create({ start: anySlot(), calendar: { calendar_key: pick(CALENDARS) } });
    } else if (r < 0.72 && active().length) {
      op = 'booking-move-unannounced';
      env.sim.suppressNotifications(true);
      env.sim.reschedule(pick(active()).appointment_key, anySlot());
      env.sim.suppressNotifications(false);
    } else if (r < 0.73) {
      op = 'lost-sync-token';
      env.fake.state.invalidateSyncTokens(CAL);
    } else if (r < 0.75) {
      op = 'google-faults';
      env.fake.setFaults(random() < 0.5 ? { rate: 0.1, kinds: [429, 500, '403rate'] } : null);
    }
    counts[op] = (counts[op] ?? 0) + 1;
    await env.sim.idle();
    const runs = 1 + Math.floor(random() * 3);
    for (let j = 0; j < runs; j++) await env.run(pick(JOBS));
  }

  env.fake.setFaults(null);
  await env.settle(6);
  expect(counts['google-move'] ?? 0).toBeGreaterThan(20);

  // Nothing left half done.
  const rs = env.status().reverse_sync as { reschedules: { pending: number; failed: number } };
  expect(rs.reschedules).toMatchObject({ pending: 0, failed: 0 });

  // Google: exactly one live event per active appointment, at the booking's time; none for the cancelled.
  const live = env.fake.events(CAL);
  expect(live).toHaveLength(active().length);
  for (const a of env.sim.all()) {
    const ev = env.eventOf(a.appointment_key);
    if (a.status.startsWith('CANCEL')) {
      expect(ev === undefined || ev.status === 'cancelled', `${a.search_code} cancelled`).toBe(true);
    } else {
      expect(googleStart(ev), `${a.search_code} in Google`).toBe(a.start);
      expect(Date.parse(ev!.end!.dateTime!), `${a.search_code} end in Google`).toBe(a.end);
    }
  }

  // Stored state and the feed agree with the booking service too.
  const feed = checkFeed(await (await fetch(`${env.url}/feeds/${FEED_TOKEN}.ics`)).text());
  expect(feed).toHaveLength(active().length);
  for (const a of active()) {
    expect(env.t.ctx.appointments.get(a.appointment_key)?.appointment.start).toBe(a.start);
    const vevent = feed.find((e) => e.uid === `${a.appointment_key}@calbridge`);
    expect(vevent && Date.parse(vevent.start), `${a.search_code} in the feed`).toBe(a.start);
  }

  // And it stays quiet: another few rounds change nothing anywhere.
  const writes = env.googleWrites();
  const patches = env.reschedulePatches();
  await env.settle(4);
  expect(env.googleWrites()).toBe(writes);
  expect(env.reschedulePatches()).toBe(patches);
}, 240_000);
