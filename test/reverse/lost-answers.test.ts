// Writes Google applied but whose answers were lost: the daemon's record of what Google holds must
// never claim less than may be there, or an event outlives its appointment, or a person's move of
// an event we did not know we had is overwritten.
import { afterEach, expect, it } from 'vitest';
import { googleStart, startReverseEnv, slot, type ReverseEnv } from './harness.ts';
import { CalendarApiError, type SimulatedEvent } from '../../src/google/simulator/calendar-state.ts';
import { LinkStore } from '../../src/store/link-store.ts';

let env: ReverseEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

/** The next `times` writes of a kind are applied by Google, and answered 503 as if the connection dropped. */
function loseAnswers(e: ReverseEnv, kind: 'insert' | 'update', times: number): void {
  const state = e.fake.state;
  const write = (kind === 'insert' ? state.insert : state.update).bind(state) as (...args: unknown[]) => SimulatedEvent;
  let left = times;
  const lossy = (...args: unknown[]) => {
    const event = write(...args);
    if (left-- > 0) throw new CalendarApiError(503, 'backendError', 'Service Unavailable');
    return event;
  };
  if (kind === 'insert') state.insert = lossy;
  else state.update = lossy;
}

it('a deleted event revived by a write whose answer was lost, then the appointment cancelled: the event is deleted', async () => {
  env = await startReverseEnv();
  const e = env;
  const key = e.sim.create({ start: slot(0) }).appointment_key;
  const links = new LinkStore(e.t.ctx.db, e.t.ctx.clock, 'google.default');
  await e.settle(1);
  await e.run('google-reverse-sync');

  e.deleteInGoogle(key); // a person deletes it; on_delete: recreate
  loseAnswers(e, 'update', 1); // the revival reaches Google, its answer does not
  await e.run('google-reverse-sync'); // wakes the writer: 409 on the tombstone, the revival, its retry a 412
  await until(() => (links.get(key)?.attempts ?? 0) > 0);
  expect(e.eventOf(key)?.status, 'revived by the write whose answer was lost').toBe('confirmed');

  e.sim.cancel(key); // before the writer tried again
  await e.settle(3);
  expect(e.eventOf(key)?.status, 'the cancelled appointment keeps no live event').toBe('cancelled');
});

it('a person moves an event whose insert we never saw answered: the move reaches the booking service', async () => {
  env = await startReverseEnv();
  const e = env;
  await e.settle(1);
  await e.run('google-reverse-sync');
  e.fake.failNext(503, 3); // the insert fails three times, and the fourth attempt's answer is lost
  loseAnswers(e, 'insert', 1);
  const key = e.sim.create({ start: slot(0) }).appointment_key;
  const links = new LinkStore(e.t.ctx.db, e.t.ctx.clock, 'google.default');
  await e.sim.idle();
  await e.run('deliveries'); // wakes the writer, whose insert fails
  await until(() => (links.get(key)?.attempts ?? 0) > 0);
  expect(googleStart(e.eventOf(key)), 'the event is in Google, unknown to us').toBe(slot(0));

  e.moveInGoogle(key, slot(4));
  await e.settle(3);
  expect(e.reschedulePatches(key)).toBe(1);
  expect(e.sim.get(key)?.start).toBe(slot(4));
  expect(googleStart(e.eventOf(key))).toBe(slot(4));
});
