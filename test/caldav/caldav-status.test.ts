// What people and operators see of the CalDAV target: its section in /api/status (and so in
// `calbridge status`), the status page's sentences, /metrics, and /readyz, which stays 200 with
// warnings in our own words when the CalDAV server refuses us or is down.
import { afterEach, describe, expect, it } from 'vitest';
import { startServing } from '../helpers/operator-view.ts';
import { slot, startMirrorEnv, type MirrorEnv } from './mirror-env.ts';

const ADMIN = 'admin-token-caldav-0123456789';
const server = { host: '127.0.0.1', port: 0, public_url: 'http://127.0.0.1:8080', admin_token: ADMIN };

let env: MirrorEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe('the CalDAV target in status, the status page and metrics', () => {
  it('shows what is mirrored, the reverse sync and the writes', async () => {
    env = await startMirrorEnv({ server });
    const view = startServing(env.t.runtime, ADMIN);
    for (const h of [0, 2, 4]) env.sim.create({ start: slot(h) });
    await env.settle(1);

    const status = await view.apiStatus();
    const caldav = status.targets['caldav.default']!;
    expect(caldav).toMatchObject({
      enabled: true,
      calendars: ['Clinic'],
      auth: { ok: true, error: null },
      mirrored: 3,
      pending: 0,
      failed: 0,
      last_error: null,
      reverse_sync: { enabled: true, on_conflict: 'revert', on_delete: 'recreate', moves_detected: 0, last_error: null },
    });
    expect(caldav.last_success_at).toEqual(expect.any(String));
    expect(JSON.stringify(status)).not.toContain('alice-app-password');

    const page = await view.get('/status');
    expect(page.text).toContain('3 events in CalDAV');
    expect(page.text).toContain('moves in the CalDAV calendar come back on the schedule');
    // Where bookings went, and tomorrow's appointments as the CalDAV calendar shows them.
    expect(page.text).toContain('<span class="badge">booking → CalDAV</span>');
    expect(page.text).toContain('<th>CalDAV</th>');
    expect(page.text).toMatch(/and as CalDAV shows it now\./);
    expect(page.text).toContain('<td data-label="CalDAV" class="shown ok">✓ 09:00</td>');

    const metrics = (await view.get('/metrics')).text;
    // Each series names its account.
    expect(metrics).toMatch(/calbridge_caldav_writes_total\{kind="insert",outcome="ok",account="caldav.default"\} 3/);
    expect(metrics).toMatch(/calbridge_caldav_calls_total\{op="PUT",outcome="ok",account="caldav.default"\} 3/);
    expect(metrics).toMatch(/calbridge_caldav_reverse_sync_rounds_total\{mode="full",outcome="ok",account="caldav.default"\} 1/);
    expect(metrics).toMatch(/calbridge_caldav_pending\{account="caldav.default"\} 0/);
    expect(metrics).toContain(
      '# HELP calbridge_caldav_reverse_restores_total Events in a CalDAV calendar put back because the booking service wins',
    );
    // The details section's heading spells the protocol's name.
    expect(page.text).toContain('<details class="part" id="section-caldav.default"><summary>CalDAV</summary>');
  });

  it('refused credentials: a warning naming the fix, never a 503, and nothing written', async () => {
    env = await startMirrorEnv({ server, caldav: { password: 'not-the-app-password' } });
    const view = startServing(env.t.runtime, ADMIN);
    env.sim.create({ start: slot(1) });
    await env.settle(1);

    const ready = await view.readyz();
    expect(ready.status).toBe(200);
    const body = JSON.parse(ready.text) as { ready: boolean; warnings: string[] };
    expect(body.ready).toBe(true);
    expect(body.warnings.join('\n')).toMatch(/CalDAV: the server refused the username and password; .*app-specific password/);
    expect(env.status()).toMatchObject({ auth: { ok: false }, mirrored: 0, pending: 1 });
    expect(env.files()).toEqual([]);
    const page = await view.get('/status');
    expect(page.text).toContain('The CalDAV server refused the username or password, so no appointment reaches the CalDAV calendar.');
    expect(page.text).toContain('iCloud and Fastmail need an app-specific password');
    // Told once: not also as writes that keep failing or a reverse-sync round that failed.
    expect(page.text).toContain('<h2>1 problem needs attention</h2>');
    expect(page.text.match(/<li><p class="what">/g)).toHaveLength(1);
    expect(page.text).not.toContain('not-the-app-password');
  });

  it('a calendar the account does not have: a warning in our words on /readyz, the calendars found in status', async () => {
    env = await startMirrorEnv({ server, caldav: { calendars: [{ calendar_key: '*', calendar: 'Clinc' }] } });
    const view = startServing(env.t.runtime, ADMIN);
    env.sim.create({ start: slot(1) });
    await env.settle(1);
    const { status, text } = await view.readyz();
    expect(status).toBe(200);
    expect(text).toContain('CalDAV: the calendar \\"Clinc\\" of caldav.calendars is not one of the account\'s calendars');
    expect(text).not.toContain(env.radicale.url);
    expect(env.status().setup_problem).toEqual({
      kind: 'calendar_not_found',
      calendar: 'Clinc',
      message: expect.stringContaining(`found: "Clinic" (${env.calendarUrl})`),
    });
    expect(env.files()).toEqual([]);
  });

  it('a server that is down: still ready, the reverse round’s failure a warning, the details in status only', async () => {
    env = await startMirrorEnv({ server });
    const view = startServing(env.t.runtime, ADMIN);
    await env.radicale.stop();
    env.sim.create({ start: slot(1) });
    await env.settle(1);
    const { status, text } = await view.readyz();
    expect(status).toBe(200);
    expect(text).toMatch(/CalDAV reverse sync: the last round failed/);
    expect(text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
    expect(env.status()).toMatchObject({
      mirrored: 0,
      failed: 1,
      reverse_sync: { last_error: expect.stringMatching(/Clinic: .*no answer from the server/) },
    });
  });
});
