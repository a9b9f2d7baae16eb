// The `microsoft:` section: its defaults, and the mistakes people make registering an app in Entra ID
// caught by check-config with the fix in one sentence, at their YAML path.
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config/load.ts';
import { clearTextWarnings } from '../../src/config/clear-text.ts';
import { microsoftWarnings } from '../../src/config/microsoft-checks.ts';
import { maskedConfig } from '../../src/config/mask.ts';

const env = { BOOKING_TOKEN: 'booking-token-0123456789abcdef', WEBHOOK_SECRET: 'webhook-secret-0123456789' };
const CLIENT = '6731de76-14a6-49ae-97bc-6eba6914391e';
const TENANT = 'b2c1a5e4-0d1f-4c6a-9f1e-3c2d4b5a6e7f';

const withMicrosoft = (section: string) => `
server:
  public_url: https://cal.example.com
booking:
  base_url: https://booking.example.com
  token: \${BOOKING_TOKEN}
webhook:
  secret: \${WEBHOOK_SECRET}
microsoft:
${section}`;

function problems(section: string): { path: string; message: string }[] {
  try {
    parseConfig(withMicrosoft(section), '/etc/calbridge/config.yaml', env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems.map(({ path, message }) => ({ path, message }));
    throw err;
  }
  throw new Error('expected the config to be rejected');
}

describe('microsoft config', () => {
  it('a delegated account needs only a client id: the tenant is common, the calendar "me"/Calendar', () => {
    const config = parseConfig(withMicrosoft(`  credentials: { client_id: ${CLIENT} }\n`), '/c.yaml', env);
    expect(config.microsoft).toMatchObject({
      enabled: true,
      tenant: 'common',
      authority_url: 'https://login.microsoftonline.com/',
      graph_root: 'https://graph.microsoft.com/',
      calendars: [{ calendar_key: '*', user: 'me', calendar: 'Calendar' }],
      requests_per_minute: 600,
      reverse_sync: {
        enabled: true,
        schedule: '*/2 * * * *',
        push_notifications: true,
        on_conflict: 'revert',
        on_delete: 'recreate',
        send_email: false,
      },
    });
  });

  it('app-only: a real tenant and a named mailbox; the secret is masked when printed', () => {
    const config = parseConfig(
      withMicrosoft(
        `  tenant: ${TENANT}\n  credentials: { client_id: ${CLIENT}, client_secret: "q8Q~abcdefghijklmnopqrstuvwxyz0123456" }\n  calendars: [{ calendar_key: "*", user: reception@clinic.example, calendar: Clinic }]\n`,
      ),
      '/c.yaml',
      env,
    );
    expect(config.microsoft?.calendars).toEqual([{ calendar_key: '*', user: 'reception@clinic.example', calendar: 'Clinic' }]);
    expect(JSON.stringify(maskedConfig(config))).not.toContain('q8Q~abcdefghijklmnopqrstuvwxyz0123456');
  });

  it('each mistake is named at its path with the fix', () => {
    expect(problems('  enabled: true\n')).toEqual([
      { path: 'microsoft.credentials.client_id', message: expect.stringMatching(/is required .*Application \(client\) ID/) },
    ]);
    expect(problems('  credentials: { client_id: my-app }\n')).toEqual([
      { path: 'microsoft.credentials.client_id', message: expect.stringMatching(/not a GUID/) },
    ]);
    // Copying the secret's ID instead of its value (AADSTS7000215), on the shared tenant, with "me".
    const appOnly = problems(`  credentials: { client_id: ${CLIENT}, client_secret: 0b8e7c9a-1111-2222-3333-444455556666 }\n`);
    expect(appOnly).toEqual([
      { path: 'microsoft.credentials.client_secret', message: expect.stringMatching(/secret's ID; copy its Value/) },
      { path: 'microsoft.tenant', message: expect.stringMatching(/cannot be "common" for app-only.*Directory \(tenant\) ID/) },
      { path: 'microsoft.calendars[0].user', message: expect.stringMatching(/cannot be "me" for app-only/) },
    ]);
    expect(
      problems(
        `  credentials: { client_id: ${CLIENT}, client_secret: s3cr3t-value-abc, refresh_token: 0.AXrt }\n  tenant: ${TENANT}\n  calendars: [{ calendar_key: "*", user: a@b.example }]\n`,
      ),
    ).toEqual([{ path: 'microsoft.credentials', message: expect.stringMatching(/not both/) }]);
    expect(problems(`  tenant: "my tenant"\n  credentials: { client_id: ${CLIENT} }\n`)).toEqual([
      { path: 'microsoft.tenant', message: expect.stringMatching(/not a directory \(tenant\) ID/) },
    ]);
    expect(problems(`  credentials: { client_id: ${CLIENT} }\n  calendars: [{ calendar_key: "*", user: "Reception Desk" }]\n`)).toEqual([
      { path: 'microsoft.calendars[0].user', message: expect.stringMatching(/mailbox address/) },
    ]);
    expect(problems(`  credentials: { client_id: ${CLIENT} }\n  calender: x\n`)[0]?.path).toMatch(/^microsoft/);
  });

  it('a disabled section needs no credentials; an http:// authority on another machine is warned about', () => {
    expect(parseConfig(withMicrosoft('  enabled: false\n'), '/c.yaml', env).microsoft?.enabled).toBe(false);
    const config = parseConfig(
      withMicrosoft(`  credentials: { client_id: ${CLIENT} }\n  authority_url: http://login.example.net/\n`),
      '/c.yaml',
      env,
    );
    expect(clearTextWarnings(config)).toEqual([{ path: 'microsoft.authority_url', message: expect.stringMatching(/clear text/) }]);
  });

  it('warns about what parses but cannot work: another mailbox for a signed-in person, a hidden entry, notifications without https', () => {
    const warnings = (section: string, publicUrl = 'https://cal.example.com') =>
      microsoftWarnings(parseConfig(withMicrosoft(section).replace('https://cal.example.com', publicUrl), '/c.yaml', env));
    expect(
      warnings(
        `  credentials: { client_id: ${CLIENT} }\n  calendars:\n    - { calendar_key: "*", user: reception@clinic.example }\n    - { calendar_key: cal-b, user: me }\n`,
        'http://192.168.1.20:8080',
      ),
    ).toEqual([
      {
        path: 'microsoft.calendars[0].user',
        message:
          'is another mailbox, but a signed-in person (no client_secret) can write only their own calendars: use "me", or app-only sign-in (client_secret) to name reception@clinic.example',
      },
      { path: 'microsoft.calendars[1]', message: 'is never used: calendars[0] ("*") matches every booking calendar first' },
      {
        path: 'microsoft.reverse_sync.push_notifications',
        message: expect.stringMatching(/^Graph delivers change notifications only to https:\/\/, and server\.public_url is not; /),
      },
    ]);
    // App-only names mailboxes; https carries notifications; push off asks for nothing: no warning.
    expect(
      warnings(
        `  tenant: ${TENANT}\n  credentials: { client_id: ${CLIENT}, client_secret: "q8Q~x" }\n  calendars: [{ calendar_key: "*", user: reception@clinic.example }]\n`,
      ),
    ).toEqual([]);
    expect(
      warnings(`  credentials: { client_id: ${CLIENT} }\n  reverse_sync: { push_notifications: false }\n`, 'http://192.168.1.20:8080'),
    ).toEqual([]);
  });
});
