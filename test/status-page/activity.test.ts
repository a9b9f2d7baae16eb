// Recent activity, end to end: what a person does in Google and what the booking service does
// become entries in words, with their direction, kept in the database (bounded) and in /api/status.
import { afterEach, describe, expect, it } from 'vitest';
import { slot, startReverseEnv, googleStart, type ReverseEnv } from '../reverse/harness.ts';
import { when } from '../../src/core/activity-words.ts';
import { TEST_ZONE } from '../helpers/simulator.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { testAppointment } from '../helpers/appointment.ts';

let env: ReverseEnv | undefined;
let t: TestContext | undefined;
afterEach(async () => {
  await env?.close();
  await t?.close();
  env = t = undefined;
});

async function booked(e: ReverseEnv, hours: number): Promise<{ key: string; code: string }> {
  const a = e.sim.create({ start: slot(hours) });
  await e.settle(1);
  expect(googleStart(e.eventOf(a.appointment_key))).toBe(slot(hours));
  return { key: a.appointment_key, code: a.search_code };
}

/** Every entry so far, oldest first. */
function entries(e: ReverseEnv) {
  return e.t.ctx.activity.recent(1000).reverse();
}

const at = (ms: number) => when(ms, TEST_ZONE);

describe('recent activity', () => {
  it('tells a move in Google that became a reschedule, once, without the booking service’s echo', async () => {
    env = await startReverseEnv();
    const { key, code } = await booked(env, 0);
    expect(entries(env).map((x) => [x.label, x.direction, x.summary])).toEqual([
      [code, 'booking-to-targets', `booked for ${at(slot(0))}`],
      [code, 'booking-to-targets', `added to Google, ${at(slot(0))}`],
    ]);
    await env.run('google-reverse-sync');
    env.moveInGoogle(key, slot(2));
    await env.settle(3);

    const after = entries(env).slice(2);
    expect(after[0]).toMatchObject({
      label: code,
      kind: 'rescheduled',
      direction: 'google-to-booking',
      summary: `moved in Google to ${at(slot(2))} → rescheduled at the booking service`,
    });
    // The booking service's own notification of the move is our echo: no "moved at the booking service".
    expect(after.filter((x) => x.kind === 'moved')).toEqual([]);
  });

  it('tells a move onto a taken slot and the move back, naming the appointment in the way', async () => {
    env = await startReverseEnv();
    const { key, code } = await booked(env, 0);
    const other = await booked(env, 3);
    await env.run('google-reverse-sync');
    env.moveInGoogle(key, slot(3));
    await env.settle(2);
    expect(googleStart(env.eventOf(key))).toBe(slot(0));
    const reverted = entries(env).find((x) => x.kind === 'reverted');
    expect(reverted).toMatchObject({
      label: code,
      direction: 'reverted',
      summary: `moved onto ${other.code}'s slot (${at(slot(3))}) → moved back`,
      reason: 'the slot is taken at the booking service; on_conflict: revert',
    });
  });

  it('tells a refusal with the booking service’s reason, and a deletion recreated', async () => {
    env = await startReverseEnv();
    const { key, code } = await booked(env, 0);
    await env.run('google-reverse-sync');
    env.sim.refuseReschedules('Horário indisponível para este profissional');
    env.moveInGoogle(key, slot(1));
    await env.settle(2);
    expect(entries(env).find((x) => x.kind === 'refused')).toMatchObject({
      label: code,
      direction: 'refused',
      summary: `moved in Google to ${at(slot(1))} → refused by the booking service → moved back`,
      reason: 'Horário indisponível para este profissional',
    });

    env.deleteInGoogle(key);
    await env.settle(2);
    expect(entries(env).find((x) => x.kind === 'recreated')).toMatchObject({
      label: code,
      direction: 'reverted',
      summary: 'deleted in Google → recreated',
    });
    expect(env.eventOf(key)?.status).not.toBe('cancelled');
  });

  it('tells changes at the booking service, and is in /api/status, newest first', async () => {
    env = await startReverseEnv();
    const { key, code } = await booked(env, 0);
    env.sim.reschedule(key, slot(4));
    await env.settle(1);
    env.sim.cancel(key);
    await env.settle(1);
    const recent = (env.status().activity as { recent: { appointment: string; summary: string; direction: string }[] }).recent;
    expect(recent.slice(0, 4).map((x) => x.summary)).toEqual([
      'removed from Google',
      'cancelled at the booking service → removed from Google',
      `updated in Google, ${at(slot(4))}`,
      `moved at the booking service to ${at(slot(4))} (was ${at(slot(0))})`,
    ]);
    expect(recent.every((x) => x.appointment === code)).toBe(true);
  });

  it('keeps the latest 1,000 entries and masks long numbers in what others said', () => {
    t = createTestContext();
    t.ctx.appointments.upsert(testAppointment({ key: 'k1' }));
    for (let i = 0; i < 1_100; i++) t.ctx.activity.record({ kind: 'google-write', key: 'k1', action: 'update' });
    t.ctx.activity.record({
      kind: 'settled',
      key: 'k1',
      action: 'reschedule',
      state: 'reverted',
      reason: 'refused',
      detail: 'CPF 123.456.789-09 bloqueado, ligue +55 11 98765-4321',
      to: Date.now(),
    });
    expect(t.ctx.activity.recent(2_000)).toHaveLength(1_000);
    expect(t.ctx.activity.recent(1)[0]?.reason).toBe('CPF ••• bloqueado, ligue +•••');
  });
});
