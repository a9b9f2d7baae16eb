// A failed write backs off, but only for the content that failed: when the booking service changes
// the appointment meanwhile (moved, cancelled), the next writer run writes the new state at once,
// long before the backoff is over; with no new change, the writer leaves Google alone until then.
// A usage limit is different: it asks for fewer calls, and its wait holds whatever changes.
// The whole loop: the booking simulator's webhook, the delivery worker, the real googleapis client
// against the Google simulator, on a clock that only the test moves.
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.ts';
import { eventIdFor } from '../../src/core/event-id.ts';
import { CAL, googleStart, slot, startReverseEnv, type ReverseEnv } from '../reverse/harness.ts';

const MINUTE = 60_000;
let env: ReverseEnv;
afterEach(async () => {
  await env?.close();
});

const google = (e: ReverseEnv) => e.status().targets['google.default']!;

/** Calls the writer made about one event since the log was reset (reads, writes, failed ones too). */
const callsAbout = (e: ReverseEnv, key: string) => e.fake.log.filter((r) => r.eventId === eventIdFor(key));

/** The booking service's change reaches calbridge as in serve: its webhook, then the delivery worker's re-read. */
async function delivered(e: ReverseEnv): Promise<void> {
  await e.sim.idle();
  await e.run('deliveries');
}

/**
 * Booked and mirrored at slot(1); then moved to slot(2) while Google answers every call with a 500:
 * that write fails and backs off (ten minutes and more).
 */
async function failedMove(clock: ManualClock): Promise<string> {
  env = await startReverseEnv({ clock, itemBackoff: { baseMs: 10 * MINUTE, maxMs: 60 * MINUTE } });
  const key = env.sim.create({ start: slot(1) }).appointment_key;
  await env.settle(1);
  expect(googleStart(env.eventOf(key))).toBe(slot(1));

  env.fake.setFaults({ rate: 1, kinds: [500] });
  env.sim.reschedule(key, slot(2));
  await delivered(env);
  await env.run('google-writer');
  env.fake.setFaults(null);
  expect(googleStart(env.eventOf(key))).toBe(slot(1));
  const [failure] = google(env).failures;
  expect(failure).toMatchObject({ appointment_key: key, attempts: 1 });
  expect(Date.parse(failure!.next_attempt_at)).toBeGreaterThanOrEqual(clock.now() + 5 * MINUTE);

  // No new change: the same content waits out its backoff, no call about it.
  env.fake.resetLog();
  await env.run('google-writer');
  await env.run('google-writer');
  expect(callsAbout(env, key)).toEqual([]);
  expect(google(env).failures).toHaveLength(1);
  return key;
}

describe('a change after a failed write', () => {
  it('a move is written at once, before the backoff of the failed one is over, with one write', async () => {
    const clock = new ManualClock(Date.now());
    const key = await failedMove(clock);
    const backoffUntil = Date.parse(google(env).failures[0]!.next_attempt_at);

    env.sim.reschedule(key, slot(3));
    await delivered(env);
    await env.run('google-writer');
    expect(clock.now()).toBeLessThan(backoffUntil);
    expect(googleStart(env.eventOf(key))).toBe(slot(3));
    // The failed write may have landed with its answer lost: the event is read first, then written once.
    expect(callsAbout(env, key).map((r) => [r.kind, r.status])).toEqual([
      ['get', 200],
      ['update', 200],
    ]);
    // Status is truthful again: the item left "failed" with the successful write.
    expect(google(env)).toMatchObject({ failed: 0, failures: [] });

    // And nothing more to do about it.
    env.fake.resetLog();
    await env.run('google-writer');
    expect(callsAbout(env, key)).toEqual([]);
  });

  it('a cancellation deletes the event at once, before the backoff of the failed move is over', async () => {
    const clock = new ManualClock(Date.now());
    const key = await failedMove(clock);
    const backoffUntil = Date.parse(google(env).failures[0]!.next_attempt_at);

    env.sim.cancel(key);
    await delivered(env);
    await env.run('google-writer');
    expect(clock.now()).toBeLessThan(backoffUntil);
    expect(env.fake.events(CAL)).toEqual([]);
    expect(callsAbout(env, key).map((r) => [r.kind, r.status])).toEqual([
      ['get', 200],
      ['delete', 204],
    ]);
    expect(google(env)).toMatchObject({ failed: 0, failures: [] });
  });

  it('a new change that fails again backs off further, and the same content then waits again', async () => {
    const clock = new ManualClock(Date.now());
    const key = await failedMove(clock);
    const first = Date.parse(google(env).failures[0]!.next_attempt_at);

    env.fake.setFaults({ rate: 1, kinds: [500] });
    env.sim.reschedule(key, slot(3));
    await delivered(env);
    await env.run('google-writer');
    env.fake.setFaults(null);
    expect(callsAbout(env, key).length).toBeGreaterThan(0); // tried at once
    const [failure] = google(env).failures;
    expect(failure).toMatchObject({ appointment_key: key, attempts: 2 });
    // Attempts keep counting: the second step of the backoff, from twenty minutes.
    expect(Date.parse(failure!.next_attempt_at) - clock.now()).toBeGreaterThanOrEqual(10 * MINUTE);

    env.fake.resetLog();
    await env.run('google-writer');
    expect(callsAbout(env, key)).toEqual([]);

    // Once its time comes, the wanted state is written (the first failure's time has passed as well).
    clock.set(Math.max(first, Date.parse(failure!.next_attempt_at)));
    await env.run('google-writer');
    expect(googleStart(env.eventOf(key))).toBe(slot(3));
    expect(google(env)).toMatchObject({ failed: 0, failures: [] });
  });

  it('after a usage-limit answer the wait holds for any change: no call until it is over', async () => {
    const clock = new ManualClock(Date.now());
    env = await startReverseEnv({ clock, itemBackoff: { baseMs: 10 * MINUTE, maxMs: 60 * MINUTE } });
    const key = env.sim.create({ start: slot(1) }).appointment_key;
    await env.settle(1);

    env.fake.failNext('quota'); // Google's quotaExceeded: not retried, the pass stops
    env.sim.reschedule(key, slot(2));
    await delivered(env);
    await env.run('google-writer');
    const backoffUntil = Date.parse(google(env).failures[0]!.next_attempt_at);

    env.fake.resetLog();
    env.sim.reschedule(key, slot(3));
    await delivered(env);
    await env.run('google-writer');
    expect(callsAbout(env, key)).toEqual([]);
    expect(googleStart(env.eventOf(key))).toBe(slot(1));

    clock.set(backoffUntil);
    await env.run('google-writer');
    expect(googleStart(env.eventOf(key))).toBe(slot(3));
    expect(google(env)).toMatchObject({ failed: 0, failures: [] });
  });
});
