// Quiet after agreement, against the Google simulator: an event that already shows what the writer
// wants is never written again, and what a person changed that the booking service cannot take (the
// length) is put back once, then nothing more. The same rules as test/caldav/quiet-caldav.test.ts.
import { DateTime } from 'luxon';
import { afterEach, expect, it } from 'vitest';
import { agreedAppointment, CAL, googleStart, slot, startReverseEnv, type ReverseEnv } from './harness.ts';
import { eventIdFor } from '../../src/core/event-id.ts';
import { TEST_ZONE } from '../helpers/simulator.ts';

let env: ReverseEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const H = 3_600_000;
/** Every call that changes this appointment's event in Google since log position `from` (a 412 included). */
const writesOf = (e: ReverseEnv, key: string, from: number) =>
  e.fake.log
    .slice(from)
    .filter((r) => ['update', 'patch', 'insert', 'delete'].includes(r.kind) && r.calendarId === CAL && r.eventId === eventIdFor(key));
const googleEnd = (e: ReverseEnv, key: string) => Date.parse(e.eventOf(key)?.end?.dateTime ?? '');
const at = (ms: number) => ({ dateTime: DateTime.fromMillis(ms, { zone: TEST_ZONE }).toISO()!, timeZone: TEST_ZONE });

/** Rounds of every job a quiet daemon runs on its schedule. */
async function quietRounds(e: ReverseEnv, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await e.run('deliveries');
    await e.run('google-writer');
    await e.run('google-reverse-sync');
    await e.run('google-reschedules');
  }
}

it("after a person's move the booking service accepted, the event is taken as it is: no write of the times it already shows", async () => {
  env = await startReverseEnv();
  const e = env;
  const key = await agreedAppointment(e);

  const logFrom = e.fake.log.length;
  e.moveInGoogle(key, slot(3));
  await e.run('google-reverse-sync');
  await e.run('google-reschedules');
  await e.settle(2);
  await quietRounds(e, 3);

  expect(e.reschedulePatches(key)).toBe(1);
  expect(e.sim.get(key)?.start).toBe(slot(3));
  expect(googleStart(e.eventOf(key))).toBe(slot(3));
  expect(
    writesOf(e, key, logFrom).map((r) => `${r.kind} ${r.status}`),
    'the event already shows the new time: nothing written to it',
  ).toEqual([]);
  const settled = e.t.ctx.activity
    .recent(50)
    .filter((a) => a.appointmentKey === key && a.summary.includes('rescheduled at the booking service'));
  expect(settled, 'the move is told once').toHaveLength(1);
});

it('a person who changes only the end: put back to the booked length, once, told in activity; then quiet', async () => {
  env = await startReverseEnv();
  const e = env;
  const key = await agreedAppointment(e);
  const bookedEnd = googleEnd(e, key);

  e.fake.state.userEdit(CAL, eventIdFor(key), { end: at(bookedEnd + H) }); // dragged the bottom edge an hour down
  const logFrom = e.fake.log.length;
  await e.run('google-reverse-sync');
  await e.run('google-writer');
  await quietRounds(e, 4);

  expect(googleStart(e.eventOf(key))).toBe(slot(0));
  expect(googleEnd(e, key), 'the booked length again').toBe(bookedEnd);
  expect(e.sim.get(key)?.start, 'nothing sent to the booking service').toBe(slot(0));
  expect(e.reschedulePatches(key)).toBe(0);
  expect(
    writesOf(e, key, logFrom).map((r) => `${r.kind} ${r.status}`),
    'one write puts it back, nothing after',
  ).toEqual(['update 200']);
  const told = e.t.ctx.activity.recent(50).filter((a) => a.appointmentKey === key && a.direction === 'reverted');
  expect(told.map((a) => a.summary)).toEqual(['made longer or shorter in Google → put back to its booked length']);
});

it('a person who renames the event: the title is put back once; then quiet', async () => {
  env = await startReverseEnv();
  const e = env;
  const key = await agreedAppointment(e);
  const title = e.eventOf(key)?.summary;

  e.fake.state.userEdit(CAL, eventIdFor(key), { summary: 'Call back first!' });
  const logFrom = e.fake.log.length;
  await quietRounds(e, 4);

  expect(e.eventOf(key)?.summary).toBe(title);
  expect(writesOf(e, key, logFrom).map((r) => `${r.kind} ${r.status}`)).toEqual(['update 200']);
  expect(
    e.t.ctx.activity
      .recent(50)
      .filter((a) => a.appointmentKey === key && a.direction === 'reverted')
      .map((a) => a.summary),
  ).toEqual(['renamed in Google → title put back']);
});
