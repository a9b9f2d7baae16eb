// /readyz as an orchestrator and a stranger see it: 503 only when this process cannot take traffic,
// upstream trouble as warnings in our own words, and no upstream error text in the public body.
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.ts';
import type { JobName } from '../../src/jobs/job.ts';
import { latestSchemaVersion } from '../../src/store/db.ts';
import { startGoogleSimulator, type GoogleSimulator } from '../../src/google/simulator/index.ts';
import { CLIENT, appointment, googleSection } from '../google/google-env.ts';
import { createTestContext, testConfig, type TestContext } from '../helpers/context.ts';

const ADMIN = 'admin-token-health-0123456789';
// A calendar id is often the owner's e-mail address: Google's errors about it must not go public.
const CALENDAR = 'owner.private@clinic.example';

let t: TestContext | undefined;
let fake: GoogleSimulator | undefined;
afterEach(async () => {
  await t?.close();
  await fake?.close();
  t = fake = undefined;
});

async function daemonWithGoogle() {
  fake = await startGoogleSimulator({ clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret });
  const clock = new ManualClock();
  const config = testConfig({
    server: { host: '127.0.0.1', port: 0, public_url: 'http://127.0.0.1:8080', admin_token: ADMIN },
    google: googleSection(fake, { calendars: [{ calendar_key: '*', calendar_id: CALENDAR }], reverse_sync: { schedule: '*/2 * * * *' } }),
  });
  const fast = { retries: 1, baseMs: 1, maxMs: 2 };
  t = createTestContext({ config, clock, tuning: { googleRetry: fast, googleItemBackoff: { baseMs: 0, maxMs: 0 } } });
  const { app, lifecycle, parts } = t.runtime;
  const job = (name: JobName) => parts.flatMap((p) => p.jobs ?? []).find((j) => j.name === name)!;
  return {
    app,
    clock,
    lifecycle,
    runWriter: () => job('google-writer').run(),
    runReverse: () => job('google-reverse-sync').run(),
    readyz: async () => {
      const res = await app.request('/readyz');
      return { status: res.status, text: await res.text() };
    },
    apiStatus: async () => (await app.request('/api/status', { headers: { authorization: `Bearer ${ADMIN}` } })).text(),
  };
}

/** A serving daemon whose Google has answered 500 to everything, for longer than the readiness window. */
async function googleDownForAWhile() {
  const d = await daemonWithGoogle();
  d.lifecycle.set('serving');
  fake!.setFaults({ rate: 1, kinds: [500] });
  t!.ctx.appointments.upsert(appointment(1));
  await d.runWriter();
  await d.runReverse();
  d.clock.advance(16 * 60_000); // past the window: three poll periods of */5
  return d;
}

describe('/readyz', () => {
  it('stays 200 with Google answering 500 for everything; its body names the warning', async () => {
    const d = await googleDownForAWhile();
    const r = await d.readyz();
    expect(r.status).toBe(200);
    const body = JSON.parse(r.text) as { ready: boolean; reasons: string[]; warnings: string[] };
    expect(body.ready).toBe(true);
    expect(body.reasons).toEqual([]);
    expect(body.warnings.join('\n')).toMatch(/Google has not answered successfully for over 15 minutes/);
    expect(body.warnings.join('\n')).toMatch(/reverse sync: the last round failed/);
  });

  it('carries no upstream error text: it stays behind the admin token in /api/status', async () => {
    const d = await googleDownForAWhile();
    const details = await d.apiStatus();
    expect(details).toContain('Backend Error'); // Google's text, where an administrator looks
    expect(details).toContain(CALENDAR);
    const r = await d.readyz();
    expect(r.text).not.toContain('Backend Error');
    expect(r.text).not.toContain(CALENDAR);
    expect(r.text).not.toMatch(/@/);
  });

  it('is a warning, not a 503, when Google refuses the credentials; the fix is named, the account is not', async () => {
    const d = await daemonWithGoogle();
    d.lifecycle.set('serving');
    fake!.revoke();
    t!.ctx.appointments.upsert(appointment(1));
    await d.runWriter();
    const r = await d.readyz();
    expect(r.status).toBe(200);
    expect(r.text).toMatch(/calbridge google auth/);
    expect(r.text).not.toMatch(/Token has been expired or revoked/);
    expect(await d.apiStatus()).toMatch(/Token has been expired or revoked/);
  });

  it('answers 503 while starting and once stopping: this process cannot take traffic then', async () => {
    const d = await daemonWithGoogle();
    const starting = await d.readyz();
    expect(starting.status).toBe(503);
    expect(JSON.parse(starting.text).reasons).toEqual(['starting: the scheduler and the parts are not running yet']);
    d.lifecycle.set('serving');
    expect((await d.readyz()).status).toBe(200);
    d.lifecycle.set('stopping');
    const stopping = await d.readyz();
    expect(stopping.status).toBe(503);
    expect(JSON.parse(stopping.text).reasons).toEqual(['stopping: finishing the work in flight']);
  });

  it('answers 503 when a newer calbridge has migrated the database under it', async () => {
    const d = await daemonWithGoogle();
    d.lifecycle.set('serving');
    const latest = latestSchemaVersion();
    t!.ctx.db.pragma(`user_version = ${latest + 1}`);
    const r = await d.readyz();
    expect(r.status).toBe(503);
    expect(JSON.parse(r.text).reasons.join(' ')).toContain(
      `schema version ${latest + 1} but this calbridge runs version ${latest} (a newer release migrated it)`,
    );
  });
});
