import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { ConfigError, parseConfig } from '../../src/config/load.ts';
import { maskedConfig } from '../../src/config/mask.ts';

const env = {
  BOOKING_TOKEN: 'booking-token-0123456789abcdef',
  WEBHOOK_SECRET: 'webhook-secret-0123456789',
  FEED_TOKEN: 'feed-token-0123456789abcdef',
};

const minimal = `
server:
  public_url: https://cal.example.com
booking:
  base_url: https://booking.example.com
  token: \${BOOKING_TOKEN}
webhook:
  secret: \${WEBHOOK_SECRET}
`;

function problems(text: string, e: Record<string, string> = env) {
  try {
    parseConfig(text, '/etc/calbridge/config.yaml', e);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error('expected the config to be rejected');
}

describe('config', () => {
  it('accepts the example config with its environment variables set', () => {
    const config = parseConfig(readFileSync('config.example.yaml', 'utf8'), '/srv/cb/config.yaml', env);
    expect(config.feeds[0]?.token).toBe(env.FEED_TOKEN);
    expect(config.google?.calendars).toEqual([
      { calendar_key: '*', calendar_id: expect.stringMatching(/^c_[0-9a-f]{64}@group\.calendar\.google\.com$/) },
    ]);
    expect(config.database.path).toBe('/srv/cb/data/calbridge.db');
  });

  it('fills every default from a minimal config of a few lines', () => {
    const config = parseConfig(minimal, '/etc/calbridge/config.yaml', env);
    expect(config.server.port).toBe(8080);
    expect(config.poll.schedule).toBe('*/5 * * * *');
    expect(config.poll.past_days).toBe(7);
    expect(config.booking.timezone).toBe('America/Sao_Paulo');
    expect(config.webhook.events).toEqual(['appointment.created', 'appointment.updated', 'appointment.canceled']);
    expect(config.google).toBeUndefined();
    expect(config.feeds).toEqual([]);
    expect(config.database.path).toBe('/etc/calbridge/data/calbridge.db');
  });

  it('interpolates ${NAME} and ${NAME:-fallback}', () => {
    const config = parseConfig(
      `${minimal}\n  auth_token: \${HOOK_AUTH:-}\ndatabase:\n  path: \${DB_DIR:-/var/lib/cb}/x.db\n`,
      '/c.yaml',
      env,
    );
    expect(config.webhook.auth_token).toBeUndefined();
    expect(config.database.path).toBe('/var/lib/cb/x.db');
    const withDir = parseConfig(`${minimal}\ndatabase:\n  path: \${DB_DIR:-/var/lib/cb}/x.db\n`, '/c.yaml', { ...env, DB_DIR: '/data' });
    expect(withDir.database.path).toBe('/data/x.db');
  });

  it('names a missing variable, its path and line, once', () => {
    const found = problems(minimal, { WEBHOOK_SECRET: env.WEBHOOK_SECRET });
    expect(found).toEqual([{ path: 'booking.token', line: 6, message: 'environment variable BOOKING_TOKEN is not set' }]);
  });

  it('rejects a misspelt key with its path and line', () => {
    const found = problems(minimal.replace('server:\n', 'server:\n  prot: 80\n'));
    expect(found).toEqual([{ path: 'server.prot', line: 3, message: 'unknown key (a typo?)' }]);
  });

  it('reports every problem at once', () => {
    const text = `
server:
  public_url: ftp://nope
booking:
  base_url: https://booking.example.com
  token: t
  timezone: Mars/Olympus
webhook:
  secret: short
poll:
  schedule: every minute
google:
  credentials: {}
  title: "{person.nmae}"
feeds:
  - name: A
    token: same-token-0123456789
    privacy: secret
  - name: B
    token: same-token-0123456789
`;
    const paths = problems(text).map((p) => p.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'server.public_url',
        'booking.timezone',
        'webhook.secret',
        'poll.schedule',
        'google.credentials',
        'google.title',
        'feeds[0].privacy',
      ]),
    );
  });

  it('refuses two feeds with one token', () => {
    const text = `${minimal}feeds:\n  - name: A\n    token: same-token-0123456789\n  - name: B\n    token: same-token-0123456789\n`;
    expect(problems(text)).toEqual([
      { path: 'feeds[1].token', line: 13, message: 'is the same as feeds[0].token; every feed needs its own' },
    ]);
  });

  it('reports a YAML syntax error with its line', () => {
    expect(problems('server:\n  public_url: [\n')[0]).toMatchObject({ path: '', line: expect.any(Number) });
  });

  it('says what a value of the wrong kind is, and reads numbers and booleans that came from variables', () => {
    const text = `${minimal.replace('server:\n', 'server:\n  port: ${PORT:-8081}\n')}  register: \${REGISTER:-false}\npoll:\n  past_days: 7.5\n  filters:\n    tag_keys: one\n`;
    expect(problems(text)).toEqual([
      { path: 'poll.past_days', line: 12, message: 'must be a whole number, not 7.5' },
      { path: 'poll.filters.tag_keys', line: 14, message: 'must be a list, not the text "one"' },
    ]);
    const config = parseConfig(text.replace(/poll:[\s\S]*$/, ''), '/c.yaml', { ...env, PORT: '9000' });
    expect(config.server.port).toBe(9000);
    expect(config.webhook.register).toBe(false);
  });

  it('a secret written as an unquoted number is not echoed in the config error', () => {
    const text = minimal
      .replace('  secret: ${WEBHOOK_SECRET}', '  secret: 1234567890123456789')
      .replace('  token: ${BOOKING_TOKEN}', '  token: 12345678901234567');
    let error: unknown;
    try {
      parseConfig(text, '/c.yaml', env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const { message, problems: found } = error as ConfigError;
    expect(found).toEqual([
      {
        path: 'booking.token',
        line: 6,
        message: 'must be text, not a number (put it in quotes); the value is a secret, so it is not shown',
      },
      {
        path: 'webhook.secret',
        line: 8,
        message: 'must be text, not a number (put it in quotes); the value is a secret, so it is not shown',
      },
    ]);
    for (const digits of ['1234567890123456', '12345678901234567', '1234567890123456800', '12345678901234568'])
      expect(message).not.toContain(digits);
    expect(problems(minimal.replace('  token: ${BOOKING_TOKEN}', '  token: ${BOOKING_TOKEN}\n  timezone: 12345678'))[0]?.message).toBe(
      'must be text, not 12345678 (put it in quotes)', // values that are not secrets are still shown
    );
  });

  it('catches every misspelt placeholder, whatever its case or characters', () => {
    const found = problems(
      `${minimal}feeds:\n  - name: A\n    token: feed-token-0123456789\n    title: "{Person.Full_Name} {constructor} { status }"\n`,
    );
    expect(found.map((p) => p.message)).toEqual([
      'unknown placeholder {Person.Full_Name}',
      'unknown placeholder {constructor}',
      'unknown placeholder { status }',
    ]);
  });

  it('checks the statuses of feed filters, in any case', () => {
    const feeds = (status: string) => `${minimal}feeds:\n  - name: A\n    token: feed-token-0123456789\n    filters: {status: ${status}}\n`;
    expect(problems(feeds('[CONFIRMD]'))[0]?.message).toMatch(/^unknown status "CONFIRMD"/);
    expect(parseConfig(feeds('[confirmed, PENDING]'), '/c.yaml', env).feeds[0]?.filters.status).toEqual(['confirmed', 'PENDING']);
  });

  it('needs Google credentials only while Google is enabled', () => {
    expect(parseConfig(`${minimal}google:\n  enabled: false\n`, '/c.yaml', env).google?.enabled).toBe(false);
    expect(problems(`${minimal}google:\n  enabled: true\n`)).toEqual([
      { path: 'google.credentials', line: 10, message: 'is required (service_account_file, or client_id and client_secret)' },
    ]);
  });

  it('treats empty filter and credential values as unset', () => {
    const text = `${minimal}poll:\n  filters:\n    status: ""\ngoogle:\n  credentials:\n    service_account_file: /sa.json\n    client_id: \${GOOGLE_CLIENT_ID:-}\n`;
    const config = parseConfig(text, '/c.yaml', env);
    expect(config.poll.filters.status).toBeUndefined();
    expect(config.google?.credentials.client_id).toBeUndefined();
  });

  it('says a variable that is set but empty is empty', () => {
    expect(problems(minimal, { ...env, BOOKING_TOKEN: '' })[0]?.message).toBe('environment variable BOOKING_TOKEN is empty');
  });

  it('treats an empty optional secret as unset', () => {
    const config = parseConfig(`${minimal}  auth_token: ""\n`, '/c.yaml', env);
    expect(config.webhook.auth_token).toBeUndefined();
  });

  it('masks every secret when printed', () => {
    const config = parseConfig(readFileSync('config.example.yaml', 'utf8'), '/c.yaml', { ...env, ADMIN_TOKEN: 'admin-0123456789abcdef' });
    const printed = JSON.stringify(maskedConfig(config));
    for (const value of [...Object.values(env), 'admin-0123456789abcdef']) expect(printed).not.toContain(value);
    expect(printed).toContain('https://booking.example.com');
  });
});
