// Races that made the daemon write again after Google, the booking service and the feeds already
// agreed: a person's move set back while its reschedule waited to be sent (and then sent anyway);
// our own write whose answer was lost, taken for a person's move on the 412 of its retry and
// written again; a second move met with a stale record of the first (a 412, then the same times
// written again).
import { afterEach, expect, it } from 'vitest';
import { agreedAppointment, CAL, deliverAndWrite, googleStart, slot, startReverseEnv, type ReverseEnv } from './harness.ts';
import { eventIdFor } from '../../src/core/event-id.ts';

let env: ReverseEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

/** Google's answers to our writes of this appointment's event since log position `from`. */
const writeStatuses = (e: ReverseEnv, key: string, from: number) =>
  e.fake.log
    .slice(from)
    .filter((r) => ['update', 'patch', 'insert'].includes(r.kind) && r.calendarId === CAL && r.eventId === eventIdFor(key))
    .map((r) => r.status);

/** The daemon on a clock the test moves on with `later(ms)`: past a retry's wait, or the writer's grace. */
async function startWithClock() {
  let skew = 0;
  env = await startReverseEnv({ clock: { now: () => Date.now() + skew } });
  return { e: env, later: (ms: number) => void (skew += ms) };
}

/** The person moves the event in Google; the booking service is busy (one 503), so the reschedule waits for a retry. */
async function moveThatWaits(e: ReverseEnv, key: string, to: number) {
  e.moveInGoogle(key, to);
  e.sim.failNext({ status: 503, pathIncludes: `/appointments/${key}/` });
  await e.run('google-reverse-sync');
  await e.run('google-reschedules');
}

/** What the activity log told of this appointment coming back from the calendar. */
const reverseActivity = (e: ReverseEnv, key: string) =>
  e.t.ctx.activity
    .recent(50)
    .filter((a) => a.appointmentKey === key && a.direction !== 'booking-to-targets')
    .map((a) => a.summary);

it("a rename while a person's move waits to be sent: the event is not set back, and the move lands with one write", async () => {
  const { e, later } = await startWithClock();
  const key = await agreedAppointment(e);
  await moveThatWaits(e, key, slot(3));
  expect(e.reschedulePatches(key)).toBe(0);

  const logFrom = e.fake.log.length;
  e.sim.update(key, { person: { full_name: 'Renamed Person' } }); // reception fixes the name meanwhile
  await deliverAndWrite(e);
  expect(googleStart(e.eventOf(key)), "the person's move is not set back while its reschedule is pending").toBe(slot(3));

  later(10_000); // the retry is due
  await e.run('google-reschedules');
  later(10_000); // the writer's next look
  await e.settle(2);
  expect(e.reschedulePatches(key)).toBe(1);
  expect(e.sim.get(key)?.start).toBe(slot(3));
  expect(googleStart(e.eventOf(key))).toBe(slot(3));
  expect(e.eventOf(key)?.summary).toContain('Renamed Person');
  expect(
    writeStatuses(e, key, logFrom).filter((s) => s < 300),
    'one write: the new name at the moved time',
  ).toHaveLength(1);
});

it('a second move before the writer caught up with the first: it lands without a 412 and without a write of the times the event shows', async () => {
  env = await startReverseEnv();
  const e = env;
  const key = await agreedAppointment(e);

  e.moveInGoogle(key, slot(3));
  await e.run('google-reverse-sync'); // the reschedule goes out at once (woken)
  e.fake.failNext(503, 8); // and Google refuses the writer's follow-up for a while (all its retries, twice)
  await e.run('google-reschedules');
  await e.run('google-writer');
  expect(e.sim.get(key)?.start).toBe(slot(3));
  expect(googleStart(e.eventOf(key))).toBe(slot(3));

  e.moveInGoogle(key, slot(5)); // the person moves it again before our write went through
  const logFrom = e.fake.log.length;
  await e.run('google-reverse-sync');
  await e.run('google-reschedules');
  await e.settle(2);
  expect(e.reschedulePatches(key)).toBe(2);
  expect(e.sim.get(key)?.start).toBe(slot(5));
  expect(googleStart(e.eventOf(key))).toBe(slot(5));
  expect(writeStatuses(e, key, logFrom), 'the event already shows the second move: taken as it is, nothing written, no 412').toEqual([]);
});

it('a write whose answer was lost: its retry reads the event first, finds our own write and adopts it, nothing written at all', async () => {
  const { e, later } = await startWithClock();
  const key = await agreedAppointment(e);

  e.sim.reschedule(key, slot(2));
  await e.sim.idle();
  e.fake.setFaults({ rate: 1, kinds: [503], after: true }); // Google applies the update, its answers are lost
  await e.run('deliveries');
  await e.run('google-writer');
  e.fake.setFaults(null);
  expect(googleStart(e.eventOf(key)), 'the first attempt reached Google').toBe(slot(2));

  const logFrom = e.fake.log.length;
  for (let i = 0; i < 15; i++) {
    later(5_000); // over a minute of writer passes and reverse rounds
    await e.run('google-writer');
    await e.run('google-reverse-sync');
    await e.run('google-reschedules');
  }
  expect(
    writeStatuses(e, key, logFrom),
    'the retry reads the event first and adopts it: no write at all, not even one answered 412',
  ).toEqual([]);
  expect(e.reschedulePatches(key)).toBe(0);
  expect(googleStart(e.eventOf(key))).toBe(slot(2));
});

it("a person's move whose reschedule waits past the writer's grace (the booking service busy): never put back while on its way, then lands with one write", async () => {
  const { e, later } = await startWithClock();
  const key = await agreedAppointment(e);
  await moveThatWaits(e, key, slot(3));
  expect(e.reschedulePatches(key)).toBe(0);

  const logFrom = e.fake.log.length;
  e.sim.update(key, { person: { full_name: 'Renamed Person' } }); // the writer has something to write
  await deliverAndWrite(e);
  later(2 * 60_000); // longer than the writer leaves a person's change to the reverse sync
  await e.run('google-writer');
  await e.run('google-writer');
  expect(googleStart(e.eventOf(key)), 'not put back while its reschedule waits to be sent').toBe(slot(3));

  await e.run('google-reschedules');
  later(10_000); // the writer's next look
  await e.settle(2);
  expect(e.reschedulePatches(key)).toBe(1);
  expect(e.sim.get(key)?.start).toBe(slot(3));
  expect(googleStart(e.eventOf(key))).toBe(slot(3));
  expect(e.eventOf(key)?.summary).toContain('Renamed Person');
  expect(
    writeStatuses(e, key, logFrom),
    'the writer meets the move once (a 412), reads while it waits, then one write: the new name at the moved time',
  ).toEqual([412, 200]);
});

it('a move the writer already put back (the booking service moved it meanwhile, then back) is not sent afterwards', async () => {
  const { e, later } = await startWithClock();
  const key = await agreedAppointment(e);
  await moveThatWaits(e, key, slot(3));

  // Meanwhile the booking service moves it (it wins: put back over the person's move once the grace is over) ...
  e.sim.reschedule(key, slot(5));
  await deliverAndWrite(e);
  later(2 * 60_000);
  await e.run('google-writer');
  expect(googleStart(e.eventOf(key))).toBe(slot(5));
  // ... and back to where the person's move started from.
  e.sim.reschedule(key, slot(0));
  await deliverAndWrite(e);
  expect(googleStart(e.eventOf(key))).toBe(slot(0));

  const logFrom = e.fake.log.length;
  await e.run('google-reschedules'); // the retry of the old move
  await e.settle(2);
  expect(e.reschedulePatches(key), 'the move the calendar no longer shows is not sent').toBe(0);
  expect(e.sim.get(key)?.start).toBe(slot(0));
  expect(googleStart(e.eventOf(key))).toBe(slot(0));
  expect(writeStatuses(e, key, logFrom)).toEqual([]);
  expect(reverseActivity(e, key)).toEqual([
    expect.stringMatching(/^moved in Google to .*12:00, but it already shows the booked time again → nothing sent$/),
  ]);
});

it('a move the person undoes before its reschedule is sent: nothing is sent, and the event stays where the person put it back', async () => {
  const { e, later } = await startWithClock();
  const key = await agreedAppointment(e);
  await moveThatWaits(e, key, slot(3));
  expect(e.reschedulePatches(key)).toBe(0);

  e.moveInGoogle(key, slot(0)); // the person drags it back to where the booking service has it
  await e.run('google-reverse-sync');
  const logFrom = e.fake.log.length;
  later(60_000); // the retry is due
  await e.run('google-reschedules');
  await e.settle(2);
  expect(e.reschedulePatches(key), 'the undone move is not sent').toBe(0);
  expect(e.sim.get(key)?.start).toBe(slot(0));
  expect(googleStart(e.eventOf(key))).toBe(slot(0));
  expect(writeStatuses(e, key, logFrom), 'nothing written: the event already shows the booking').toEqual([]);
  expect(reverseActivity(e, key)).toContainEqual(expect.stringContaining('then moved back before it was sent → nothing sent'));
});

it('the booking service moves the appointment to where a person had put it, before their move was set back: the event is taken as it is, nothing written', async () => {
  env = await startReverseEnv();
  const e = env;
  const key = await agreedAppointment(e);
  e.scheduler.holdWakes(); // each job runs when this story says, not when it is woken

  e.moveInGoogle(key, slot(3)); // a person drags the event
  e.sim.reschedule(key, slot(5)); // and reception moves the appointment elsewhere meanwhile
  await e.sim.idle();
  await e.run('deliveries');
  await e.run('google-reverse-sync'); // the booking service moved it: the person's move is to be set back
  e.sim.reschedule(key, slot(3)); // before it is, reception moves it to where the person had put it
  await e.sim.idle();
  await e.run('deliveries');

  const logFrom = e.fake.log.length;
  await e.run('google-writer');
  expect(googleStart(e.eventOf(key))).toBe(slot(3));
  expect(writeStatuses(e, key, logFrom), 'no write of the times the event already shows').toEqual([]);
  await e.settle(2);
  expect(e.reschedulePatches(key), 'nothing sent: the booking service already has it there').toBe(0);
  expect(e.sim.get(key)?.start).toBe(slot(3));
  expect(writeStatuses(e, key, logFrom), 'and quiet after').toEqual([]);
});
