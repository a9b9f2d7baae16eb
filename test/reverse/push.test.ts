// Google push notifications: channels opened and renewed, notifications that wake the reverse sync
// early, and forged or stale ones that change nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.ts';
import { slot, startReverseEnv, type ReverseEnv } from './harness.ts';
import { createTestContext, testConfig } from '../helpers/context.ts';
import type { StatusShare } from '../../src/status/status-document.ts';

const reverseOf = (share: StatusShare) => share.targets?.['google.default']?.reverse_sync;

let env: ReverseEnv;
afterEach(async () => {
  await env?.close();
});

const DAY = 86_400_000;

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function notify(e: ReverseEnv, headers: Record<string, string>): Promise<Response> {
  return fetch(`${e.url}/google/notifications`, { method: 'POST', headers: { 'X-Goog-Resource-State': 'exists', ...headers } });
}

const liveChannels = (e: ReverseEnv) => [...e.fake.channels.values()].filter((c) => !c.stopped);

describe('push notifications', () => {
  it('a move reaches the booking service on the notification, long before the schedule', async () => {
    env = await startReverseEnv({ fake: { autoNotify: true } }); // reverse_sync.schedule: once a year
    const a = env.sim.create({ start: slot(0) });
    await env.settle(1);
    await env.run('google-channels');
    expect(liveChannels(env)).toHaveLength(1);
    expect(liveChannels(env)[0]).toMatchObject({ address: 'https://calbridge.test/google/notifications', calendarId: 'primary' });
    expect(liveChannels(env)[0]!.token!.length).toBeGreaterThanOrEqual(32);
    env.scheduler.start();
    env.moveInGoogle(a.appointment_key, slot(4));
    await until(() => env.reschedulePatches(a.appointment_key) === 1);
    expect(env.sim.get(a.appointment_key)?.start).toBe(slot(4));
    expect((env.status().targets['google.default']!.reverse_sync as Record<string, unknown>).push).toMatchObject({
      enabled: true,
      channels_active: 1,
    });
  });

  it('a forged notification (wrong token, unknown channel) answers 404 and runs nothing', async () => {
    env = await startReverseEnv();
    const a = env.sim.create({ start: slot(0) });
    await env.settle(1);
    await env.run('google-channels');
    await env.run('google-reverse-sync');
    const channel = liveChannels(env)[0]!;
    env.scheduler.start();
    env.moveInGoogle(a.appointment_key, slot(4));
    const lists = env.fake.counts().list;
    expect((await notify(env, { 'X-Goog-Channel-ID': channel.id, 'X-Goog-Channel-Token': 'guessed-token' })).status).toBe(404);
    expect((await notify(env, { 'X-Goog-Channel-ID': 'not-a-channel', 'X-Goog-Channel-Token': channel.token! })).status).toBe(404);
    expect((await notify(env, {})).status).toBe(404);
    await env.scheduler.idle(); // a run a notification woke has ended
    expect(env.fake.counts().list).toBe(lists);
    expect(env.reschedulePatches()).toBe(0);
    // The real one does wake it.
    expect((await notify(env, { 'X-Goog-Channel-ID': channel.id, 'X-Goog-Channel-Token': channel.token! })).status).toBe(200);
    await until(() => env.reschedulePatches() === 1);
  });

  it('renews a channel before it expires with a new id and token, stops the old one, and ignores it after', async () => {
    const clock = new ManualClock(Date.now());
    env = await startReverseEnv({ clock });
    await env.run('google-channels');
    const first = liveChannels(env)[0]!;
    await env.run('google-channels'); // nothing due yet
    expect(env.fake.counts().watch).toBe(1);
    clock.advance(6.5 * DAY);
    await env.run('google-channels');
    const live = liveChannels(env);
    expect(live).toHaveLength(1);
    expect(live[0]!.id).not.toBe(first.id);
    expect(live[0]!.token).not.toBe(first.token);
    expect(env.fake.channels.get(first.id)?.stopped).toBe(true);
    expect((await notify(env, { 'X-Goog-Channel-ID': first.id, 'X-Goog-Channel-Token': first.token! })).status).toBe(404);
    expect((await notify(env, { 'X-Goog-Channel-ID': live[0]!.id, 'X-Goog-Channel-Token': live[0]!.token! })).status).toBe(200);
  });

  it('opens no channel without an https public_url', async () => {
    const t = createTestContext({
      config: testConfig({ google: { credentials: { client_id: 'c', client_secret: 's', refresh_token: 'r' } } }),
    });
    try {
      const part = t.runtime.parts.find((p) => p.name === 'google.default')!;
      expect(part.jobs!.map((j) => j.name)).toEqual(['google-writer', 'google-reverse-sync', 'google-reschedules']);
      expect(reverseOf(part.status!())).toMatchObject({ push: { enabled: false, why: 'public_url is not https' } });
    } finally {
      await t.close();
    }
  });

  it('with google.reverse_sync.push_url, opens channels to that https address whatever public_url is; an http one is a config error', async () => {
    const google = (push_url: string) => ({
      credentials: { client_id: 'c', client_secret: 's', refresh_token: 'r' },
      reverse_sync: { push_url },
    });
    expect(() => testConfig({ google: google('http://push.example.com/google/notifications') })).toThrow(/push_url.*https/s);
    const t = createTestContext({ config: testConfig({ google: google('https://push.example.com/google/notifications') }) });
    try {
      const part = t.runtime.parts.find((p) => p.name === 'google.default')!;
      expect(part.jobs!.map((j) => j.name)).toEqual(['google-writer', 'google-reverse-sync', 'google-reschedules', 'google-channels']);
      expect(reverseOf(part.status!())).toMatchObject({
        push: { enabled: true, address: 'https://push.example.com/google/notifications' },
      });
    } finally {
      await t.close();
    }
  });

  it('has no reverse-sync jobs, route or section when google.reverse_sync.enabled is false', async () => {
    const t = createTestContext({
      config: testConfig({
        google: { credentials: { client_id: 'c', client_secret: 's', refresh_token: 'r' }, reverse_sync: { enabled: false } },
      }),
    });
    try {
      const part = t.runtime.parts.find((p) => p.name === 'google.default')!;
      expect(part.jobs!.map((j) => j.name)).toEqual(['google-writer']);
      expect(part.routes).toBeUndefined();
      expect(reverseOf(part.status!())).toEqual({ enabled: false });
    } finally {
      await t.close();
    }
  });
});
