// A person edits the mirrored calendar in a calendar app (a PUT with the ETag it had, a DELETE), on
// a real Radicale: the move reaches the booking simulator as exactly one reschedule after the slot
// check, a taken slot or a refusal moves it back, a deletion follows on_delete, and calbridge's own
// writes are never taken for a person's change.
import { afterEach, describe, expect, it } from 'vitest';
import { reverseSyncOn } from '../helpers/reverse-sync-section.ts';
import { slot, startMirrorEnv, type MirrorEnv } from './mirror-env.ts';

const H = 3_600_000;
let env: MirrorEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

async function booked(e: MirrorEnv, hours: number): Promise<string> {
  const key = e.sim.create({ start: slot(hours) }).appointment_key;
  await e.settle(1);
  expect(e.objects().get(`${key}.ics`)?.start).toBe(slot(hours));
  return key;
}

const startIn = (e: MirrorEnv, key: string) => e.objects().get(`${key}.ics`)?.start;
/** What the status page's activity says about an appointment, oldest first. */
const told = (e: MirrorEnv, key: string) =>
  e.t.ctx.activity
    .recent(1000)
    .filter((x) => x.appointmentKey === key)
    .reverse()
    .map((x) => `${x.direction}: ${x.summary}`);

describe('a person moves an event in a calendar app', () => {
  it('reschedules the booking exactly once, then stays quiet', async () => {
    env = await startMirrorEnv();
    const key = await booked(env, 0);
    expect(await env.moveInApp(key, slot(3))).toBeOneOf([200, 201, 204]);
    const putsBefore = await env.calls('PUT');

    await env.settle(1);
    expect(env.reschedulePatches(key)).toBe(1);
    expect(env.sim.get(key)?.start).toBe(slot(3));
    expect(env.sim.get(key)!.end - env.sim.get(key)!.start).toBe(H);
    expect(env.t.ctx.appointments.get(key)?.appointment.start).toBe(slot(3));

    await env.settle(5);
    expect(env.reschedulePatches(key)).toBe(1);
    expect(startIn(env, key)).toBe(slot(3));
    // At most one write: the booking service's record of the new time (a new SEQUENCE), nothing more.
    expect((await env.calls('PUT')) - putsBefore).toBeLessThanOrEqual(1);
    expect(env.files()).toEqual([`${key}.ics`]);
    expect(reverseSyncOn(env.status())).toMatchObject({ moves_detected: 1, reschedules: { done: 1, reverted: 0, pending: 0 } });
    // Told once, as made in the CalDAV calendar; the booking service's echo of it is not news.
    const moves = told(env, key).filter((x) => !x.startsWith('booking-to-targets: booked'));
    expect(moves).toEqual([
      expect.stringMatching(/^caldav-to-booking: moved in the CalDAV calendar to .* → rescheduled at the booking service$/),
    ]);
  });

  it('moves it back, with no PATCH, when the new slot is taken', async () => {
    env = await startMirrorEnv();
    const key = await booked(env, 0);
    const other = await booked(env, 3);
    await env.moveInApp(key, slot(3) + 30 * 60_000);
    await env.settle(2);
    expect(env.reschedulePatches()).toBe(0);
    expect(startIn(env, key)).toBe(slot(0));
    expect(env.sim.get(key)?.start).toBe(slot(0));
    const reverse = reverseSyncOn(env.status());
    expect(reverse).toMatchObject({ reschedules: { conflicts: 1, reverted: 1 } });
    // The bridge doing its job: told in the activity, naming the appointment in the way, not a problem.
    expect(reverse.problems).toEqual([]);
    expect(JSON.stringify(env.t.runtime.services.activity.recent())).toContain(`moved onto ${env.sim.get(other)?.search_code}'s slot`);
    // The move back is our own write: later rounds see nothing new.
    await env.settle(3);
    expect(env.reschedulePatches()).toBe(0);
    expect(reverseSyncOn(env.status()).moves_detected).toBe(1);
  });

  it('moves it back when the booking service refuses the reschedule, with its reason in status', async () => {
    env = await startMirrorEnv();
    const key = await booked(env, 0);
    env.sim.refuseReschedules('outside opening hours');
    await env.moveInApp(key, slot(5));
    await env.settle(2);
    expect(env.reschedulePatches(key)).toBe(1);
    expect(env.sim.get(key)?.start).toBe(slot(0));
    expect(startIn(env, key)).toBe(slot(0));
    expect(reverseSyncOn(env.status()).problems[0]).toMatchObject({ reason: 'refused' });
    expect(JSON.stringify(reverseSyncOn(env.status()).problems[0]!.detail)).toContain('outside opening hours');
  });
});

describe('a person deletes an event in a calendar app', () => {
  it('recreates it by default (on_delete: recreate), and the booking is untouched', async () => {
    env = await startMirrorEnv();
    const key = await booked(env, 1);
    expect(await env.deleteInApp(key)).toBeOneOf([200, 204]);
    expect(env.files()).toEqual([]);
    await env.settle(2);
    expect(env.files()).toEqual([`${key}.ics`]);
    expect(startIn(env, key)).toBe(slot(1));
    expect(env.sim.get(key)?.status).toBe('CONFIRMED');
    expect(reverseSyncOn(env.status())).toMatchObject({ deletions: { recreated: 1, cancelled: 0 } });
    expect(told(env, key)).toContain('reverted: deleted in the CalDAV calendar → recreated');
  });

  it('cancels the booking with on_delete: cancel', async () => {
    env = await startMirrorEnv({ reverse: { on_delete: 'cancel' } });
    const key = await booked(env, 1);
    await env.deleteInApp(key);
    await env.settle(2);
    expect(env.sim.get(key)?.status).toMatch(/^CANCEL/);
    expect(env.files()).toEqual([]);
    expect(reverseSyncOn(env.status())).toMatchObject({ deletions: { cancelled: 1 } });
  });
});

describe('our own writes', () => {
  it('are never taken for a person’s change: booking-side moves reach the calendar with no reschedule sent back', async () => {
    env = await startMirrorEnv();
    const key = await booked(env, 0);
    for (const h of [2, 4, 6]) {
      env.sim.reschedule(key, slot(h));
      await env.settle(2);
      expect(startIn(env, key)).toBe(slot(h));
    }
    expect(env.reschedulePatches()).toBe(0);
    expect(reverseSyncOn(env.status())).toMatchObject({ moves_detected: 0, deletions: { recreated: 0 } });
  });
});

it('a move onto a taken slot is put back; the same move again once the slot is free is rescheduled (Radicale gives the repeat the same ETag)', async () => {
  env = await startMirrorEnv();
  const e = env;
  const a = e.sim.create({ start: slot(0) }).appointment_key;
  const b = e.sim.create({ start: slot(3) }).appointment_key;
  await e.settle(1);
  await e.run('caldav-reverse-sync');

  await e.moveInApp(a, slot(3));
  await e.settle(2);
  expect(e.reschedulePatches(a)).toBe(0);
  expect(e.objects().get(`${a}.ics`)?.start, 'put back: the slot is taken').toBe(slot(0));

  e.sim.cancel(b);
  await e.settle(1);
  await e.moveInApp(a, slot(3)); // byte for byte the first edit again
  await e.settle(3);
  expect(e.reschedulePatches(a)).toBe(1);
  expect(e.sim.get(a)?.start).toBe(slot(3));
  expect(e.objects().get(`${a}.ics`)?.start).toBe(slot(3));
});
