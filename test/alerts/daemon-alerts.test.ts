// Alerts end to end through the same runtime as serve (docs/reference/behaviour.md, "Alerts"): the
// Google simulator revokes the sign-in, the writer fails, and exactly one problem message reaches
// ntfy and the webhook (a local receiver on 127.0.0.1); after a new sign-in and a restart, no
// duplicate, and exactly one recovered message once Google answers again. No secret in any message.
import { afterEach, expect, it } from 'vitest';
import type { Config } from '../../src/config/schema.ts';
import { storeRefreshToken } from '../../src/google/auth.ts';
import { startGoogleSimulator, type GoogleSimulator } from '../../src/google/simulator/index.ts';
import { testAppointment } from '../helpers/appointment.ts';
import { testConfig } from '../helpers/context.ts';
import { CLIENT, googleSection } from '../google/google-env.ts';
import { startAlertingDaemon, type AlertingDaemon } from './alerting-daemon.ts';
import type { Receiver } from './receiver.ts';

const ADMIN = 'admin-token-for-alert-tests-0123';
const DAY = 86_400_000;

let fake: GoogleSimulator | undefined;
let daemon: AlertingDaemon | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await daemon?.close();
  await fake?.close();
  fake = daemon = receiver = undefined;
});

/** The Google simulator, and a daemon writing to it whose alerts go to ntfy and a webhook after `afterMinutes`. */
async function setUp(afterMinutes: number) {
  fake = await startGoogleSimulator({ clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret });
  const google = googleSection(fake);
  daemon = await startAlertingDaemon('google', (url) =>
    testConfig({
      server: { admin_token: ADMIN },
      google,
      alerts: { after_minutes: afterMinutes, ntfy: `${url}/clinic-topic`, webhook: `${url}/hook` },
    }),
  );
  receiver = daemon.receiver;
  return daemon;
}

const secretsOf = (config: Config, fake: GoogleSimulator) => [
  CLIENT.client_secret,
  CLIENT.refresh_token,
  config.booking.token,
  config.webhook.secret,
  ADMIN,
  ...fake.tokens.refreshTokens,
];

it('a revoked Google sign-in: one problem message, none again after a restart, one recovered once Google answers', async () => {
  const { config, clock, start } = await setUp(0);
  const one = start();
  one.r.services.appointments.upsert(testAppointment({ key: 'apt-1' }));
  expect((await one.writer()).status).toBe('success');
  await one.tick();
  expect(receiver!.received).toEqual([]);

  fake!.revoke();
  one.r.services.appointments.upsert(testAppointment({ key: 'apt-2' }));
  expect((await one.writer()).status).toBe('failed');
  await one.tick();
  clock.advance(5 * 60_000);
  await one.writer();
  await one.tick();

  const ntfy = receiver!.received.filter((r) => r.path === '/clinic-topic');
  const hook = receiver!.received.filter((r) => r.path === '/hook');
  expect(ntfy).toHaveLength(1);
  expect(hook).toHaveLength(1);
  expect(ntfy[0]!.headers.title).toBe('calbridge: problem (google.default.auth)');
  expect(ntfy[0]!.headers['content-type']).toMatch(/^text\/plain/);
  expect(ntfy[0]!.body).toContain('run `calbridge google auth` again');
  expect(ntfy[0]!.body).toContain('Status: http://127.0.0.1:8080/status');
  const problem = JSON.parse(hook[0]!.body) as Record<string, unknown>;
  expect(problem).toEqual({
    event: 'problem',
    key: 'google.default.auth',
    sentence: ntfy[0]!.body,
    since: expect.any(String),
    status_url: 'http://127.0.0.1:8080/status',
  });

  // A new sign-in, as `calbridge google auth` stores it; the daemon restarts.
  storeRefreshToken(one.r.services.kv, config.google!, fake!.issueRefreshToken(), clock.now());
  await one.r.close();
  const two = start();
  await two.tick(); // Google not asked yet: the problem stands, and was sent already
  expect(receiver!.received).toHaveLength(2);
  expect((await two.writer()).status).toBe('success');
  clock.advance(60_000);
  await two.tick();
  await two.tick();

  const after = receiver!.received
    .filter((r) => r.path === '/hook')
    .map((r) => JSON.parse(r.body) as { event: string; key: string; sentence: string });
  expect(after.map((m) => `${m.event} ${m.key}`)).toEqual(['problem google.default.auth', 'recovered google.default.auth']);
  expect(after[1]!.sentence).toMatch(/^Resolved: Google refused calbridge's sign-in/);
  expect(receiver!.received.filter((r) => r.path === '/clinic-topic')[1]!.headers.title).toBe('calbridge: recovered (google.default.auth)');

  // No secret in any message.
  const everything = receiver!.received.map((r) => JSON.stringify(r.headers) + r.body).join('\n');
  for (const s of secretsOf(config, fake!)) expect(everything).not.toContain(s);

  // The last messages sent are in /api/status.
  const res = await two.r.app.request('/api/status', { headers: { Authorization: `Bearer ${ADMIN}` } });
  expect(res.status).toBe(200);
  const status = (await res.json()) as {
    alerts: { channels: string[]; problems: unknown[]; last_sent: { event: string; key: string; channels: Record<string, string> }[] };
  };
  expect(status.alerts.channels).toEqual(['ntfy', 'webhook']);
  expect(status.alerts.problems).toEqual([]);
  expect(status.alerts.last_sent.map((m) => [m.event, m.key, m.channels])).toEqual([
    ['recovered', 'google.default.auth', { ntfy: 'sent', webhook: 'sent' }],
    ['problem', 'google.default.auth', { ntfy: 'sent', webhook: 'sent' }],
  ]);
  // And on the status page, among its sections.
  const page = await (await two.r.app.request('/status', { headers: { Authorization: `Bearer ${ADMIN}` } })).text();
  expect(page).toContain('id="section-alerts"');
  expect(page).toContain('Resolved: Google refused calbridge&#39;s sign-in');
});

it('waits after_minutes before the problem message', async () => {
  const { clock, start } = await setUp(15);
  const one = start();
  fake!.revoke();
  one.r.services.appointments.upsert(testAppointment({ key: 'apt-1' }));
  expect((await one.writer()).status).toBe('failed');
  for (let m = 0; m < 14; m++) {
    await one.tick();
    clock.advance(60_000);
  }
  expect(receiver!.received).toEqual([]);
  clock.advance(60_000);
  await one.tick();
  expect(receiver!.received.map((r) => r.path)).toEqual(['/clinic-topic', '/hook']);
});

it('names the Google "Testing" trap, with its fix, in status and in the message', async () => {
  const { config, clock, start } = await setUp(0);
  const one = start();
  // Signed in seven days ago, with an app left in "Testing".
  storeRefreshToken(one.r.services.kv, config.google!, fake!.issueRefreshToken(), clock.now() - 7 * DAY);
  one.r.services.appointments.upsert(testAppointment({ key: 'apt-1' }));
  expect((await one.writer()).status).toBe('success');
  fake!.revoke();
  one.r.services.appointments.upsert(testAppointment({ key: 'apt-2' }));
  expect((await one.writer()).status).toBe('failed');

  const section = one.r.status().alerts as { problems: { key: string; sentence: string }[] };
  expect(section.problems).toHaveLength(1);
  expect(section.problems[0]!.sentence).toContain('7 days after it was given: the OAuth app is in "Testing"');
  expect(section.problems[0]!.sentence).toContain('Publish the OAuth consent screen');

  await one.tick();
  const hook = JSON.parse(receiver!.received.find((r) => r.path === '/hook')!.body) as { sentence: string };
  expect(hook.sentence).toContain('Publish the OAuth consent screen');
});

it('a receiver that fails is not a storm: the message is tried again at the next tick, and sent once', async () => {
  const { start } = await setUp(0);
  const one = start();
  fake!.revoke();
  one.r.services.appointments.upsert(testAppointment({ key: 'apt-1' }));
  await one.writer();
  receiver!.answerNext({ status: 503 }, { status: 503 });
  await one.tick(); // both channels answer 503: nothing reached anyone
  expect(receiver!.received).toHaveLength(2);
  expect((one.r.status().alerts as { last_sent: unknown[] }).last_sent).toEqual([]);
  await one.tick();
  await one.tick();
  expect(receiver!.received.map((r) => r.path).sort()).toEqual(['/clinic-topic', '/clinic-topic', '/hook', '/hook']);
});
