// A person connects their own Outlook calendar through a link against the Graph simulator: the
// authorize page with PKCE, the code exchanged, the calendars that mailbox may change, confirmation.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startGraphSimulator, type GraphSimulator } from '../../src/microsoft/simulator/index.ts';
import { follow, formOf, get, post, startConnectEnv, type ConnectEnv } from './connect-env.ts';

const CLIENT_ID = '6731de76-14a6-49ae-97bc-6eba6914391e';
const CLIENT_SECRET = 'q8Q~connect-web-client-secret';

let sim: GraphSimulator;
let env: ConnectEnv;

beforeEach(async () => {
  sim = await startGraphSimulator({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, mailboxes: ['carla@clinic.example'] });
  sim.mailbox().addCalendar('Clínica');
  sim.mailbox().addCalendar('Shared by the boss', { canEdit: false });
  env = await startConnectEnv(
    () => `microsoft: { enabled: false, authority_url: "${sim.authorityUrl}", graph_root: "${sim.graphRoot}" }
connect:
  enabled: true
  microsoft_client: { client_id: ${CLIENT_ID}, client_secret: ${CLIENT_SECRET}, tenant: common }
`,
  );
});
afterEach(async () => {
  await env.stop();
  await sim.close();
});

it('connects an Outlook calendar the mailbox may change, and keeps its refresh token sealed', async () => {
  const made = await env.run('connect', 'invite', '--target', 'microsoft', '--calendar-key', 'cal-carla', '--name', 'carla');
  expect(made.code, made.err).toBe(0);
  const first = await get(made.out.trim());
  expect(first.status).toBe(302);
  const authorize = new URL(first.headers.get('location')!);
  expect(authorize.pathname).toBe('/common/oauth2/v2.0/authorize');
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');

  const { res } = await follow(authorize.href);
  expect(res.status).toBe(200);
  const page = await res.text();
  const form = formOf(page);
  const clinic = [...sim.mailbox().calendars.values()].find((c) => c.name === 'Clínica')!;
  expect(form.calendars).toHaveLength(2); // Calendar and Clínica; the read-only one is left out
  expect(form.calendars).toContain(clinic.id);
  expect(page).not.toContain('Shared by the boss');

  const done = await post(new URL(form.action, env.base).href, { ...form.fields, calendar: clinic.id });
  expect(done.status).toBe(200);
  const [account] = env.daemon.runtime.services.connectedAccounts();
  expect(account).toMatchObject({
    kind: 'microsoft',
    name: 'carla',
    calendarKey: 'cal-carla',
    calendar: clinic.id,
    client: { client_id: CLIENT_ID, client_secret: CLIENT_SECRET, tenant: 'common' },
  });
  const refreshToken = sim.tokens.counts.refreshTokens.at(-1)!;
  expect(account?.kind === 'microsoft' && account.tokens.load()).toBe(refreshToken);
  expect(env.databaseBytes().includes(Buffer.from(refreshToken))).toBe(false);
  expect(env.logs()).not.toContain(refreshToken);
  expect((await get(made.out.trim())).status).toBe(404);

  // The app is a confidential ("Web") client: its refresh tokens are refreshed with its secret only.
  await env.daemon.runtime.scheduler.idle(); // a runtime that mirrors the account may have rotated it already
  const latest = account?.kind === 'microsoft' ? account.tokens.load() : undefined;
  const refresh = (secret?: string) =>
    fetch(`${sim.authorityUrl}common/oauth2/v2.0/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: CLIENT_ID,
        refresh_token: latest ?? '',
        ...(secret ? { client_secret: secret } : {}),
      }),
    });
  expect((await refresh()).status).toBe(401);
  expect((await refresh(CLIENT_SECRET)).status).toBe(200);
});
