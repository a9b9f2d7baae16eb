// What people and operators see of the CalDAV target: its section in /api/status (and so in
// `calbridge status`), the status page's sentences, /metrics, and /readyz, which stays 200 with
// warnings in our own words when the CalDAV server refuses us or is down.
import { afterEach, describe, expect, it } from 'vitest';
import { slot, startMirrorEnv, type MirrorEnv } from './mirror-env.ts';

const ADMIN = 'admin-token-caldav-0123456789';
const server = { host: '127.0.0.1', port: 0, public_url: 'http://127.0.0.1:8080', admin_token: ADMIN };
const auth = { headers: { authorization: `Bearer ${ADMIN}` } };

let env: MirrorEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const get = async (e: MirrorEnv, path: string) => {
  const res = await e.t.runtime.app.request(path, auth);
  return { status: res.status, text: await res.text() };
};

describe('the CalDAV target in status, the status page and metrics', () => {
  it('shows what is mirrored, the reverse sync and the writes', async () => {
    env = await startMirrorEnv({ server });
    env.t.runtime.lifecycle.set('serving');
    for (const h of [0, 2, 4]) env.sim.create({ start: slot(h) });
    await env.settle(1);

    const status = JSON.parse((await get(env, '/api/status')).text) as { caldav: Record<string, any> };
    expect(status.caldav).toMatchObject({
      enabled: true,
      calendars: ['Clinic'],
      auth: { ok: true, error: null },
      mirrored: 3,
      pending: 0,
      failed: 0,
      lastError: null,
      reverse_sync: { enabled: true, on_conflict: 'revert', on_delete: 'recreate', moves_detected: 0, last_error: null },
    });
    expect(status.caldav.lastSuccessAt).toEqual(expect.any(String));
    expect(JSON.stringify(status)).not.toContain('alice-app-password');

    const page = await get(env, '/status');
    expect(page.text).toContain('3 events in CalDAV');
    expect(page.text).toContain('moves in the CalDAV calendar come back on the schedule');

    const metrics = (await get(env, '/metrics')).text;
    expect(metrics).toMatch(/calbridge_caldav_writes_total\{kind="insert",outcome="ok"\} 3/);
    expect(metrics).toMatch(/calbridge_caldav_calls_total\{op="PUT",outcome="ok"\} 3/);
    expect(metrics).toMatch(/calbridge_caldav_reverse_sync_rounds_total\{mode="full",outcome="ok"\} 1/);
    expect(metrics).toMatch(/calbridge_caldav_pending 0/);
  });

  it('refused credentials: a warning naming the fix, never a 503, and nothing written', async () => {
    env = await startMirrorEnv({ server, caldav: { password: 'not-the-app-password' } });
    env.t.runtime.lifecycle.set('serving');
    env.sim.create({ start: slot(1) });
    await env.settle(1);

    const ready = await env.t.runtime.app.request('/readyz');
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { ready: boolean; warnings: string[] };
    expect(body.ready).toBe(true);
    expect(body.warnings.join('\n')).toMatch(/CalDAV: the server refused the username and password; .*app-specific password/);
    expect(env.status()).toMatchObject({ auth: { ok: false }, mirrored: 0, pending: 1 });
    expect(env.files()).toEqual([]);
    const page = await get(env, '/status');
    expect(page.text).toContain('CalDAV: the server refused the username and password');
    expect(page.text).not.toContain('not-the-app-password');
  });

  it('a server that is down: still ready, the reverse round’s failure a warning, the details in status only', async () => {
    env = await startMirrorEnv({ server });
    env.t.runtime.lifecycle.set('serving');
    await env.radicale.stop();
    env.sim.create({ start: slot(1) });
    await env.settle(1);
    const ready = await env.t.runtime.app.request('/readyz');
    expect(ready.status).toBe(200);
    const text = await ready.text();
    expect(text).toMatch(/CalDAV reverse sync: the last round failed/);
    expect(text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
    expect(env.status()).toMatchObject({ mirrored: 0, failed: 1, reverse_sync: { last_error: expect.stringMatching(/Clinic: .*no answer from the server/) } });
  });
});
