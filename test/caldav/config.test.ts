// The caldav: section (docs/reference/configuration.md, "caldav"): defaults, what is required while it is enabled, typos refused,
// templates checked like google's, and what check-config warns about.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli.ts';
import type { CommandIo } from '../../src/commands/command.ts';
import { caldavWarnings } from '../../src/config/caldav-checks.ts';
import { ConfigError, parseConfig } from '../../src/config/load.ts';
import type { ConfigProblem } from '../../src/config/problem.ts';

const env = {
  BOOKING_TOKEN: 'booking-token-0123456789abcdef',
  WEBHOOK_SECRET: 'webhook-secret-0123456789',
  FEED_TOKEN: 'feed-token-0123456789abcdef',
};
const base =
  'server: {public_url: "https://c.example.com", admin_token: admin-token-0123456789abcdef}\nbooking: {base_url: "https://b.example.com", token: t}\nwebhook: {secret: cli-test-secret-0123456789}\n';
const section = (lines: string) => `${base}caldav:\n${lines.replace(/^/gm, '  ')}\n`;
const complete =
  'url: https://cloud.example.com/remote.php/dav/\nusername: ana\npassword: app-password-1\ncalendars:\n  - {calendar_key: "*", calendar: Clinic}';

function problems(text: string): ConfigProblem[] {
  try {
    parseConfig(text, '/c.yaml', env);
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  throw new Error('expected the config to be rejected');
}

describe('caldav config', () => {
  it('fills the contract defaults around the four values a person must give', () => {
    const c = parseConfig(section(complete), '/c.yaml', env).caldav;
    expect(c).toMatchObject({
      enabled: true,
      url: 'https://cloud.example.com/remote.php/dav/',
      calendars: [{ calendar_key: '*', calendar: 'Clinic' }],
      statuses: ['CONFIRMED', 'PENDING', 'ATTENDED', 'IN_PROGRESS', 'NO_SHOW', 'PENDING_PAYMENT', 'PENDING_FORM', 'PENDING_COMPANIONS'],
      title: '{person.full_name} · {search_code}',
      description: '{calendar.name}\n{person.email}',
      requests_per_minute: 300,
      reverse_sync: { enabled: true, schedule: '*/1 * * * *', on_conflict: 'revert', on_delete: 'recreate' },
    });
  });

  it('requires url, username, password and calendars while enabled, naming each', () => {
    const found = problems(section('enabled: true'));
    expect(found.map((p) => p.path)).toEqual(['caldav.url', 'caldav.username', 'caldav.password', 'caldav.calendars']);
    expect(found[0]?.message).toMatch(/is required while caldav is enabled/);
  });

  it('accepts a disabled section without credentials, as the example ships it', () => {
    expect(parseConfig(section('enabled: false'), '/c.yaml', env).caldav?.enabled).toBe(false);
    expect(parseConfig(readFileSync('config.example.yaml', 'utf8'), '/srv/cb/config.yaml', env).caldav?.enabled).toBe(false);
  });

  it('refuses unknown keys, a bad template, a bad schedule and credentials inside the URL', () => {
    const found = problems(
      section(
        complete.replace('https://cloud.example.com', 'https://ana:secret@cloud.example.com') +
          '\ntitel: x\ntitle: "{person.name}"\nreverse_sync: {schedule: "every minute", push_notifications: true}',
      ),
    );
    expect(found.map((p) => `${p.path}: ${p.message}`)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^caldav\.titel: unknown key/),
        expect.stringMatching(/^caldav\.reverse_sync\.push_notifications: unknown key/),
        'caldav.title: unknown placeholder {person.name}',
        expect.stringMatching(/^caldav\.reverse_sync\.schedule: is not a valid cron schedule/),
        expect.stringMatching(/^caldav\.url: must not carry a username or password/),
      ]),
    );
  });
});

describe('check-config on caldav', () => {
  const warnings = (lines: string) => caldavWarnings(parseConfig(section(lines), '/c.yaml', env)).map((p) => `${p.path}: ${p.message}`);

  it('warns of a password sent over http:// to another host, but not to this machine', () => {
    expect(warnings(complete.replace('https://cloud.example.com', 'http://cloud.example.com'))).toEqual([
      expect.stringMatching(/^caldav\.url: is http:\/\/.*clear text/),
    ]);
    expect(warnings(complete.replace('https://cloud.example.com', 'http://127.0.0.1:5232'))).toEqual([]);
  });

  it('points a web page URL to the CalDAV server behind it', () => {
    expect(warnings(complete.replace('https://cloud.example.com/remote.php/dav/', 'https://www.icloud.com/calendar/'))).toEqual([
      'caldav.url: is the web page, not the CalDAV server; use https://caldav.icloud.com/',
    ]);
    expect(warnings(complete.replace('remote.php/dav/', 'index.php/apps/calendar/dayGridMonth/now'))).toEqual([
      "caldav.url: is Nextcloud's calendar page, not its CalDAV server; use https://cloud.example.com/remote.php/dav/",
    ]);
  });

  it('warns of a calendar entry after "*", which no appointment reaches', () => {
    expect(warnings(`${complete}\n  - {calendar_key: cal-b, calendar: Other}`)).toEqual([
      'caldav.calendars[1]: is never used: calendars[0] ("*") matches every booking calendar first',
    ]);
  });

  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('prints the warnings, and never the password, with --print', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'calbridge-caldav-config-'));
    dirs.push(dir);
    const file = join(dir, 'config.yaml');
    writeFileSync(file, section(complete.replace('https://cloud.example.com', 'http://cloud.example.com')));
    const stdout: string[] = [];
    const stderr: string[] = [];
    const io: CommandIo = { out: (l) => stdout.push(l), err: (l) => stderr.push(l), isTty: false };
    expect(await runCli(['check-config', '--config', file, '--print'], io)).toBe(0);
    expect(stderr).toEqual([expect.stringMatching(/^warning: caldav\.url: is http:\/\//)]);
    expect(stdout.join('\n')).toContain('"password": "********"');
    expect(stdout.join('\n')).not.toContain('app-password-1');
  });
});
