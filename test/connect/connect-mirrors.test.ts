// The whole promise of a connect link, end to end with the runtime `serve` builds: a person connects
// their own Google calendar over plain HTTP (no JavaScript) against the Google simulator, and from
// then on the appointments of the invite's booking calendar are mirrored into the calendar they
// picked, once each, and nothing else is.
import { DateTime } from 'luxon';
import { afterEach, expect, it } from 'vitest';
import type { Simulator } from '../../src/booking/simulator/index.ts';
import { startGoogleSimulator, type GoogleSimulator } from '../../src/google/simulator/index.ts';
import { startTestSimulator, TEST_ZONE } from '../helpers/simulator.ts';
import { follow, formOf, get, post, startConnectEnv, type ConnectEnv } from './connect-env.ts';

const CLIENT = { client_id: 'mirror-web-client.apps.googleusercontent.com', client_secret: 'mirror-web-client-secret-0123' };
const ANA = 'a1000000-0000-4000-a000-000000000001';
const OTHER = 'b2000000-0000-4000-a000-000000000002';

let sim: Simulator;
let fake: GoogleSimulator;
let env: ConnectEnv;
afterEach(async () => {
  await env?.stop();
  await fake?.close();
  await sim?.close();
});

it("mirrors the invite's booking calendar into the calendar the person picked, within one pass", async () => {
  sim = await startTestSimulator();
  const tomorrow = DateTime.now().setZone(TEST_ZONE).plus({ days: 1 }).set({ hour: 8, minute: 0, second: 0, millisecond: 0 }).toMillis();
  for (let i = 0; i < 6; i++)
    sim.create({
      appointment_key: `apt-${i}`,
      start: tomorrow + i * 3_600_000,
      calendar: { calendar_key: i % 2 ? OTHER : ANA, name: i % 2 ? 'Bruno' : 'Ana' },
    });
  fake = await startGoogleSimulator({
    clientId: CLIENT.client_id,
    clientSecret: CLIENT.client_secret,
    calendars: { primary: 'owner', 'ana-work@group.calendar.google.com': 'writer' },
  });
  env = await startConnectEnv(
    () => `google: { enabled: false, token_url: "${fake.tokenUrl}", api_root: "${fake.rootUrl}" }
connect:
  enabled: true
  google_client: { client_id: ${CLIENT.client_id}, client_secret: ${CLIENT.client_secret} }
  google_auth_url: "${fake.authUrl}"
`,
    { booking: sim },
  );
  const { runtime } = env.daemon;
  await runtime.scheduler.runNow('poll');

  const made = await env.run('connect', 'invite', '--target', 'google', '--calendar-key', ANA, '--name', 'ana');
  const { res } = await follow((await get(made.out.trim())).headers.get('location')!);
  const form = formOf(await res.text());
  const done = await post(new URL(form.action, env.base).href, { ...form.fields, calendar: 'ana-work@group.calendar.google.com' });
  expect(done.status).toBe(200);

  // The confirmation woke `accounts`: Ana's account is a part of the running daemon, and one pass of its writer mirrors her calendar.
  await runtime.scheduler.idle();
  expect(runtime.parts.some((p) => p.name === 'google.ana')).toBe(true);
  await runtime.scheduler.runNow('google.ana-writer');
  const held = fake.events('ana-work@group.calendar.google.com').map((e) => e.extendedProperties?.private?.appointment_key);
  expect(held.sort()).toEqual(['apt-0', 'apt-2', 'apt-4']);
  expect(fake.events('primary')).toEqual([]);
  expect((await get(made.out.trim())).status).toBe(404);
  expect(env.databaseBytes().includes(Buffer.from(fake.tokens.refreshTokens[0]!))).toBe(false);
});
