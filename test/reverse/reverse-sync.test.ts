// Reverse sync end to end: the real googleapis client against the fake Google, the real booking
// client against the simulator, over HTTP.
import { afterEach, describe, expect, it } from 'vitest';
import { CAL, googleStart, slot, startReverseEnv, type ReverseEnv } from './harness.ts';
import { reverseSyncOn } from '../helpers/reverse-sync-section.ts';

const H = 3_600_000;
let env: ReverseEnv;
afterEach(async () => {
  await env?.close();
});

/** One appointment booked at the simulator and mirrored into Google. */
async function booked(e: ReverseEnv, hours = 0, calendarKey?: string): Promise<string> {
  const a = e.sim.create({ start: slot(hours), ...(calendarKey ? { calendar: { calendar_key: calendarKey } } : {}) });
  await e.settle(1);
  expect(googleStart(e.eventOf(a.appointment_key))).toBe(slot(hours));
  return a.appointment_key;
}

const section = (e: ReverseEnv) => reverseSyncOn(e.status().targets['google.default']);

describe('a person moves an event in Google', () => {
  it('reschedules the booking exactly once, then stays quiet', async () => {
    env = await startReverseEnv();
    const key = await booked(env);
    await env.run('google-reverse-sync'); // the first round lists everything: nothing to do
    env.moveInGoogle(key, slot(3));
    const writesBefore = env.googleWrites();

    await env.settle(1);
    expect(env.reschedulePatches(key)).toBe(1);
    const body = env.sim.requests.find((r) => r.method === 'PATCH' && r.path.endsWith('/reschedule/'))?.body as { start_date: string };
    expect(body.start_date).toMatch(/^\d{4}-\d\d-\d\dT12:00:00-03:00$/); // the booking zone's offset
    expect(env.sim.get(key)?.start).toBe(slot(3));
    expect(env.sim.get(key)!.end - env.sim.get(key)!.start).toBe(H); // duration stays the booking's
    expect(env.t.ctx.appointments.get(key)?.appointment.start).toBe(slot(3));

    await env.settle(10);
    expect(env.reschedulePatches(key)).toBe(1);
    expect(env.googleWrites() - writesBefore).toBeLessThanOrEqual(1);
    expect(googleStart(env.eventOf(key))).toBe(slot(3));
    expect(section(env)).toMatchObject({ moves_detected: 1, reschedules: { done: 1, reverted: 0, pending: 0 } });
  });

  it('puts the event back, with no PATCH, when the new slot is taken in the same booking calendar', async () => {
    env = await startReverseEnv();
    const key = await booked(env, 0);
    const other = await booked(env, 3);
    const elsewhere = await booked(env, 6, 'c0000000-0000-4000-a000-0000000000ff');
    await env.run('google-reverse-sync');
    env.moveInGoogle(key, slot(3) + 30 * 60_000); // overlaps `other` by half an hour
    await env.settle(2);
    expect(env.reschedulePatches()).toBe(0);
    expect(googleStart(env.eventOf(key))).toBe(slot(0));
    expect(section(env)).toMatchObject({ reschedules: { conflicts: 1, reverted: 1 } });
    // The bridge doing its job: told in the activity, naming the appointment in the way, not a problem.
    expect(section(env).problems).toEqual([]);
    expect(JSON.stringify(env.status().activity)).toContain(`moved onto ${env.sim.get(other)?.search_code}'s slot`);

    // Another booking calendar's appointment at that time is no conflict.
    env.moveInGoogle(key, slot(6));
    await env.settle(2);
    expect(env.reschedulePatches(key)).toBe(1);
    expect(env.sim.get(key)?.start).toBe(slot(6));
    expect(env.sim.get(elsewhere)?.start).toBe(slot(6));
    // The revert's echo and the booking's webhook were quiet: nothing else happened.
    await env.settle(5);
    expect(env.reschedulePatches()).toBe(1);
  });

  it('with on_conflict: allow, reschedules onto an occupied slot without checking it', async () => {
    env = await startReverseEnv({ reverse: { on_conflict: 'allow' } });
    const key = await booked(env, 0);
    await booked(env, 3);
    await env.run('google-reverse-sync');
    const lists = env.sim.requests.filter((r) => r.method === 'GET' && r.path === '/api/v3/appointments/').length;
    env.moveInGoogle(key, slot(3));
    await env.settle(2);
    expect(env.reschedulePatches(key)).toBe(1);
    expect(env.sim.get(key)?.start).toBe(slot(3));
    // No slot check: the only listings are the settle's polls.
    expect(env.sim.requests.filter((r) => r.method === 'GET' && r.path === '/api/v3/appointments/').length - lists).toBe(1);
  });

  it('puts the event back and shows the reason when the booking service refuses', async () => {
    env = await startReverseEnv();
    const key = await booked(env);
    await env.run('google-reverse-sync');
    env.sim.refuseReschedules('This professional does not work at that time.');
    env.moveInGoogle(key, slot(2));
    await env.settle(2);
    expect(env.reschedulePatches(key)).toBe(1);
    expect(googleStart(env.eventOf(key))).toBe(slot(0));
    expect(env.sim.get(key)?.start).toBe(slot(0));
    expect(section(env).reschedules).toMatchObject({ refused: 1, reverted: 1 });
    expect(section(env).problems[0]).toMatchObject({ reason: 'refused', detail: 'This professional does not work at that time.' });
    await env.settle(5);
    expect(env.reschedulePatches(key)).toBe(1);
  });

  it('lets the booking service win when it moved the appointment too', async () => {
    env = await startReverseEnv({ webhooks: false });
    const key = await booked(env);
    await env.run('google-reverse-sync');
    env.moveInGoogle(key, slot(2));
    env.sim.reschedule(key, slot(5)); // the reception desk moved it in the booking system
    await env.run('poll');
    await env.settle(3);
    expect(env.reschedulePatches()).toBe(0);
    expect(env.sim.get(key)?.start).toBe(slot(5));
    expect(googleStart(env.eventOf(key))).toBe(slot(5));
  });

  it('puts a title edit back once (the title comes from the booking), and sends nothing to the booking service', async () => {
    env = await startReverseEnv();
    const key = await booked(env);
    await env.run('google-reverse-sync');
    const title = env.eventOf(key)?.summary;
    const writes = env.googleWrites();
    env.fake.state.userEdit(CAL, env.eventOf(key)!.id, { summary: 'Call her first' });
    await env.settle(3);
    expect(env.reschedulePatches()).toBe(0);
    expect(env.eventOf(key)?.summary).toBe(title);
    expect(env.googleWrites()).toBe(writes + 1);
  });
});
