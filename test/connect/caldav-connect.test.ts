// A person connects their own CalDAV calendar through a link, against a real Radicale, with a browser
// that runs no JavaScript: the server form, a wrong app password said plainly, discovery's calendars
// to pick from, confirmation. The password is never in a page, the database file or the log.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startRadicale, type Radicale } from '../caldav/radicale.ts';
import { CalendarApp } from '../caldav/calendar-app.ts';
import { formOf, get, post, startConnectEnv, type ConnectEnv } from './connect-env.ts';

const USER = 'bruno';
const PASSWORD = 'bruno-app-password-7f3a9c';

let radicale: Radicale;
let env: ConnectEnv;
let office: string;

beforeAll(async () => {
  radicale = await startRadicale({ users: { [USER]: PASSWORD } });
  const app = new CalendarApp(radicale.url, USER, PASSWORD);
  office = await app.makeCalendar(`/${USER}/office/`, 'Consultório');
  await app.makeCalendar(`/${USER}/tasks/`, 'Tasks', ['VTODO']);
});
afterAll(() => radicale.stop());

beforeEach(async () => {
  // Radicale runs on 127.0.0.1: a private address, which a link may name only with the opt-in.
  env = await startConnectEnv(() => 'connect: { enabled: true, caldav_private_addresses: true }\n');
});
afterEach(() => env.stop());

describe('connecting a CalDAV calendar by a link', () => {
  it('checks the account by discovery, lists its event calendars and connects the one picked', async () => {
    const made = await env.run('connect', 'invite', '--target', 'caldav', '--calendar-key', 'cal-bruno', '--name', 'bruno');
    expect(made.code, made.err).toBe(0);
    const link = made.out.trim();

    const page = await get(link);
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const service of ['iCloud', 'Fastmail', 'Nextcloud']) expect(html).toContain(service);
    expect(html).toContain('appleid.apple.com');
    expect(html).not.toContain('<script');
    const form = formOf(html);

    // A wrong app password: the form again, saying so, without the password in it.
    const wrong = await post(new URL(form.action, env.base).href, {
      ...form.fields,
      service: 'other',
      address: radicale.url,
      username: USER,
      password: 'not-the-app-password',
    });
    expect(wrong.status).toBe(400);
    const wrongPage = await wrong.text();
    expect(wrongPage).toContain('The server refused this user name and password');
    expect(wrongPage).not.toContain('not-the-app-password');
    expect(wrongPage).toContain(`value="${USER}"`);

    const checked = await post(new URL(form.action, env.base).href, {
      ...form.fields,
      service: 'other',
      address: radicale.url,
      username: USER,
      password: PASSWORD,
    });
    expect(checked.status).toBe(200);
    const pickPage = await checked.text();
    expect(pickPage).not.toContain(PASSWORD);
    const pick = formOf(pickPage);
    expect(pick.calendars).toEqual([office]); // the to-do list holds no events: not offered
    expect(pickPage).toContain('Consultório');

    const done = await post(new URL(pick.action, env.base).href, { ...pick.fields, calendar: office });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('“Consultório”');

    const listed = await env.run('connections', 'list');
    expect(listed.out).toContain(`caldav.bruno  calendar_key cal-bruno  -> Consultório (${office})`);
    expect(env.daemon.runtime.services.connectedAccounts()).toEqual([
      { kind: 'caldav', name: 'bruno', calendarKey: 'cal-bruno', calendar: office, url: radicale.url, username: USER, password: PASSWORD },
    ]);
    expect((await get(link)).status).toBe(404);
    expect(env.databaseBytes().includes(Buffer.from(PASSWORD))).toBe(false);
    expect(env.logs()).not.toContain(PASSWORD);

    const removed = await env.run('connections', 'remove', 'bruno');
    expect(removed.code).toBe(0);
    expect(env.daemon.runtime.services.connectedAccounts()).toEqual([]);
  });

  it('takes no plain http address for a server off this machine, and no form without its token', async () => {
    const made = await env.run('connect', 'invite', '--target', 'caldav', '--calendar-key', 'cal-bruno');
    const link = made.out.trim();
    const form = formOf(await (await get(link)).text());
    const fields = { service: 'other', address: 'ftp://calendar.example', username: USER, password: PASSWORD };
    const bad = await post(new URL(form.action, env.base).href, { ...form.fields, ...fields });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('Give the server address');
    const forged = await post(new URL(form.action, env.base).href, { ...fields, token: 'forged', address: radicale.url });
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('This form is out of date');
  });
});
