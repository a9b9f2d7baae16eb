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
    expect(config.google?.calendars).toEqual([{ calendar_key: '*', calendar_id: 'primary' }]);
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
    const config = parseConfig(`${minimal}\n  auth_token: \${HOOK_AUTH:-}\ndatabase:\n  path: \${DB_DIR:-/var/lib/cb}/x.db\n`, '/c.yaml', env);
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
