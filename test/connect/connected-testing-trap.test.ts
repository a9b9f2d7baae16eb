// A Google calendar connected by a link signs in with connect.google_client, whose app may still be in
// "Testing": Google then refuses its refresh token 7 days after the person connected. The alert (and
// the status section it shows in) names that trap from when the sealed token was issued, and says
// to publish the app and connect again, never to run `google auth`.
import { DateTime } from 'luxon';
import { afterEach, expect, it } from 'vitest';
import type { Simulator } from '../../src/booking/simulator/index.ts';
import { ManualClock } from '../../src/core/clock.ts';
import { startGoogleSimulator, type GoogleSimulator } from '../../src/google/simulator/index.ts';
import { startTestSimulator, TEST_ZONE } from '../helpers/simulator.ts';
import { follow, formOf, get, post, startConnectEnv, type ConnectEnv } from './connect-env.ts';

const CLIENT = { client_id: 'trap-web-client.apps.googleusercontent.com', client_secret: 'trap-web-client-secret-0123' };
const ANA = 'a1000000-0000-4000-a000-000000000001';
const DAY = 86_400_000;

let sim: Simulator | undefined;
let fake: GoogleSimulator | undefined;
let env: ConnectEnv | undefined;
afterEach(async () => {
  await env?.stop();
  await fake?.close();
  await sim?.close();
});

it('a connected Google calendar refused a week after it was connected: the "Testing" trap, publish, connect again', async () => {
  sim = await startTestSimulator();
  const clock = new ManualClock(Date.now());
  const start = DateTime.now().setZone(TEST_ZONE).plus({ days: 30 }).set({ hour: 8, minute: 0, second: 0, millisecond: 0 }).toMillis();
  sim.create({ appointment_key: 'apt-0', start, calendar: { calendar_key: ANA, name: 'Ana' } });
  const f = await startGoogleSimulator({
    clientId: CLIENT.client_id,
    clientSecret: CLIENT.client_secret,
    calendars: { primary: 'owner' },
  });
  fake = f;
  const e = await startConnectEnv(
    () => `google: { enabled: false, token_url: "${f.tokenUrl}", api_root: "${f.rootUrl}" }
connect:
  enabled: true
  google_client: { client_id: ${CLIENT.client_id}, client_secret: ${CLIENT.client_secret} }
  google_auth_url: "${f.authUrl}"
`,
    { booking: sim, clock },
  );
  env = e;
  const { runtime } = e.daemon;
  await runtime.scheduler.runNow('poll');
  const made = await e.run('connect', 'invite', '--target', 'google', '--calendar-key', ANA, '--name', 'ana');
  const { res } = await follow((await get(made.out.trim())).headers.get('location')!);
  const form = formOf(await res.text());
  expect((await post(new URL(form.action, e.base).href, { ...form.fields, calendar: 'primary' })).status).toBe(200);
  await runtime.scheduler.idle();
  expect((await runtime.scheduler.runNow('google.ana-writer'))?.status).toBe('success');

  // A week later Google refuses the token (the app is in "Testing"), at the next change to write.
  clock.advance(7 * DAY);
  f.revoke();
  f.expireAccessTokens();
  sim.update('apt-0', { start: start + 3_600_000 });
  await runtime.scheduler.runNow('poll');
  await runtime.scheduler.runNow('google.ana-writer'); // the poll woke it already: either pass meets the refusal
  expect(runtime.status().targets['google.ana']?.auth).toMatchObject({ ok: false, error: expect.stringContaining('invalid_grant') });

  const alerts = runtime.status().alerts as { problems: { key: string; sentence: string }[] };
  const told = alerts.problems.find((p) => p.key === 'google.ana.auth')?.sentence;
  expect(told).toMatch(/^google\.ana: Google refused the sign-in of this calendar, connected on the web, 7 days after it was given: /);
  expect(told).toContain('the OAuth app of connect.google_client is in "Testing"');
  expect(told).toContain('publish it first');
  expect(told).toContain('`calbridge connect invite --target google --name ana');
  expect(told).not.toContain('google auth');
});
