// `accounts:` in google, caldav and microsoft: the list form beside the single form (the account
// `default`), the mistakes caught at their YAML path with the fix in one sentence, the settings an
// account takes from its section, and check-config's warnings per account path.
import { describe, expect, it } from 'vitest';
import { accountsOf, pickAccount } from '../../src/config/accounts.ts';
import { caldavWarnings } from '../../src/config/caldav-checks.ts';
import { googleCalendarWarnings } from '../../src/config/files.ts';
import { ConfigError, parseConfig } from '../../src/config/load.ts';
import { maskedConfig } from '../../src/config/mask.ts';
import { configuredSecrets } from '../../src/http/status-page/redact.ts';

const env = { BOOKING_TOKEN: 'booking-token-0123456789abcdef', WEBHOOK_SECRET: 'webhook-secret-0123456789' };
const CLIENT = '6731de76-14a6-49ae-97bc-6eba6914391e';

const base = `
server:
  public_url: https://cal.example.com
booking:
  base_url: https://booking.example.com
  token: \${BOOKING_TOKEN}
webhook:
  secret: \${WEBHOOK_SECRET}
`;

const parse = (yaml: string) => parseConfig(base + yaml, '/etc/calbridge/config.yaml', env);

function problems(yaml: string): { path: string; message: string; line?: number }[] {
  try {
    parse(yaml);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems.map(({ path, message, line }) => ({ path, message, ...(line ? { line } : {}) }));
    throw err;
  }
  throw new Error('expected the config to be rejected');
}

const twoGoogle = `
google:
  title: "{search_code}"
  requests_per_minute: 400
  accounts:
    - name: clinic
      credentials: { client_id: c1, client_secret: clinic-client-secret }
      calendars: [{ calendar_key: "*", calendar_id: clinic@group.calendar.google.com }]
    - name: ana
      credentials: { client_id: c2, client_secret: ana-client-secret-1 }
      calendars: [{ calendar_key: 5f1c, calendar_id: primary }]
      requests_per_minute: 200
      title: "{person.full_name}"
`;

describe('accounts', () => {
  it('the list form: one account per entry, each with its own credentials, calendars and overrides, the rest from the section', () => {
    const { google } = accountsOf(parse(twoGoogle));
    expect(google.map((a) => a.name)).toEqual(['clinic', 'ana']);
    expect(google[0]!.config).toMatchObject({
      credentials: { client_id: 'c1', client_secret: 'clinic-client-secret' },
      calendars: [{ calendar_key: '*', calendar_id: 'clinic@group.calendar.google.com' }],
      title: '{search_code}',
      requests_per_minute: 400,
      token_url: 'https://oauth2.googleapis.com/token',
    });
    expect(google[1]!.config).toMatchObject({ requests_per_minute: 200, title: '{person.full_name}', reverse_sync: { enabled: true } });
    expect(google[1]!.config).not.toHaveProperty('accounts');
  });

  it('the single form is the account "default"; a disabled section has none', () => {
    const single = parse(`
google:
  credentials: { client_id: c1, client_secret: clinic-client-secret }
caldav:
  enabled: false
  url: https://dav.example.com/
`);
    const all = accountsOf(single);
    expect(all.google.map((a) => a.name)).toEqual(['default']);
    expect(all.google[0]!.config.calendars).toEqual([{ calendar_key: '*', calendar_id: 'primary' }]);
    expect(all.caldav).toEqual([]);
    expect(all.microsoft).toEqual([]);
  });

  it('giving both forms, a name twice or a name that cannot name an account: each at its YAML path', () => {
    expect(
      problems(`
google:
  credentials: { client_id: c1, client_secret: s1 }
  calendars: [{ calendar_key: "*", calendar_id: primary }]
  accounts:
    - name: ana
      credentials: { client_id: c2, client_secret: s2 }
    - name: ana
      credentials: { client_id: c3, client_secret: s3 }
    - name: Bruno Silva
      credentials: { client_id: c4 }
`).map(({ path, message }) => `${path}: ${message}`),
    ).toEqual([
      'google.accounts[2].name: must be lower-case letters, digits and "-" (it names the account: google.ana)',
      'google.credentials: give either google.credentials or google.accounts, not both (with accounts, each account has its own)',
      'google.calendars: give either google.calendars or google.accounts, not both (with accounts, each account has its own)',
      'google.accounts[1].name: is the same as google.accounts[0].name; every account needs its own name',
      'google.accounts[2].credentials: an OAuth client needs both client_id and client_secret',
    ]);
    expect(
      problems(`
caldav:
  url: https://dav.example.com/
  accounts:
    - name: bruno
      url: https://bruno:pw@dav.example.com/
      username: bruno
      password: bruno-app-password
      calendars: [{ calendar_key: "*", calendar: Bruno }]
`).map(({ path }) => path),
    ).toEqual(['caldav.accounts[0].url', 'caldav.url']);
  });

  it('Microsoft accounts are checked one by one, at their own paths', () => {
    const found = problems(`
microsoft:
  accounts:
    - name: carla
      credentials: { client_id: ${CLIENT} }
    - name: front-desk
      credentials: { client_id: ${CLIENT}, client_secret: 11111111-2222-3333-4444-555555555555 }
      calendars: [{ calendar_key: "*", user: me }]
`);
    expect(found.map((p) => p.path)).toEqual([
      'microsoft.accounts[1].credentials.client_secret',
      'microsoft.accounts[1].tenant',
      'microsoft.accounts[1].calendars[0].user',
    ]);
    const ok = parse(`
microsoft:
  tenant: organizations
  accounts:
    - name: carla
      credentials: { client_id: ${CLIENT} }
`);
    expect(accountsOf(ok).microsoft[0]).toMatchObject({
      name: 'carla',
      config: { tenant: 'organizations', calendars: [{ calendar_key: '*', user: 'me', calendar: 'Calendar' }] },
    });
  });

  it("check-config's warnings name the account's path", () => {
    const config = parse(`
google:
  accounts:
    - name: ana
      credentials: { client_id: c2, client_secret: ana-client-secret-1 }
      calendars: [{ calendar_key: "*", calendar_id: clinic-calendar }]
caldav:
  accounts:
    - name: bruno
      url: https://www.icloud.com/
      username: bruno
      password: bruno-app-password
      calendars: [{ calendar_key: "*", calendar: Bruno }, { calendar_key: 9a0e, calendar: Other }]
`);
    expect(googleCalendarWarnings(config).map((p) => p.path)).toEqual(['google.accounts[0].calendars[0].calendar_id']);
    expect(caldavWarnings(config).map((p) => `${p.path}: ${p.message}`)).toEqual([
      'caldav.accounts[0].url: is the web page, not the CalDAV server; use https://caldav.icloud.com/',
      'caldav.accounts[0].calendars[1]: is never used: calendars[0] ("*") matches every booking calendar first',
    ]);
  });

  it("an account's secrets are masked when printed and in status like the section's", () => {
    const config = parse(twoGoogle);
    expect(JSON.stringify(maskedConfig(config))).not.toContain('ana-client-secret-1');
    expect(configuredSecrets(config)).toEqual(expect.arrayContaining(['clinic-client-secret', 'ana-client-secret-1']));
  });

  it('a command names an account, or is told the names there are', () => {
    const { google } = accountsOf(parse(twoGoogle));
    expect(pickAccount('Google', google, 'ana')).toMatchObject({ ok: true, account: { name: 'ana' } });
    expect(pickAccount('Google', google, 'bruno')).toEqual({
      ok: false,
      reason: 'there is no Google account "bruno"; the accounts are: "clinic", "ana"',
    });
    expect(pickAccount('Google', google, undefined)).toEqual({
      ok: false,
      reason: 'Google has several accounts: name one with --account ("clinic", "ana")',
    });
  });
});
