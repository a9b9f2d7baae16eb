// The runtime builds one way to Google: the writer and the reverse sync share its auth, adapter and
// pacer (one quota), and a committed appointment change reaches the writer through the store's
// change signal. Against the fake Google, through the same builder as serve.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGoogleSimulator, type GoogleSimulator } from '../../src/google/simulator/index.ts';
import { createTestContext, testConfig, type TestContext } from '../helpers/context.ts';
import { appointment, CLIENT, googleSection } from './google-env.ts';

let fake: GoogleSimulator | undefined;
let t: TestContext | undefined;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await t?.close();
  await fake?.close();
  for (const c of cleanups.splice(0)) c();
  t = fake = undefined;
});

const fast = { googleRetry: { retries: 2, baseMs: 1, maxMs: 2 }, googleItemBackoff: { baseMs: 0, maxMs: 0 } };

async function callsByOp(tc: TestContext): Promise<Record<string, number>> {
  const metric = await tc.ctx.metrics.registry.getSingleMetric('calbridge_google_calls_total')?.get();
  const byOp: Record<string, number> = {};
  for (const v of metric?.values ?? []) byOp[String(v.labels.op)] = (byOp[String(v.labels.op)] ?? 0) + v.value;
  return byOp;
}

describe('one Google connection', () => {
  it('serves the writer and the reverse sync with one access token, and counts both in one place', async () => {
    fake = await startGoogleSimulator({ clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret });
    t = createTestContext({
      config: testConfig({ google: googleSection(fake, { reverse_sync: { schedule: '0 0 1 1 *' } }) }),
      tuning: fast,
    });
    t.ctx.appointments.upsert(appointment(1));
    expect((await t.runtime.scheduler.runNow('google-writer')).status).toBe('success');
    expect((await t.runtime.scheduler.runNow('google-reverse-sync')).status).toBe('success');
    expect(fake.events('primary')).toHaveLength(1);
    // A second auth client (a second connection) would fetch a token of its own.
    expect(fake.counts().token).toBe(1);
    const calls = await callsByOp(t);
    expect(calls.insert).toBe(1); // the writer's
    expect(calls.list).toBeGreaterThanOrEqual(1); // the reverse sync's
  });

  it('a committed appointment change wakes the writer; an unchanged one does not', async () => {
    fake = await startGoogleSimulator({ clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret });
    t = createTestContext({ config: testConfig({ google: googleSection(fake) }), tuning: fast });
    t.ctx.appointments.upsert(appointment(1));
    expect(t.woken).toEqual(['google-writer']);
    t.ctx.appointments.upsert(appointment(1));
    expect(t.woken).toEqual(['google-writer']);
    t.ctx.appointments.upsert(appointment(1, { status: 'CANCELED' }));
    expect(t.woken).toEqual(['google-writer', 'google-writer']);
  });

  it('refuses a service account file that is no key, saying so in status and naming the fix in readiness', async () => {
    fake = await startGoogleSimulator({ clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret });
    const dir = mkdtempSync(join(tmpdir(), 'calbridge-sa-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'sa.json');
    writeFileSync(file, '{"type": "authorized_user"}'); // an OAuth user's file, not a service account's
    t = createTestContext({
      config: testConfig({ google: { ...googleSection(fake), credentials: { service_account_file: file } } }),
      tuning: fast,
    });
    t.ctx.appointments.upsert(appointment(1));
    expect((await t.runtime.scheduler.runNow('google-writer')).status).toBe('failed');
    const google = t.runtime.status().targets['google.default']!;
    expect(google.auth).toMatchObject({ mode: 'service_account', ok: false });
    expect(google.auth.error).toContain(`${file} is not a service account key`);
    expect(t.runtime.readiness().warnings.join(' ')).toContain('calbridge google auth');
    expect(fake.counts().token).toBe(0);
  });
});
