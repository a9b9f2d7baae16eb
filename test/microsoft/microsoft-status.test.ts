// What people and operators see of the Microsoft target: its section in /api/status, the status
// page's sentences (in English and Portuguese), /metrics under calbridge_microsoft_*, and /readyz,
// which stays 200 with a warning in our own words when Microsoft refuses the sign-in.
import { afterEach, describe, expect, it } from 'vitest';
import { startServing } from '../helpers/operator-view.ts';
import { reverseSyncOn } from '../helpers/reverse-sync-section.ts';
import { MAILBOX, TENANT } from './env.ts';
import { slot, startMirror, type Env } from './mirror-env.ts';

const ADMIN = 'admin-token-microsoft-0123456789';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

describe('the Microsoft target in status, the status page and metrics', () => {
  it('shows what is mirrored in Outlook, how moves come back, and the writes', async () => {
    env = await startMirror({ server: { admin_token: ADMIN } });
    const view = startServing(env.t.runtime, ADMIN);
    for (const h of [0, 2, 4]) env.sim.create({ start: slot(h) });
    await env.settle(1);

    const status = await view.apiStatus();
    const microsoft = status.targets['microsoft.default']!;
    expect(microsoft).toMatchObject({
      enabled: true,
      kind: 'microsoft',
      auth: { ok: true, error: null },
      mirrored: 3,
      pending: 0,
      failed: 0,
      reverse_sync: { enabled: true, on_conflict: 'revert', on_delete: 'recreate', moves_detected: 0, last_error: null },
    });
    expect(microsoft).toMatchObject({ tenant: TENANT, sign_in: 'app-only', mailboxes: [{ user: MAILBOX, paused_until: null }] });

    const page = await view.get('/status');
    expect(page.text).toContain('All is well');
    expect(page.text).toContain('3 events in Outlook');
    expect(page.text).toContain('moves in Outlook come back on the schedule');
    expect(page.text).toContain('<span class="badge">booking → Outlook</span>');
    // Tomorrow's appointments as Outlook shows them now.
    expect(page.text).toContain('<th>Outlook</th>');
    expect(page.text).toMatch(/and as Outlook shows it now\./);
    expect(page.text).toContain('<td data-label="Outlook" class="shown ok">✓ 09:00</td>');

    const metrics = (await view.get('/metrics')).text;
    // Each series names its account.
    expect(metrics).toMatch(/calbridge_microsoft_writes_total\{kind="insert",outcome="ok",account="microsoft.default"\} 3/);
    // Each request by what it was for, as Google's are: three creates, each after a look-up of its key.
    expect(metrics).toMatch(/calbridge_microsoft_calls_total\{op="create",outcome="ok",account="microsoft.default"\} 3\n/);
    expect(metrics).toMatch(/calbridge_microsoft_calls_total\{op="find",outcome="ok",account="microsoft.default"\} [1-9]\d*\n/);
    expect(metrics).toMatch(/calbridge_microsoft_calls_total\{op="calendars",outcome="ok",account="microsoft.default"\} [1-9]\d*\n/);
    expect(metrics).toMatch(/calbridge_microsoft_pending\{account="microsoft.default"\} 0/);
    expect(metrics).toMatch(/calbridge_microsoft_failed_items\{account="microsoft.default"\} 0/);
    expect(metrics).toMatch(
      /calbridge_microsoft_reverse_sync_rounds_total\{mode="incremental",outcome="ok",account="microsoft.default"\} 1/,
    );
    expect(metrics).toMatch(/calbridge_microsoft_subscriptions_active\{account="microsoft.default"\} 0/);
  });

  it('a refused sign-in: one problem naming the fix (and what Microsoft said), a readiness warning, never a 503', async () => {
    env = await startMirror({ server: { admin_token: ADMIN } });
    const view = startServing(env.t.runtime, ADMIN);
    env.graph.tokens.revoke(); // the client secret expired
    env.sim.create({ start: slot(1) });
    await env.settle(1);

    const ready = await view.readyz();
    expect(ready.status).toBe(200);
    const body = JSON.parse(ready.text) as { ready: boolean; warnings: string[] };
    expect(body.ready).toBe(true);
    expect(body.warnings.join('\n')).toMatch(/^Microsoft: the sign-in was refused; run `calbridge microsoft auth` again/m);
    expect(env.status()).toMatchObject({ auth: { ok: false }, mirrored: 0, pending: 1 });
    expect(env.events()).toEqual([]);

    const page = await view.get('/status');
    expect(page.text).toContain('1 problem needs attention');
    expect(page.text).toContain('Microsoft refused calbridge’s sign-in, so no change reaches Outlook.');
    expect(page.text).toContain('run <code>calbridge microsoft auth</code> on the server');
    expect(page.text).toContain('Microsoft said: AADSTS7000222: The provided client secret keys are expired.');
    // The rounds and writes the refusal makes fail are not told again.
    expect(page.text).not.toContain('could not be read in the last round');
    expect(page.text).not.toContain('could not be written to Outlook');
  });

  it('change notifications Graph cannot deliver: a readiness warning, and moves said to come back on the schedule', async () => {
    // Graph's validation request for our notification address goes nowhere: no subscription is made.
    env = await startMirror({ push: true, server: { admin_token: ADMIN }, graph: { pushAddress: () => 'http://127.0.0.1:9/' } });
    const view = startServing(env.t.runtime, ADMIN);
    env.sim.create({ start: slot(1) });
    await env.settle(1);
    await env.run('microsoft-subscriptions');
    expect(env.graph.subscriptions.all.size).toBe(0);
    expect(reverseSyncOn(env.status()).push).toMatchObject({ enabled: true, channels_active: 0 });
    expect(env.t.runtime.readiness().warnings.join('\n')).toContain(
      'Microsoft: a Graph subscription could not be made or renewed; changes are picked up on the schedule only',
    );
    const page = (await view.get('/status')).text;
    expect(page).toContain('a Graph subscription could not be made or renewed');
    expect(page).toContain('moves in Outlook come back on the schedule');
  });

  it('in Portuguese: the facts and the refusal in the locale', async () => {
    env = await startMirror({ server: { admin_token: ADMIN, locale: 'pt-BR' } });
    const view = startServing(env.t.runtime, ADMIN);
    env.sim.create({ start: slot(1) });
    await env.settle(1);
    expect((await view.get('/status')).text).toContain('1 evento no Outlook');
    env.graph.tokens.revoke();
    env.sim.create({ start: slot(3) });
    await env.settle(1);
    const page = (await view.get('/status')).text;
    expect(page).toContain('A Microsoft recusou o acesso do calbridge, então nenhuma mudança chega ao Outlook.');
    expect(page).not.toContain('the sign-in was refused');
  });
});
