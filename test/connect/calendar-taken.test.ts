// The end of a connect flow refuses a calendar another account already writes (the config's, or one
// connected before): the two would write the same events and fight over them. The person is told so
// in server.locale, on the same list of calendars, and may pick another; nothing is connected.
import { afterEach, describe, expect, it } from 'vitest';
import { startGoogleSimulator, type GoogleSimulator } from '../../src/google/simulator/index.ts';
import { calendarTaken } from '../../src/sync/connect/calendar-taken.ts';
import { createTestContext, testConfig } from '../helpers/context.ts';
import { follow, formOf, get, post, startConnectEnv, type ConnectEnv } from './connect-env.ts';

const CLIENT = { client_id: 'connect-web-client.apps.googleusercontent.com', client_secret: 'connect-web-client-secret-0123' };
const TEAM = 'team@group.calendar.google.com';

let fake: GoogleSimulator | undefined;
let env: ConnectEnv | undefined;

afterEach(async () => {
  await env?.stop();
  await fake?.close();
  env = undefined;
  fake = undefined;
});

async function start(google: (f: GoogleSimulator) => string, locale: 'en' | 'pt-BR' = 'en'): Promise<ConnectEnv> {
  const f = await startGoogleSimulator({
    clientId: CLIENT.client_id,
    clientSecret: CLIENT.client_secret,
    calendars: { primary: 'owner', [TEAM]: 'writer' },
    calendarNames: { primary: 'ana@clinic.example', [TEAM]: 'Consultório' },
  });
  fake = f;
  env = await startConnectEnv(
    () => `${google(f)}
connect:
  enabled: true
  google_client: { client_id: ${CLIENT.client_id}, client_secret: ${CLIENT.client_secret} }
  google_auth_url: "${f.authUrl}"
`,
    { locale },
  );
  return env;
}

/** Invite, consent, and the calendar list: the form a person picks from. */
async function signIn(e: ConnectEnv, name: string): Promise<ReturnType<typeof formOf>> {
  const made = await e.run('connect', 'invite', '--target', 'google', '--calendar-key', `cal-${name}`, '--name', name);
  expect(made.code, made.err).toBe(0);
  const { res } = await follow((await get(made.out.trim())).headers.get('location')!);
  expect(res.status).toBe(200);
  return formOf(await res.text());
}

describe('a connect flow picking a calendar another account writes', () => {
  it("is refused when the config's account maps it, and the person may pick another", async () => {
    const e = await start(
      (f) => `google:
  credentials: { client_id: configured-client, client_secret: configured-client-secret, refresh_token: configured-refresh-token }
  calendars: [{ calendar_key: "*", calendar_id: ${TEAM} }]
  token_url: "${f.tokenUrl}"
  api_root: "${f.rootUrl}"
  reverse_sync: { enabled: false }`,
    );
    const form = await signIn(e, 'ana');
    const refused = await post(new URL(form.action, e.base).href, { ...form.fields, calendar: TEAM });
    expect(refused.status).toBe(409);
    const page = await refused.text();
    expect(page).toContain('“Consultório” already gets appointments from calbridge through another account');
    expect(page).not.toContain('<script');
    expect(e.daemon.runtime.services.connectedAccounts()).toEqual([]);
    expect(e.logs()).toMatch(/"taken_by":"google\.calendars\[0\]\.calendar_id".*another account already writes; refused/);

    // The same list again, from the refusal: another calendar connects.
    const again = formOf(page);
    expect(again.calendars).toEqual(['primary', TEAM]);
    const done = await post(new URL(again.action, e.base).href, { ...again.fields, calendar: 'primary' });
    expect(done.status).toBe(200);
    expect(e.daemon.runtime.services.connectedAccounts()).toMatchObject([{ name: 'ana', calendar: 'primary' }]);
  });

  it('is refused when another connected account writes it, in the locale', async () => {
    const e = await start((f) => `google: { enabled: false, token_url: "${f.tokenUrl}", api_root: "${f.rootUrl}" }`, 'pt-BR');
    const first = await signIn(e, 'ana');
    expect((await post(new URL(first.action, e.base).href, { ...first.fields, calendar: TEAM })).status).toBe(200);

    const second = await signIn(e, 'bruno');
    const refused = await post(new URL(second.action, e.base).href, { ...second.fields, calendar: TEAM });
    expect(refused.status).toBe(409);
    const page = await refused.text();
    expect(page).toContain('<html lang="pt-BR">');
    expect(page).toContain('“Consultório” já recebe agendamentos do calbridge por outra conta');
    expect(e.daemon.runtime.services.connectedAccounts().map((a) => a.name)).toEqual(['ana']);
    expect(e.logs()).toContain('"taken_by":"google.ana"');
  });
});

describe('what a CalDAV or Microsoft pick is compared by', () => {
  it('a CalDAV collection URL however spelt, the server, user and name the person gave, and a Microsoft calendar id', async () => {
    const t = createTestContext({
      config: testConfig({
        server: { secret_key: 'calendar-taken-secret-key-0123456789' },
        caldav: {
          accounts: [
            {
              name: 'clinic',
              url: 'https://dav.example.com/dav/',
              username: 'clinic',
              password: 'clinic-app-password',
              calendars: [{ calendar_key: 'a', calendar: '/dav/calendars/clinic/shared/' }],
            },
            {
              name: 'bruno',
              url: 'https://dav.example.com/dav/',
              username: 'bruno',
              password: 'bruno-app-password',
              calendars: [{ calendar_key: 'b', calendar: 'Work' }],
            },
          ],
        },
        microsoft: {
          credentials: { client_id: '6731de76-14a6-49ae-97bc-6eba6914391e' },
          calendars: [{ calendar_key: '*', user: 'me', calendar: 'AAMkAGI2-calendar-id' }],
        },
      }),
    });
    try {
      const taken = (p: Parameters<typeof calendarTaken>[2]) => calendarTaken(t.ctx.config, t.ctx.connections, p);
      const login = { url: 'https://dav.example.com/dav/', username: 'Bruno' };
      expect(taken({ kind: 'caldav', id: 'https://DAV.example.com/dav/calendars/clinic/shared', name: 'Shared', login })).toBe(
        'caldav.accounts[0].calendars[0].calendar',
      );
      expect(taken({ kind: 'caldav', id: 'https://dav.example.com/dav/calendars/bruno/w1/', name: 'work', login })).toBe(
        'caldav.accounts[1].calendars[0].calendar',
      );
      // Another user's "Work" on the same server is another calendar.
      const carla = { url: 'https://dav.example.com/dav/', username: 'carla' };
      expect(taken({ kind: 'caldav', id: 'https://dav.example.com/dav/calendars/carla/w1/', name: 'Work', login: carla })).toBeUndefined();
      expect(taken({ kind: 'microsoft', id: 'AAMkAGI2-calendar-id', name: 'Calendar' })).toBe('microsoft.calendars[0]');
      expect(taken({ kind: 'microsoft', id: 'AAMkAGI2-other-id', name: 'Calendar' })).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});
