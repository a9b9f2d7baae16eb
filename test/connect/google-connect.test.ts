// A person connects their own Google calendar through a link, with a browser that runs no
// JavaScript, against the Google simulator: invite, consent, calendar choice, confirmation. The
// account is then listed, mirrored by the runtime as a connected account, the link is spent, and its
// refresh token is nowhere in clear: not in the database file (WAL included), not in the log.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { ManualClock } from '../../src/core/clock.ts';
import { startGoogleSimulator, type GoogleSimulator } from '../../src/google/simulator/index.ts';
import { ADMIN_TOKEN, follow, formOf, get, post, startConnectEnv, type ConnectEnv } from './connect-env.ts';

const CLIENT = { client_id: 'connect-web-client.apps.googleusercontent.com', client_secret: 'connect-web-client-secret-0123' };

let fake: GoogleSimulator;
let env: ConnectEnv;

beforeEach(async () => {
  fake = await startGoogleSimulator({
    clientId: CLIENT.client_id,
    clientSecret: CLIENT.client_secret,
    calendars: { primary: 'owner', 'team@group.calendar.google.com': 'writer', 'holidays@group.v.calendar.google.com': 'reader' },
    calendarNames: { primary: 'ana@clinic.example', 'team@group.calendar.google.com': 'Consultório' },
  });
  env = await startConnectEnv(
    () => `google: { enabled: false, token_url: "${fake.tokenUrl}", api_root: "${fake.rootUrl}" }
connect:
  enabled: true
  google_client: { client_id: ${CLIENT.client_id}, client_secret: ${CLIENT.client_secret} }
  google_auth_url: "${fake.authUrl}"
`,
  );
});

afterEach(async () => {
  await env.stop();
  await fake.close();
});

async function invite(...extra: string[]): Promise<string> {
  const made = await env.run('connect', 'invite', '--target', 'google', '--calendar-key', 'cal-ana', ...extra);
  expect(made.code, made.err).toBe(0);
  return made.out.trim();
}

describe('connecting a Google calendar by a link', () => {
  it('goes from the link through consent and a choice of calendar to a connected account, and spends the link', async () => {
    const link = await invite('--name', 'ana');
    expect(link).toMatch(new RegExp(`^${env.base}/connect/[A-Za-z0-9_-]{43}$`));

    // The link sends the browser to Google's consent page: PKCE S256, our callback, a state.
    const first = await get(link);
    expect(first.status).toBe(302);
    const consent = new URL(first.headers.get('location')!);
    expect(consent.origin + consent.pathname).toBe(fake.authUrl);
    expect(consent.searchParams.get('code_challenge_method')).toBe('S256');
    expect(consent.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(consent.searchParams.get('redirect_uri')).toBe(`${env.base}/connect/callback`);
    expect(consent.searchParams.get('access_type')).toBe('offline');

    // Google consents and sends the browser back; calbridge lists the calendars Ana may change.
    const { res, hops } = await follow(consent.href);
    expect(hops[0]).toMatch(new RegExp(`^${env.base}/connect/callback\\?`));
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('<html lang="en">');
    expect(page).not.toContain('<script');
    const form = formOf(page);
    expect(form.calendars).toEqual(['primary', 'team@group.calendar.google.com']); // the read-only one is not offered
    expect(page).toContain('Consultório');

    const done = await post(new URL(form.action, env.base).href, { ...form.fields, calendar: 'team@group.calendar.google.com' });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Your appointments will appear in “Consultório”');

    const listed = await env.run('connections', 'list');
    expect(listed.code, listed.err).toBe(0);
    expect(listed.out).toMatch(/^google\.ana {2}calendar_key cal-ana {2}-> Consultório \(team@group\.calendar\.google\.com\)/);

    // What the runtime mirrors: the account, its calendar and the refresh token Google gave.
    const [account, ...others] = env.daemon.runtime.services.connectedAccounts();
    expect(others).toEqual([]);
    expect(account).toMatchObject({ kind: 'google', name: 'ana', calendarKey: 'cal-ana', calendar: 'team@group.calendar.google.com' });
    const refreshToken = fake.tokens.refreshTokens[0]!;
    expect(account?.kind === 'google' && account.tokens.load()).toBe(refreshToken);
    expect(account?.kind === 'google' && account.client).toEqual(CLIENT);

    // The link is spent.
    expect((await get(link)).status).toBe(404);
    expect(await (await get(link)).text()).toContain('This link does not work');

    // The refresh token is nowhere in clear.
    expect(env.databaseBytes().includes(Buffer.from(refreshToken))).toBe(false);
    expect(env.databaseBytes().includes(Buffer.from(refreshToken.slice(3)))).toBe(false);
    expect(env.logs()).not.toContain(refreshToken.slice(3));
    expect(env.logs()).toContain('a calendar was connected through a link');
  });

  it('keeps a rotated refresh token sealed, and reads it back', async () => {
    const link = await invite('--name', 'ana');
    const { res } = await follow((await get(link)).headers.get('location')!);
    const form = formOf(await res.text());
    await post(new URL(form.action, env.base).href, { ...form.fields, calendar: 'primary' });
    const [account] = env.daemon.runtime.services.connectedAccounts();
    if (account?.kind !== 'google') throw new Error('no Google account');
    account.tokens.save('1//rotated-refresh-token-of-ana');
    expect(env.daemon.runtime.services.connectedAccounts()[0]).toMatchObject({ kind: 'google' });
    expect(account.tokens.load()).toBe('1//rotated-refresh-token-of-ana');
    expect(env.databaseBytes().includes(Buffer.from('rotated-refresh-token-of-ana'))).toBe(false);
  });

  it('refuses a callback whose state no invite waits for, and a state used once already', async () => {
    const bogus = await get(`${env.base}/connect/callback?code=4/whatever&state=not-a-state-we-gave`);
    expect(bogus.status).toBe(400);
    expect(await bogus.text()).toContain('This sign-in was refused');

    const link = await invite('--name', 'ana');
    const back = await fetch((await get(link)).headers.get('location')!, { redirect: 'manual' });
    const callback = back.headers.get('location')!;
    expect((await get(callback)).status).toBe(200);
    expect((await get(callback)).status).toBe(400); // the state is spent
    expect(env.daemon.runtime.services.connectedAccounts()).toEqual([]);
  });

  it('answers 404 to an unknown or expired link', async () => {
    const clock = new ManualClock(Date.now());
    const timed = await startConnectEnv(() => readFileSync(env.file, 'utf8').replace(/^[\s\S]*?(google: )/m, '$1'), { clock });
    try {
      expect((await get(`${timed.base}/connect/${'x'.repeat(43)}`)).status).toBe(404);
      const expiring = await timed.run('connect', 'invite', '--target', 'google', '--calendar-key', 'cal-ana', '--expires', '1m');
      expect(expiring.code).toBe(0);
      const consent = (await get(expiring.out.trim())).headers.get('location')!;
      // The daemon's clock passes the minute while the person is at Google: the invite's time is up.
      clock.advance(61_000);
      expect((await get(expiring.out.trim())).status).toBe(404);
      const { res } = await follow(consent);
      expect(res.status).toBe(404);
      expect(timed.daemon.runtime.services.connectedAccounts()).toEqual([]);
    } finally {
      await timed.stop();
    }
  });

  it('refuses a confirmation without the form token of its invite', async () => {
    const link = await invite('--name', 'ana');
    const { res } = await follow((await get(link)).headers.get('location')!);
    const form = formOf(await res.text());
    const forged = await post(new URL(form.action, env.base).href, { token: 'forged', calendar: 'primary' });
    expect(forged.status).toBe(400);
    expect(env.daemon.runtime.services.connectedAccounts()).toEqual([]);
  });

  it('refuses invites with bad arguments, exit 2 with the reason', async () => {
    await invite('--name', 'ana');
    const taken = await env.run('connect', 'invite', '--target', 'google', '--calendar-key', 'k', '--name', 'ana');
    expect(taken.code).toBe(2);
    expect(taken.err).toContain('the name "ana" is already used by a google account');
    const kind = await env.run('connect', 'invite', '--target', 'microsoft', '--calendar-key', 'k');
    expect(kind.code).toBe(2);
    expect(kind.err).toContain('needs connect.microsoft_client');
    const unknown = await env.run('connect', 'invite', '--target', 'yahoo', '--calendar-key', 'k');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('--target must be google, microsoft or caldav');
    const expires = await env.run('connect', 'invite', '--target', 'google', '--calendar-key', 'k', '--expires', 'soon');
    expect(expires.code).toBe(2);
    const name = await env.run('connect', 'invite', '--target', 'google', '--calendar-key', 'k', '--name', 'Ana Maria');
    expect(name.code).toBe(2);
  });

  it('says plainly when the stored connections were sealed with another secret_key', async () => {
    const link = await invite('--name', 'ana');
    const { res } = await follow((await get(link)).headers.get('location')!);
    const form = formOf(await res.text());
    await post(new URL(form.action, env.base).href, { ...form.fields, calendar: 'primary' });
    env.rewrite(readFileSync(env.file, 'utf8').replace(/secret_key: [^ ,}]+/, `secret_key: ${'another-key-'.repeat(4)}`));
    const listed = await env.run('connections', 'list');
    expect(listed.code).toBe(1);
    expect(listed.err).toContain('the stored connections were encrypted with another server.secret_key');
    expect(listed.err).not.toContain('    at ');
  });

  it('lists and removes connections on the status page, behind the admin token, with a form token', async () => {
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}`, accept: 'text/html' };
    expect((await fetch(`${env.base}/status/connections`, { headers: { accept: 'text/html' } })).status).toBe(401);
    const link = await invite('--name', 'ana');
    const { res } = await follow((await get(link)).headers.get('location')!);
    const pick = formOf(await res.text());
    await post(new URL(pick.action, env.base).href, { ...pick.fields, calendar: 'primary' });

    const status = await (await fetch(`${env.base}/status`, { headers: auth })).text();
    expect(status).toContain('href="/status/connections"');
    const page = await (await fetch(`${env.base}/status/connections`, { headers: auth })).text();
    expect(page).toContain('google.ana');
    const token = /name="token" value="([^"]+)"/.exec(page)![1]!;
    const send = (path: string, fields: Record<string, string>) =>
      fetch(`${env.base}${path}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });

    // A page elsewhere posting with the browser's remembered password has no form token.
    expect((await send('/status/connections/remove', { name: 'google.ana' })).status).toBe(400);
    expect(env.daemon.runtime.services.connectedAccounts()).toHaveLength(1);

    const made = await send('/status/connections/invite', { token, target: 'google', calendar_key: 'cal-bruno', name: 'bruno', days: '3' });
    expect(made.status).toBe(200);
    const madeLink = /<code class="link">([^<]+)<\/code>/.exec(await made.text())![1]!;
    expect((await get(madeLink)).status).toBe(302);

    const removed = await send('/status/connections/remove', { token, name: 'google.ana' });
    expect(removed.status).toBe(200);
    expect(await removed.text()).toContain('google.ana was removed');
    expect(env.daemon.runtime.services.connectedAccounts()).toEqual([]);
    expect((await env.run('connections', 'remove', 'ana')).code).toBe(1);
  });
});
