// The CalDAV writer against a real Radicale, fed by the booking simulator over HTTP: every
// appointment becomes exactly one `{key}.ics` with the booking service's times, through injected
// server failures, and a pass with nothing new writes nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_ZONE } from '../helpers/simulator.ts';
import { slot, startMirrorEnv, type MirrorEnv } from './mirror-env.ts';
import { PASSWORD, USER } from './setup.ts';
import { syncedByVdirsyncer } from './vdirsyncer.ts';

let env: MirrorEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe('the CalDAV writer', () => {
  it('mirrors 200 appointments exactly once through 30% injected 5xx, then writes nothing on a repeat pass', async () => {
    env = await startMirrorEnv({ proxy: { share: 0.3, seed: 16, when: 'mixed' } });
    const keys = Array.from(
      { length: 200 },
      (_, i) => env!.sim.create({ start: slot(i % 48) + Math.floor(i / 48) * 86_400_000 }).appointment_key,
    );
    await env.run('poll');
    await env.writeAll();

    const objects = env.objects();
    expect(env.files()).toEqual(keys.map((k) => `${k}.ics`).sort());
    for (const key of keys) {
      const e = objects.get(`${key}.ics`)!;
      expect(e.uid).toBe(`${key}@calbridge`);
      expect(e.start).toBe(env.sim.get(key)!.start);
      expect(e.end).toBe(env.sim.get(key)!.end);
    }
    // The proxy really failed requests, some after Radicale had applied them.
    expect(env.proxy!.stats.failedAfter).toBeGreaterThan(10);
    expect(env.proxy!.stats.failedBefore).toBeGreaterThan(10);
    expect(env.status()).toMatchObject({ mirrored: 200, pending: 0, failed: 0 });

    const writes = (await env.calls('PUT')) + (await env.calls('DELETE'));
    await env.settle(2);
    expect((await env.calls('PUT')) + (await env.calls('DELETE'))).toBe(writes);
    expect(env.files()).toHaveLength(200);
  });

  it('writes one request per material change: a create, a move, a cancellation', async () => {
    env = await startMirrorEnv();
    const key = env.sim.create({ start: slot(0) }).appointment_key;
    await env.settle(1);
    expect(await env.calls('PUT')).toBe(1);

    env.sim.reschedule(key, slot(2));
    await env.settle(1);
    expect(await env.calls('PUT')).toBe(2);
    expect(env.objects().get(`${key}.ics`)?.start).toBe(slot(2));

    env.sim.cancel(key);
    await env.settle(1);
    expect(await env.calls('DELETE')).toBe(1);
    expect(env.files()).toEqual([]);
    expect(env.status()).toMatchObject({ mirrored: 0, pending: 0 });
  });

  it('holds a mass removal at the breaker: nothing deleted, the breaker in status and readiness', async () => {
    // Jobs run only when the test runs them, so one writer pass meets all the cancellations at once.
    env = await startMirrorEnv({ wakeJobs: false });
    const keys = Array.from({ length: 30 }, (_, i) => env!.sim.create({ start: slot(i) }).appointment_key);
    await env.settle(1);
    expect(env.files()).toHaveLength(30);
    for (const key of keys.slice(0, 12)) env.sim.cancel(key);
    await env.settle(1);
    expect(env.files()).toHaveLength(30);
    expect(await env.calls('DELETE')).toBe(0);
    expect(env.status().breaker).toMatchObject({ deletes: 12, mirrored: 30 });
    expect(env.t.runtime.readiness().warnings.join('\n')).toMatch(/CalDAV: 12 deletions of 30 mirrored events held by the breaker/);
  });

  it('leaves exactly the mirrored appointments, at the booking service’s times, for vdirsyncer to find', async () => {
    env = await startMirrorEnv();
    const keys = Array.from({ length: 12 }, (_, i) => env!.sim.create({ start: slot(i * 2) }).appointment_key);
    await env.settle(1);
    env.sim.reschedule(keys[3]!, slot(30));
    env.sim.cancel(keys[7]!);
    const personal = await env.app.save(new URL('not-ours.ics', env.calendarUrl).href, otherEvent());
    expect(personal.status).toBe(201);
    await env.settle(2);

    const synced = await syncedByVdirsyncer({
      serverUrl: env.radicale.url,
      username: USER,
      password: PASSWORD,
      collection: 'clinic',
      zone: TEST_ZONE,
    });
    const ours = synced.filter((e) => e.key !== null);
    const expected = keys.filter((k) => k !== keys[7]).map((k) => ({ key: k, start: env!.sim.get(k)!.start, end: env!.sim.get(k)!.end }));
    expect(ours.map((e) => ({ key: e.key, start: e.start, end: e.end })).sort((a, b) => a.key!.localeCompare(b.key!))).toEqual(
      expected.sort((a, b) => a.key.localeCompare(b.key)),
    );
    expect(ours.find((e) => e.key === keys[3])?.start).toBe(slot(30));
    // A person's own event in the same calendar is left alone.
    expect(synced.filter((e) => e.key === null).map((e) => e.uid)).toEqual(['lunch@phone']);
  });
});

/** An event a person made on the phone in the same calendar: not ours, never touched. */
function otherEvent(): string {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//phone//EN',
    'BEGIN:VEVENT',
    'UID:lunch@phone',
    'DTSTAMP:20260101T000000Z',
    'DTSTART:20300101T120000Z',
    'DTEND:20300101T130000Z',
    'SUMMARY:Lunch',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}
