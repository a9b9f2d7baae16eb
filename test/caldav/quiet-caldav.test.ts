// Quiet after agreement, on a real Radicale: an event that already shows what the writer wants is
// never written again, and what a person changed that the booking service cannot take (the length)
// is put back once, then nothing more. The same rules as test/reverse/quiet-google.test.ts.
import { afterEach, expect, it } from 'vitest';
import { movedObject, slot, startMirrorEnv, type MirrorEnv } from './mirror-env.ts';
import { readEvent } from '../../src/caldav/event-reader.ts';
import { TEST_ZONE } from '../helpers/simulator.ts';

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

const reverted = (e: MirrorEnv, key: string) =>
  e.t.ctx.activity
    .recent(100)
    .filter((x) => x.appointmentKey === key && x.direction === 'reverted')
    .map((x) => x.summary);

it("after a person's move the booking service accepted, the object is taken as it is: no PUT of the times it already shows", async () => {
  env = await startMirrorEnv();
  const key = await booked(env, 0);
  expect(await env.moveInApp(key, slot(3))).toBeOneOf([200, 201, 204]);
  const putsBefore = await env.calls('PUT');

  await env.settle(4);
  expect(env.reschedulePatches(key)).toBe(1);
  expect(env.sim.get(key)?.start).toBe(slot(3));
  expect(env.objects().get(`${key}.ics`)?.start).toBe(slot(3));
  expect((await env.calls('PUT')) - putsBefore, 'nothing written to the object after the move').toBe(0);
});

it('a person who changes only the end in a calendar app: put back to the booked length once, told in activity; then quiet', async () => {
  env = await startMirrorEnv();
  const key = await booked(env, 0);
  const url = env.objectUrl(key);
  const current = await env.app.get(url);
  const e = readEvent(current.body, TEST_ZONE);
  expect((await env.app.save(url, movedObject(current.body, e.start, e.end + H), current.etag!)).status).toBeOneOf([200, 201, 204]);
  const putsBefore = await env.calls('PUT');

  await env.settle(4);
  const now = env.objects().get(`${key}.ics`);
  expect(now?.start).toBe(slot(0));
  expect(now!.end - now!.start, 'the booked length again').toBe(H);
  expect(env.reschedulePatches(key), 'nothing sent to the booking service').toBe(0);
  expect((await env.calls('PUT')) - putsBefore, 'one write puts it back, nothing after').toBe(1);
  expect(reverted(env, key)).toEqual(['made longer or shorter in the CalDAV calendar → put back to its booked length']);
});
