// A CalDAV backfill in the recent activity of /api/status, against Radicale: a first import of
// more than 50 appointments and the CalDAV writer's copy of them are one entry each, with their
// counts; a later new appointment is told on its own.
import { afterEach, describe, expect, it } from 'vitest';
import { slot, startMirrorEnv, type MirrorEnv } from './mirror-env.ts';

const ADMIN = 'admin-token-caldav-backfill-0123456789';
const server = { host: '127.0.0.1', port: 0, public_url: 'http://127.0.0.1:8080', admin_token: ADMIN };

let env: MirrorEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

type Entry = { appointment: string | null; kind: string; direction: string; summary: string };
async function activity(e: MirrorEnv): Promise<Entry[]> {
  const res = await e.t.runtime.app.request('/api/status', { headers: { authorization: `Bearer ${ADMIN}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { activity: { recent: Entry[] } }).activity.recent;
}

describe('the activity of a CalDAV backfill', () => {
  it('60 new objects are one entry naming the calendar; a later new appointment has its own', async () => {
    env = await startMirrorEnv({ server, wakeJobs: false });
    for (let i = 0; i < 60; i++) env.sim.create({ start: slot(i) });
    await env.run('poll');
    await env.writeAll();
    expect(env.files()).toHaveLength(60);

    const shown = await activity(env);
    expect(shown.map((x) => [x.kind, x.direction, x.summary])).toEqual([
      ['backfill', 'booking-to-targets', 'added 60 appointments to the CalDAV calendar (Clinic)'],
      ['imported', 'booking-to-targets', expect.stringMatching(/^imported 60 new appointments from the booking service in one poll/)],
    ]);

    const late = env.sim.create({ start: slot(70) });
    await env.run('poll');
    await env.writeAll();
    expect(env.files()).toHaveLength(61);
    const after = await activity(env);
    expect(after.map((x) => x.kind)).toEqual(['booked', 'backfill', 'imported']);
    expect(after[0]).toMatchObject({ appointment: late.search_code, summary: expect.stringMatching(/^booked for /) });
    expect(after[1]?.summary).toBe('added 60 appointments to the CalDAV calendar (Clinic)');
  });
});
