// Races between the writer, the reverse sync and `calbridge sync` that once lost a move or sent it twice.
import { afterEach, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { agreedAppointment, deliverAndWrite, googleStart, slot, startReverseEnv, type ReverseEnv } from './harness.ts';
import { eventIdFor } from '../../src/core/event-id.ts';
import { TEST_ZONE } from '../helpers/simulator.ts';

let env: ReverseEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const CAL_B = 'c0000000-0000-4000-a000-0000000000bb';

it('a move in Google survives a change at the booking service that the writer sends before the reverse sync runs', async () => {
  env = await startReverseEnv();
  const a = env.sim.create({ start: slot(0) });
  const key = a.appointment_key;
  await env.settle(1);
  await env.run('google-reverse-sync');
  env.moveInGoogle(key, slot(3));
  env.sim.update(key, { person: { full_name: 'Renamed Person' } }); // reception fixes the name; the time stays
  await env.sim.idle();
  await env.run('deliveries');
  await env.run('google-writer'); // meets the person's edit (412): leaves the move to the reverse sync
  expect(googleStart(env.eventOf(key))).toBe(slot(3));
  await env.settle(3);
  expect(env.reschedulePatches(key)).toBe(1);
  expect(env.sim.get(key)?.start).toBe(slot(3));
  expect(googleStart(env.eventOf(key))).toBe(slot(3));
  expect(env.eventOf(key)?.summary).toContain('Renamed Person');
});

it('`sync` (wakes, then runNow) sends one PATCH per move, with moves in two calendars', async () => {
  env = await startReverseEnv({
    google: {
      calendars: [
        { calendar_key: CAL_B, calendar_id: 'second' },
        { calendar_key: '*', calendar_id: 'primary' },
      ],
    },
  });
  const e = env;
  const move = (cal: string, key: string, start: number) => {
    const ev = e.fake.events(cal).find((x) => x.id === eventIdFor(key))!;
    const length = Date.parse(ev.end!.dateTime!) - Date.parse(ev.start!.dateTime!);
    const at = (ms: number) => ({ dateTime: DateTime.fromMillis(ms, { zone: TEST_ZONE }).toISO()!, timeZone: TEST_ZONE });
    e.fake.state.userEdit(cal, ev.id, { start: at(start), end: at(start + length) });
  };
  const a = e.sim.create({ start: slot(0) });
  const b = e.sim.create({ start: slot(0), calendar: { calendar_key: CAL_B } });
  await e.settle(1);
  await e.run('google-reverse-sync');
  move('primary', a.appointment_key, slot(3));
  move('second', b.appointment_key, slot(4));
  await e.run('google-reverse-sync');
  await e.run('google-reschedules');
  await e.scheduler.idle(); // a reschedules run woken by the reverse sync would have sent its PATCH by now
  expect(e.reschedulePatches(a.appointment_key)).toBe(1);
  expect(e.reschedulePatches(b.appointment_key)).toBe(1);
});

it('our own earlier write, read by a round that overlaps our next write, is an echo: no PATCH', async () => {
  env = await startReverseEnv();
  const e = env;
  const key = await agreedAppointment(e);
  const bookingMove = async (to: number) => {
    e.sim.reschedule(key, to);
    await deliverAndWrite(e);
  };
  await bookingMove(slot(2));
  const hold = e.fake.holdNext({ kind: 'list' });
  const round = e.run('google-reverse-sync'); // its listing shows our write of slot 2
  await hold.arrived;
  await bookingMove(slot(5)); // and meanwhile we write slot 5
  hold.release();
  await round;
  await e.run('google-reschedules');
  expect(e.reschedulePatches(key)).toBe(0);
  expect(e.sim.get(key)?.start).toBe(slot(5));
  expect(googleStart(e.eventOf(key))).toBe(slot(5));
});

it("a person's move seen by a round that overlaps a move at the booking service: the booking service wins", async () => {
  env = await startReverseEnv();
  const e = env;
  const key = await agreedAppointment(e);
  e.moveInGoogle(key, slot(2));
  const hold = e.fake.holdNext({ kind: 'list' });
  const round = e.run('google-reverse-sync');
  await hold.arrived;
  e.sim.reschedule(key, slot(5));
  await deliverAndWrite(e);
  hold.release();
  await round;
  await e.run('google-reschedules');
  await e.settle(2);
  expect(e.reschedulePatches(key)).toBe(0);
  expect(e.sim.get(key)?.start).toBe(slot(5));
  expect(googleStart(e.eventOf(key))).toBe(slot(5));
});
