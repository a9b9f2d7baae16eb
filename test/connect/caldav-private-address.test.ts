// A person holding a CalDAV invite types an address inside calbridge's network (this host, the cloud
// metadata address, a name that answers one of them): the form says so in the page's language, the
// invite stays usable, nothing is stored and no request reaches that address. With
// connect.caldav_private_addresses the same flow connects. A name that answers a public address when
// the form is checked and 127.0.0.1 when the connection is made is refused by the connection.
import { afterEach, describe, expect, it } from 'vitest';
import type { ResolveHost } from '../../src/net/address-guard.ts';
import { formOf, get, post, startConnectEnv, type ConnectEnv } from './connect-env.ts';
import { countedRadicale } from './counted-radicale.ts';

const USER = 'bruno';
const PASSWORD = 'bruno-app-password-51c0';
const REFUSED_EN = 'That address is inside the network calbridge runs in';
const REFUSED_PT = 'Esse endereço fica dentro da rede onde o calbridge roda';

const server = countedRadicale(USER, PASSWORD);
let env: ConnectEnv | undefined;

afterEach(async () => {
  await env?.stop();
  env = undefined;
});

/** Opens a fresh invite's form and posts `address` with the right credentials; returns the answer, the link and the action. */
async function tryAddress(e: ConnectEnv, address: string) {
  const made = await e.run('connect', 'invite', '--target', 'caldav', '--calendar-key', 'cal-bruno', '--name', 'bruno');
  expect(made.code, made.err).toBe(0);
  const link = made.out.trim();
  const form = formOf(await (await get(link)).text());
  const action = new URL(form.action, e.base).href;
  const res = await post(action, { ...form.fields, service: 'other', address, username: USER, password: PASSWORD });
  return { res, page: await res.text(), link };
}

describe('an address inside the network, typed on a CalDAV connect form', () => {
  it.each([
    ['a name that resolves to 127.0.0.1', () => `http://localhost:${server.port}/`],
    ['127.0.0.1 written as it is', () => `http://127.0.0.1:${server.port}/`],
    ['127.0.0.1 as an IPv4-mapped IPv6 address', () => `http://[::ffff:127.0.0.1]:${server.port}/`],
    ['the cloud metadata address', () => 'http://169.254.169.254/'],
  ])('is refused for %s, in words, with nothing sent and nothing stored', async (_what, address) => {
    env = await startConnectEnv(() => 'connect: { enabled: true }\n');
    const before = server.requests();
    const { res, page, link } = await tryAddress(env, address());
    expect(res.status).toBe(400);
    expect(page).toContain(REFUSED_EN);
    expect(page).toContain('Ask whoever runs calbridge');
    expect(page).not.toContain(PASSWORD);
    expect(server.requests()).toBe(before);
    expect(env.daemon.runtime.services.connectedAccounts()).toEqual([]);
    // The invite is still good: its form opens again.
    expect((await get(link)).status).toBe(200);
    expect(env.logs()).toContain('inside this network');
    expect(env.logs()).not.toContain(PASSWORD);
  });

  it('is said in Portuguese on a pt-BR server', async () => {
    env = await startConnectEnv(() => 'connect: { enabled: true }\n', { locale: 'pt-BR' });
    const { res, page } = await tryAddress(env, `http://localhost:${server.port}/`);
    expect(res.status).toBe(400);
    expect(page).toContain(REFUSED_PT);
  });

  it('connects with connect.caldav_private_addresses, the same address and flow', async () => {
    env = await startConnectEnv(() => 'connect: { enabled: true, caldav_private_addresses: true }\n');
    const before = server.requests();
    const { res, page } = await tryAddress(env, `http://localhost:${server.port}/`);
    expect(res.status, page).toBe(200);
    const pick = formOf(page);
    expect(pick.calendars).toEqual([server.office.replace(server.url, `http://localhost:${server.port}/`)]);
    expect(server.requests()).toBeGreaterThan(before);
    const done = await post(new URL(pick.action, env.base).href, { ...pick.fields, calendar: pick.calendars[0]! });
    expect(done.status).toBe(200);
    expect(env.daemon.runtime.services.connectedAccounts().map((a) => `${a.kind}.${a.name}`)).toEqual(['caldav.bruno']);
  });

  it('is refused when the connection is made, for a name that answered a public address when the form was checked', async () => {
    // The name's owner answers a public address first, then this host's: a check of the name alone
    // would pass, and the password and the requests would go to 127.0.0.1.
    const asked: string[] = [];
    const rebinding: ResolveHost = async (hostname) => {
      if (hostname !== 'calendar.clinic.test') throw Object.assign(new Error(`${hostname}: not found`), { code: 'ENOTFOUND' });
      asked.push(hostname);
      return asked.length === 1 ? [{ address: '93.184.216.34', family: 4 }] : [{ address: '127.0.0.1', family: 4 }];
    };
    env = await startConnectEnv(() => 'connect: { enabled: true }\n', { resolveHost: rebinding });
    const before = server.requests();
    const { res, page } = await tryAddress(env, `http://calendar.clinic.test:${server.port}/`);
    expect(res.status).toBe(400);
    expect(page).toContain(REFUSED_EN);
    // Asked at the form (public), then by the connection discovery opened (127.0.0.1): refused there.
    expect(asked.length).toBeGreaterThanOrEqual(2);
    expect(server.requests()).toBe(before);
    expect(env.logs()).toContain('calendar.clinic.test resolves to 127.0.0.1');
    expect(env.daemon.runtime.services.connectedAccounts()).toEqual([]);
  });
});
