// The three mistakes a person setting up CalDAV makes, as `sync` tells them (in process, through the
// real CLI and composition root, against Radicale): a wrong password, a calendar name the account
// does not have, and a URL that is a plain web server. Each is one sentence naming the fix, with no
// stack trace and no password, and `sync` exits 1.
import { afterEach, describe, expect, it } from 'vitest';
import { cliFolder } from '../helpers/cli-env.ts';
import { cli } from '../helpers/run-cli.ts';
import { CalendarApp } from './calendar-app.ts';
import { slot } from './mirror-env.ts';
import { startRadicale } from './radicale.ts';
import { PASSWORD, USER } from './setup.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const WRONG = 'not-the-app-password-42';

async function syncWith(caldav: (radicale: string, booking: string) => { url: string; password: string; calendar: string }) {
  const radicale = await startRadicale();
  cleanups.push(() => radicale.stop());
  const app = new CalendarApp(radicale.url, USER, PASSWORD);
  await app.makeCalendar(`/${USER}/clinic/`, 'Clinic');
  await app.makeCalendar(`/${USER}/home/`, 'Home');
  const { file, sim } = await cliFolder(cleanups, async (s) => {
    const c = caldav(radicale.url, s.url);
    return `caldav:
  url: "${c.url}"
  username: ${USER}
  password: ${c.password}
  calendars: [{ calendar_key: "*", calendar: ${c.calendar} }]
`;
  });
  sim.create({ start: slot(1) });
  const run = await cli('sync', '--config', file);
  return { ...run, line: run.lines.find((l) => l.startsWith('caldav-reverse-sync')) ?? '', radicale };
}

describe('sync tells a CalDAV setup mistake in one sentence', () => {
  it('a wrong password: the server refused it, and where app passwords are made', async () => {
    const r = await syncWith((url) => ({ url, password: WRONG, calendar: 'Clinic' }));
    expect(r.code).toBe(1);
    expect(r.line).toMatch(
      /^caldav-reverse-sync\s+failed .*the server refused the username and password \(401\); check caldav\.username and the password: iCloud and Fastmail need an app-specific password/,
    );
    expect(`${r.out}\n${r.err}`).not.toContain(WRONG);
    expect(`${r.out}\n${r.err}`).not.toMatch(/\n\s+at /);
  });

  it('a calendar the account does not have: the calendars it has, with their URLs', async () => {
    const r = await syncWith((url) => ({ url, password: PASSWORD, calendar: 'Clinc' }));
    expect(r.code).toBe(1);
    const home = new URL(`/${USER}/home/`, r.radicale.url).href;
    const clinic = new URL(`/${USER}/clinic/`, r.radicale.url).href;
    expect(r.line).toContain(`no calendar named "Clinc" on`);
    expect(r.line).toContain(`found: "Clinic" (${clinic}), "Home" (${home})`);
    expect(r.lines).toContainEqual(expect.stringMatching(/^caldav-writer\s+success\s+0 written, 1 failed/));
    expect(`${r.out}\n${r.err}`).not.toMatch(/\n\s+at /);
  });

  it('a URL that is a plain web server: not CalDAV, with the DAV roots of the common servers', async () => {
    const r = await syncWith((_, booking) => ({ url: booking, password: PASSWORD, calendar: 'Clinic' }));
    expect(r.code).toBe(1);
    expect(r.line).toMatch(
      /does not answer like a CalDAV server \(PROPFIND \/: the server answered \d{3}\); check caldav\.url, usually the server's DAV root \(Nextcloud: .*iCloud: .*Fastmail: /,
    );
    expect(`${r.out}\n${r.err}`).not.toMatch(/\n\s+at /);
  });
});
