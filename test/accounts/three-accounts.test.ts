// Several calendar accounts end to end, through the runtime `serve` builds: two Google accounts (two
// Google simulators, one user each), one CalDAV account on a real Radicale, and 500 appointments
// from the booking simulator over HTTP in five booking calendars, mapped so that some go to two
// accounts. Each account's calendars hold exactly their appointments, once. A revoked sign-in stops
// only its own account, alerts once (a webhook to a local receiver) and says "recovered" once after
// a new token is stored, with no restart and no lost or doubled event. An account connected on the
// web while serving is mirrored within one pass; removed, its jobs stop and its events stay.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import type { Simulator } from '../../src/booking/simulator/index.ts';
import { dryRunText } from '../../src/commands/sync-dry-run.ts';
import { googleAccounts } from '../../src/config/accounts.ts';
import { systemClock } from '../../src/core/clock.ts';
import { storeRefreshToken } from '../../src/google/auth.ts';
import { startGoogleSimulator, type GoogleSimulator } from '../../src/google/simulator/index.ts';
import type { JobName } from '../../src/jobs/job.ts';
import { silentLogger } from '../../src/log.ts';
import { dryRunPass } from '../../src/wiring/dry-run.ts';
import type { ConnectedAccount } from '../../src/sync/target/connected-account.ts';
import { startReceiver, type Receiver } from '../alerts/receiver.ts';
import { CalendarApp } from '../caldav/calendar-app.ts';
import { startRadicale, type Radicale } from '../caldav/radicale.ts';
import { PASSWORD, USER } from '../caldav/setup.ts';
import { CLIENT } from '../google/google-env.ts';
import { createTestContext, testConfig, type TestContext } from '../helpers/context.ts';
import { simulatorClient, startTestSimulator, TEST_ZONE } from '../helpers/simulator.ts';

const ADMIN = 'admin-token-for-accounts-tests-01';
const BOOKING = ['c1', 'c2', 'c3', 'c4', 'c5'].map((c) => `${c}000000-0000-4000-a000-000000000001`);
const [C1, C2, C3, C4, C5] = BOOKING as [string, string, string, string, string];

/** Tomorrow 08:00 in the booking zone: the first appointment's start. */
const first = (_sim: Simulator) =>
  DateTime.now().setZone(TEST_ZONE).plus({ days: 1 }).set({ hour: 8, minute: 0, second: 0, millisecond: 0 }).toMillis();

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

interface Env {
  sim: Simulator;
  clinic: GoogleSimulator;
  ana: GoogleSimulator;
  radicale: Radicale;
  receiver: Receiver;
  t: TestContext;
  connected: ConnectedAccount[];
  run(job: JobName): Promise<unknown>;
  /** appointment key -> how many live events hold it, in a simulated Google calendar. */
  googleKeys(fake: GoogleSimulator, calendarId: string): Map<string, number>;
  caldavFiles(): string[];
  hooks(): { event: string; key: string; sentence: string }[];
}

/** `section`: the Google the google section points at (an account connected on the web uses the section's endpoints). */
async function setUp(count: number, section?: GoogleSimulator): Promise<Env> {
  const sim = await startTestSimulator();
  closers.push(() => sim.close());
  // Tomorrow 08:00 on, one appointment an hour, calendars in turn: 100 each in five calendars.
  for (let i = 0; i < count; i++) {
    const key = BOOKING[i % 5]!;
    sim.create({
      appointment_key: `apt-${i}`,
      start: first(sim) + i * 3_600_000,
      calendar: { calendar_key: key, name: `Agenda ${i % 5}` },
    });
  }
  const clinic = await startGoogleSimulator({ clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret });
  const ana = await startGoogleSimulator({ clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret });
  closers.push(
    () => clinic.close(),
    () => ana.close(),
  );
  const radicale = await startRadicale();
  closers.push(() => radicale.stop());
  await new CalendarApp(radicale.url, USER, PASSWORD).makeCalendar(`/${USER}/bruno/`, 'Bruno');
  const receiver = await startReceiver();
  closers.push(() => receiver.close());

  // Both Google accounts sign in with a stored refresh token, as `google auth --account` leaves it.
  const googleAccount = (name: string, fake: GoogleSimulator, calendars: { calendar_key: string; calendar_id: string }[]) => ({
    name,
    credentials: { client_id: CLIENT.client_id, client_secret: CLIENT.client_secret },
    calendars,
    api_root: fake.rootUrl,
    token_url: fake.tokenUrl,
    requests_per_minute: 10_000,
  });
  const config = testConfig({
    server: { admin_token: ADMIN },
    booking: { base_url: sim.url, token: sim.token, timezone: TEST_ZONE },
    poll: { breaker_share: 1 },
    google: {
      ...(section ? { api_root: section.rootUrl, token_url: section.tokenUrl } : {}),
      reverse_sync: { schedule: '0 0 1 1 *' },
      accounts: [
        // The clinic-wide calendars: c1 on its own, c2 and c3 together.
        googleAccount('clinic', clinic, [
          { calendar_key: C1, calendar_id: 'one@group.calendar.google.com' },
          { calendar_key: C2, calendar_id: 'all@group.calendar.google.com' },
          { calendar_key: C3, calendar_id: 'all@group.calendar.google.com' },
        ]),
        // Ana's own: c3 and c4 (c3 then is in two accounts).
        googleAccount('ana', ana, [
          { calendar_key: C3, calendar_id: 'primary' },
          { calendar_key: C4, calendar_id: 'primary' },
          // Never used: c3 matched above (first match wins within an account).
          { calendar_key: C3, calendar_id: 'never@group.calendar.google.com' },
        ]),
      ],
    },
    caldav: {
      requests_per_minute: 10_000,
      reverse_sync: { schedule: '0 0 1 1 *' },
      // Bruno's: c4 and c5 (c4 then is in two accounts).
      accounts: [
        {
          name: 'bruno',
          url: radicale.url,
          username: USER,
          password: PASSWORD,
          calendars: [
            { calendar_key: C4, calendar: 'Bruno' },
            { calendar_key: C5, calendar: 'Bruno' },
          ],
        },
      ],
    },
    alerts: { after_minutes: 0, webhook: `${receiver.url}/hook` },
  });
  const connected: ConnectedAccount[] = [];
  const t = createTestContext({
    config,
    booking: simulatorClient(sim),
    clock: systemClock,
    connectedAccounts: () => [...connected],
    tuning: {
      googleRetry: { retries: 0, baseMs: 1, maxMs: 1 },
      googleItemBackoff: { baseMs: 0, maxMs: 0 },
      caldavRetry: { retries: 2, baseMs: 1, maxMs: 5 },
      caldavItemBackoff: { baseMs: 0, maxMs: 0 },
      alertRetry: { retries: 0, baseMs: 1, maxMs: 1 },
    },
  });
  closers.push(() => t.close());
  for (const { name, config: g } of googleAccounts(t.runtime.config.google)) {
    const fake = name === 'ana' ? ana : clinic;
    storeRefreshToken(t.ctx.kv, g, fake.issueRefreshToken(), Date.now(), name);
  }
  const folder = join(radicale.storage, 'collection-root', USER, 'bruno');
  return {
    sim,
    clinic,
    ana,
    radicale,
    receiver,
    t,
    connected,
    run: (job) => t.runtime.scheduler.runNow(job),
    googleKeys(fake, calendarId) {
      const keys = new Map<string, number>();
      for (const e of fake.events(calendarId)) {
        const key = e.extendedProperties?.private?.appointment_key;
        if (e.status !== 'cancelled' && key) keys.set(key, (keys.get(key) ?? 0) + 1);
      }
      return keys;
    },
    caldavFiles: () => readdirSync(folder).filter((f) => f.endsWith('.ics')),
    hooks: () =>
      receiver.received
        .filter((r) => r.path === '/hook')
        .map((r) => JSON.parse(r.body) as { event: string; key: string; sentence: string }),
  };
}

/** The keys of the appointments in these booking calendars. */
const keysIn = (sim: Simulator, ...calendars: string[]) =>
  sim
    .all()
    .filter((a) => calendars.includes(a.calendar.calendar_key))
    .map((a) => a.appointment_key)
    .sort();
const once = (m: Map<string, number>) => [...m.entries()].every(([, n]) => n === 1);
const sorted = (m: Map<string, number>) => [...m.keys()].sort();

it('three accounts: each holds exactly its appointments, once; a revoked sign-in stops only its account, alerts once, recovers once', async () => {
  const env = await setUp(500);
  const { t, sim, clinic, ana } = env;
  expect(
    t.runtime.parts
      .map((p) => p.name)
      .filter((n) => n.includes('.'))
      .sort(),
  ).toEqual(['caldav.bruno', 'google.ana', 'google.clinic']);

  await env.run('poll');
  const writers: JobName[] = ['google.clinic-writer', 'google.ana-writer', 'caldav.bruno-writer'];
  await Promise.all(writers.map((w) => env.run(w)));
  await t.runtime.scheduler.idle();

  const clinicAll = env.googleKeys(clinic, 'all@group.calendar.google.com');
  const clinicOne = env.googleKeys(clinic, 'one@group.calendar.google.com');
  expect(sorted(clinicOne)).toEqual(keysIn(sim, C1));
  expect(sorted(clinicAll)).toEqual(keysIn(sim, C2, C3));
  expect(once(clinicOne) && once(clinicAll)).toBe(true);
  const anaPrimary = env.googleKeys(ana, 'primary');
  expect(sorted(anaPrimary)).toEqual(keysIn(sim, C3, C4));
  expect(once(anaPrimary)).toBe(true);
  expect(env.googleKeys(ana, 'never@group.calendar.google.com').size).toBe(0);
  expect(env.googleKeys(clinic, 'primary').size).toBe(0);
  expect(env.caldavFiles().sort()).toEqual(keysIn(sim, C4, C5).map((k) => `${k}.ics`));

  const status = t.runtime.status();
  expect(Object.keys(status.targets).sort()).toEqual(['caldav.bruno', 'google.ana', 'google.clinic']);
  expect(status.targets['google.ana']!.mirrored).toBe(200);
  expect(status.targets['google.clinic']!.mirrored).toBe(300);
  expect(status.targets['caldav.bruno']!.mirrored).toBe(200);
  // The status page counts each account's events by its name.
  const counts = await (await t.runtime.app.request('/status', { headers: { Authorization: `Bearer ${ADMIN}` } })).text();
  expect(counts).toContain('google.clinic: 300 events in Google');
  expect(counts).toContain('google.ana: 200 events in Google');
  expect(counts).toContain('caldav.bruno: 200');

  // Ana revokes calbridge's access (and her access tokens lapse): only her account stops.
  await env.run('alerts');
  expect(env.hooks()).toEqual([]);
  ana.revoke();
  ana.expireAccessTokens();
  const later = first(sim) + 600 * 3_600_000;
  for (let i = 500; i < 510; i++) {
    sim.create({ appointment_key: `apt-${i}`, start: later + i * 3_600_000, calendar: { calendar_key: BOOKING[i % 5]!, name: 'x' } });
  }
  await env.run('poll');
  for (const w of writers) await env.run(w);
  await t.runtime.scheduler.idle();
  const after = t.runtime.status().targets;
  expect(after['google.ana']!.auth.ok).toBe(false);
  expect(after['google.clinic']!.auth.ok).toBe(true);
  expect(after['caldav.bruno']!.auth.ok).toBe(true);
  expect(sorted(env.googleKeys(clinic, 'all@group.calendar.google.com'))).toEqual(keysIn(sim, C2, C3));
  expect(env.caldavFiles().sort()).toEqual(keysIn(sim, C4, C5).map((k) => `${k}.ics`));
  expect(sorted(env.googleKeys(ana, 'primary'))).not.toEqual(keysIn(sim, C3, C4));
  // The status page (and `status`, which words the same problems) says whose sign-in failed and how to fix it.
  const page = await (await t.runtime.app.request('/status', { headers: { Authorization: `Bearer ${ADMIN}` } })).text();
  expect(page).toContain('google.ana: Google refused calbridge’s credentials');
  expect(page).toContain('calbridge google auth --account ana');
  expect(page).not.toContain('google.clinic: Google refused');

  // One problem message, however often the alerts look.
  await env.run('alerts');
  await env.run('google.ana-writer');
  await env.run('alerts');
  expect(env.hooks().map((m) => `${m.event} ${m.key}`)).toEqual(['problem google.ana.auth']);
  expect(env.hooks()[0]!.sentence).toMatch(/^google\.ana: /);
  expect(env.hooks()[0]!.sentence).toContain('google auth --account ana');

  // Ana signs in again (`google auth --account ana` stores the token): the running daemon uses it
  // at the account's next pass, no restart.
  const anaConfig = googleAccounts(t.runtime.config.google).find((a) => a.name === 'ana')!.config;
  storeRefreshToken(t.ctx.kv, anaConfig, ana.issueRefreshToken(), Date.now(), 'ana');
  expect(await env.run('google.ana-writer')).toMatchObject({ status: 'success' });
  await env.run('alerts');
  await env.run('alerts');
  expect(env.hooks().map((m) => `${m.event} ${m.key}`)).toEqual(['problem google.ana.auth', 'recovered google.ana.auth']);

  // No lost or doubled event anywhere.
  const anaNow = env.googleKeys(ana, 'primary');
  expect(sorted(anaNow)).toEqual(keysIn(sim, C3, C4));
  expect(once(anaNow)).toBe(true);
  const allNow = env.googleKeys(clinic, 'all@group.calendar.google.com');
  expect(sorted(allNow)).toEqual(keysIn(sim, C2, C3));
  expect(once(allNow)).toBe(true);
  expect(sorted(env.googleKeys(clinic, 'one@group.calendar.google.com'))).toEqual(keysIn(sim, C1));
  expect(env.caldavFiles().sort()).toEqual(keysIn(sim, C4, C5).map((k) => `${k}.ics`));
  // An appointment moved to another booking calendar leaves the accounts that no longer map it and
  // arrives in the one that does: each account plans only its own calendars and its own events.
  const moved = keysIn(sim, C4)[0]!;
  sim.update(moved, { calendar: { calendar_key: C1, name: 'x' } });
  await env.run('poll');
  for (const w of writers) await env.run(w);
  await t.runtime.scheduler.idle();
  expect(env.googleKeys(ana, 'primary').has(moved)).toBe(false);
  expect(env.caldavFiles()).not.toContain(`${moved}.ics`);
  expect(env.googleKeys(clinic, 'one@group.calendar.google.com').has(moved)).toBe(true);
  expect(sorted(env.googleKeys(ana, 'primary'))).toEqual(keysIn(sim, C3, C4));
  expect(sorted(env.googleKeys(clinic, 'one@group.calendar.google.com'))).toEqual(keysIn(sim, C1));

  // The accounts' metrics carry their names.
  const metrics = await t.runtime.services.metrics.registry.metrics();
  expect(metrics).toMatch(/calbridge_google_writes_total\{kind="insert",outcome="ok",account="google.ana"\} \d+/);
  expect(metrics).toMatch(/calbridge_google_writes_total\{kind="insert",outcome="ok",account="google.clinic"\} \d+/);
  expect(metrics).toMatch(/calbridge_caldav_writes_total\{kind="insert",outcome="ok",account="caldav.bruno"\} \d+/);
});

it('an account connected while serving is mirrored within one pass; removed, its jobs stop and its events stay', async () => {
  const carla = await startGoogleSimulator({ clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret });
  closers.push(() => carla.close());
  const env = await setUp(50, carla);
  const { t, sim } = env;
  await env.run('poll');
  expect(t.runtime.parts.some((p) => p.name === 'google.carla')).toBe(false);

  // A person confirms on the connect pages: the connect side stores the account and wakes `accounts`.
  let stored: string | undefined = carla.issueRefreshToken();
  const account: ConnectedAccount = {
    kind: 'google',
    name: 'carla',
    calendarKey: C2,
    calendar: 'primary',
    client: { client_id: CLIENT.client_id, client_secret: CLIENT.client_secret },
    tokens: { load: () => stored, save: (token) => void (stored = token) },
  };
  // Its settings are the config's google section's, whose endpoints here are Carla's simulator.
  env.connected.push(account);
  expect(await env.run('accounts')).toMatchObject({ status: 'success', summary: '1 accounts added, 0 removed' });
  expect(t.runtime.parts.some((p) => p.name === 'google.carla')).toBe(true);
  expect(t.woken).toContain('google.carla-writer');

  // Mirrored within one pass of its writer, which the scheduler now has.
  expect(await env.run('google.carla-writer')).toMatchObject({ status: 'success' });
  const held = env.googleKeys(carla, 'primary');
  expect(sorted(held)).toEqual(keysIn(sim, C2));
  expect(once(held)).toBe(true);
  expect(t.runtime.status().targets['google.carla']!.mirrored).toBe(10);
  const res = await t.runtime.app.request('/api/status', { headers: { Authorization: `Bearer ${ADMIN}` } });
  expect(Object.keys(((await res.json()) as { targets: object }).targets)).toContain('google.carla');

  // A push notification on one of its channels reaches its reverse sync through the one route.
  const channels = t.ctx.targetStores('google.carla').channels;
  channels.opening({
    id: 'ch-carla',
    calendarId: 'primary',
    token: 'carla-channel-token',
    address: 'x',
    expiration: Date.now() + 3_600_000,
  });
  channels.activate('ch-carla', 'res-1', Date.now() + 3_600_000);
  const push = (token: string) =>
    t.runtime.app.request('/google/notifications', {
      method: 'POST',
      headers: { 'x-goog-channel-id': 'ch-carla', 'x-goog-channel-token': token, 'x-goog-resource-state': 'exists' },
    });
  expect((await push('wrong')).status).toBe(404);
  expect((await push('carla-channel-token')).status).toBe(200);
  expect(t.woken).toContain('google.carla-reverse-sync');

  // The admin removes it: its part and jobs go, its events stay where they are.
  env.connected.splice(0);
  expect(await env.run('accounts')).toMatchObject({ status: 'success', summary: '0 accounts added, 1 removed' });
  expect(t.runtime.parts.some((p) => p.name === 'google.carla')).toBe(false);
  expect(t.runtime.status().targets['google.carla']).toBeUndefined();
  await expect(t.runtime.scheduler.runNow('google.carla-writer')).rejects.toThrow(/no job named google.carla-writer/);
  expect((await push('carla-channel-token')).status).toBe(404);
  sim.create({ appointment_key: 'apt-late', start: first(sim) + 2000 * 3_600_000, calendar: { calendar_key: C2, name: 'x' } });
  await env.run('poll');
  await env.run('google.clinic-writer');
  expect(sorted(env.googleKeys(carla, 'primary'))).toEqual(keysIn(sim, C2).filter((k) => k !== 'apt-late'));
  // The other accounts never noticed.
  expect(env.googleKeys(env.clinic, 'all@group.calendar.google.com').has('apt-late')).toBe(true);
});

it('two people move two appointments of one booking calendar onto one free slot at once, in two accounts: one is rescheduled, the other moved back', async () => {
  const env = await setUp(10);
  const { t, sim, clinic, ana } = env;
  await env.run('poll');
  await Promise.all((['google.clinic-writer', 'google.ana-writer'] as JobName[]).map((w) => env.run(w)));
  await t.runtime.scheduler.idle();
  // apt-2 and apt-7 are both in c3, which the clinic's shared calendar and Ana's own both hold; the
  // hour after apt-2 is free in c3 (apt-3 is another booking calendar's).
  const slot = first(sim) + 3 * 3_600_000;
  const at = (ms: number) => ({ dateTime: new Date(ms).toISOString() });
  const eventOf = (fake: GoogleSimulator, calendarId: string, key: string) =>
    fake.events(calendarId).find((e) => e.extendedProperties?.private?.appointment_key === key)!;
  clinic.state.userEdit('all@group.calendar.google.com', eventOf(clinic, 'all@group.calendar.google.com', 'apt-2').id, {
    start: at(slot),
    end: at(slot + 1_800_000),
  });
  ana.state.userEdit('primary', eventOf(ana, 'primary', 'apt-7').id, { start: at(slot), end: at(slot + 1_800_000) });
  // Both reverse syncs see their person's move, and both accounts' reschedules run side by side.
  await Promise.all((['google.clinic-reverse-sync', 'google.ana-reverse-sync'] as JobName[]).map((j) => env.run(j)));
  await Promise.all((['google.clinic-reschedules', 'google.ana-reschedules'] as JobName[]).map((j) => env.run(j)));
  await t.runtime.scheduler.idle();
  const onSlot = sim.all().filter((a) => a.calendar.calendar_key === C3 && a.start === slot);
  expect(onSlot.map((a) => a.appointment_key)).toHaveLength(1);
});

it("sync --dry-run plans each account's writes under its name and writes nothing", async () => {
  const env = await setUp(10);
  const run = await dryRunPass(env.t.runtime.config, { log: silentLogger(), booking: simulatorClient(env.sim) });
  const places = run.appointments.flatMap((p) => p.writes).flatMap((w) => (w.kind === 'target' ? [`${w.target} ${w.appointmentKey}`] : []));
  expect(places.filter((p) => p.startsWith('google.clinic ')).length).toBe(keysIn(env.sim, C1, C2, C3).length);
  expect(places.filter((p) => p.startsWith('google.ana ')).length).toBe(keysIn(env.sim, C3, C4).length);
  expect(places.filter((p) => p.startsWith('caldav.bruno ')).length).toBe(keysIn(env.sim, C4, C5).length);
  expect(dryRunText(run, env.t.runtime.config).at(-1)).toMatch(/google\.clinic: 6 create; google\.ana: 4 create; caldav\.bruno: 4 create/);
  expect(env.googleKeys(env.clinic, 'one@group.calendar.google.com').size).toBe(0);
  expect(env.caldavFiles()).toEqual([]);
});
