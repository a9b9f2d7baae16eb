// Two accounts mapped to one real calendar would write the same events (one per appointment per
// calendar) and fight over them: check-config, and serve through the same validation, refuse it
// with both YAML paths and the fix; what names different calendars, or cannot be known before
// asking the server, passes.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli.ts';
import type { CommandIo } from '../../src/commands/command.ts';
import { ConfigError, parseConfig } from '../../src/config/load.ts';

const CLIENT = '6731de76-14a6-49ae-97bc-6eba6914391e';
const base = `server: {public_url: "https://c.example.com", admin_token: admin-token-0123456789abcdef}
booking: {base_url: "https://b.example.com", token: booking-token-0123456789}
webhook: {secret: cli-test-secret-0123456789}
`;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function checkConfig(yaml: string): Promise<{ code: number; stdout: string[]; stderr: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-shared-'));
  dirs.push(dir);
  const file = join(dir, 'config.yaml');
  writeFileSync(file, base + yaml);
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io: CommandIo = { out: (l) => stdout.push(l), err: (l) => stderr.push(l), isTty: false };
  return { code: await runCli(['check-config', '--config', file], io), stdout, stderr };
}

function problems(yaml: string): string[] {
  try {
    parseConfig(base + yaml, '/etc/calbridge/config.yaml', {});
  } catch (err) {
    if (err instanceof ConfigError) return err.problems.map((p) => `${p.path}: ${p.message}`);
    throw err;
  }
  return [];
}

const google = (a: string, b: string) => `
google:
  accounts:
    - name: clinic
      credentials: { client_id: c1, client_secret: clinic-client-secret }
      calendars: [{ calendar_key: "*", calendar_id: ${a} }]
    - name: ana
      credentials: { client_id: c2, client_secret: ana-client-secret-1 }
      calendars: [{ calendar_key: 5f1c, calendar_id: primary }, { calendar_key: 9a0e, calendar_id: ${b} }]
`;

const caldav = (a: { url: string; user: string; calendar: string }, b: { url: string; user: string; calendar: string }) => `
caldav:
  accounts:
${[a, b]
  .map(
    (x, i) => `    - name: p${i}
      url: ${x.url}
      username: ${x.user}
      password: app-password-${i}
      calendars: [{ calendar_key: k${i}, calendar: "${x.calendar}" }]`,
  )
  .join('\n')}
`;

const microsoft = (a: string, b: string) => `
microsoft:
  tenant: clinic.example.com
  accounts:
    - name: front
      credentials: { client_id: ${CLIENT}, client_secret: front-desk-secret-value }
      calendars: [{ calendar_key: "*", user: ${a}, calendar: Agenda }]
    - name: back
      credentials: { client_id: ${CLIENT}, client_secret: back-office-secret-value }
      calendars: [{ calendar_key: 9a0e, user: ${b}, calendar: agenda }]
`;

describe('two accounts mapped to one calendar', () => {
  it('check-config refuses two Google accounts with one calendar_id: exit 2, both paths, the fix', async () => {
    const result = await checkConfig(google('clinic@group.calendar.google.com', 'Clinic@group.calendar.google.com'));
    expect(result.code).toBe(2);
    const said = result.stderr.join('\n');
    expect(said).toMatch(
      /google\.accounts\[1\]\.calendars\[1\]\.calendar_id, line \d+: is the same calendar as google\.accounts\[0\]\.calendars\[0\]\.calendar_id: two accounts writing one calendar would overwrite/,
    );
    expect(said).toContain('Map it in one account only');
    // Two different calendars, and "primary" (each user's own): valid.
    expect(await checkConfig(google('clinic@group.calendar.google.com', 'other@group.calendar.google.com'))).toMatchObject({ code: 0 });
    expect(problems(google('primary', 'ana@example.com'))).toEqual([]);
  });

  it('one account may map several booking calendars to one calendar', () => {
    expect(
      problems(`
google:
  accounts:
    - name: clinic
      credentials: { client_id: c1, client_secret: clinic-client-secret }
      calendars: [{ calendar_key: a, calendar_id: all@group.calendar.google.com }, { calendar_key: b, calendar_id: all@group.calendar.google.com }]
`),
    ).toEqual([]);
  });

  it('CalDAV: one collection URL however it is spelt, or one server, user and display name', () => {
    const shared = caldav(
      { url: 'https://dav.example.com/dav/', user: 'bruno', calendar: 'https://DAV.example.com:443/dav/calendars/bruno/work' },
      { url: 'https://dav.example.com/dav', user: 'clinic', calendar: '/dav/calendars/bruno/work/' },
    );
    expect(problems(shared)).toEqual([
      expect.stringMatching(
        /^caldav\.accounts\[1\]\.calendars\[0\]\.calendar: is the same calendar as caldav\.accounts\[0\]\.calendars\[0\]\.calendar: /,
      ),
    ]);
    const sameName = caldav(
      { url: 'https://dav.example.com/dav/', user: 'Bruno', calendar: 'Work' },
      { url: 'https://dav.example.com/dav', user: 'bruno', calendar: ' work' },
    );
    expect(problems(sameName)).toHaveLength(1);
    // The same name under two users, or on two servers, is two calendars.
    const twoUsers = caldav(
      { url: 'https://dav.example.com/dav/', user: 'bruno', calendar: 'Work' },
      { url: 'https://dav.example.com/dav/', user: 'carla', calendar: 'Work' },
    );
    expect(problems(twoUsers)).toEqual([]);
    const twoServers = caldav(
      { url: 'https://dav.example.com/dav/', user: 'bruno', calendar: 'Work' },
      { url: 'https://other.example.com/dav/', user: 'bruno', calendar: 'Work' },
    );
    expect(problems(twoServers)).toEqual([]);
  });

  it('Microsoft: one mailbox and calendar; "me" is each signed-in person', () => {
    expect(problems(microsoft('desk@clinic.example.com', 'Desk@Clinic.example.com'))).toEqual([
      expect.stringMatching(
        /^microsoft\.accounts\[1\]\.calendars\[0\]: is the same calendar as microsoft\.accounts\[0\]\.calendars\[0\]: /,
      ),
    ]);
    expect(problems(microsoft('desk@clinic.example.com', 'ana@clinic.example.com'))).toEqual([]);
  });
});
