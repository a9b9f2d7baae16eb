// The CalDAV writer against a real Radicale: a failed write backs off for the content that failed
// only. The booking service moves the appointment again (found by the poll) and the next writer run
// writes the new time at once, long before the backoff is over; with no new change, no request.
import { afterEach, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.ts';
import { slot, startMirrorEnv, type MirrorEnv } from './mirror-env.ts';

const MINUTE = 60_000;
let env: MirrorEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

it('a move after a failed write is written at once; the failed content alone waits out its backoff', async () => {
  const clock = new ManualClock(Date.now());
  const e = (env = await startMirrorEnv({
    proxy: { share: 0, seed: 3, when: 'before', statuses: [503] },
    clock,
    itemBackoff: { baseMs: 10 * MINUTE, maxMs: 60 * MINUTE },
    wakeJobs: false,
  }));
  const proxy = e.proxy!;
  const key = e.sim.create({ start: slot(1) }).appointment_key;
  await e.run('poll');
  await e.run('caldav-writer');
  expect(e.objects().get(`${key}.ics`)?.start).toBe(slot(1));

  // Moved while the server refuses every request: the write fails and backs off.
  proxy.setShare(1);
  e.sim.reschedule(key, slot(2));
  await e.run('poll');
  await e.run('caldav-writer');
  proxy.setShare(0);
  expect(e.objects().get(`${key}.ics`)?.start).toBe(slot(1));
  const [failure] = e.status().failures;
  expect(failure).toMatchObject({ appointment_key: key, attempts: 1 });
  const backoffUntil = Date.parse(failure!.next_attempt_at);
  expect(backoffUntil).toBeGreaterThanOrEqual(clock.now() + 5 * MINUTE);

  // No new change: no request while it backs off.
  const requests = proxy.stats.requests;
  await e.run('caldav-writer');
  await e.run('caldav-writer');
  expect(proxy.stats.requests).toBe(requests);

  // Moved again: written at once, one PUT, long before the backoff is over.
  e.sim.reschedule(key, slot(3));
  await e.run('poll');
  const puts = await e.calls('PUT');
  await e.run('caldav-writer');
  expect(clock.now()).toBeLessThan(backoffUntil);
  expect(e.objects().get(`${key}.ics`)?.start).toBe(slot(3));
  expect((await e.calls('PUT')) - puts).toBe(1);
  expect(e.status()).toMatchObject({ failed: 0, failures: [], pending: 0 });
});
