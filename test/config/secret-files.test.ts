// Secrets mounted as files (compose secrets): `${file:PATH}` wherever `${NAME}` works.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfigFile } from '../../src/config/load.ts';
import { runCli } from '../../src/cli.ts';
import type { CommandIo } from '../../src/commands/command.ts';

const BOOKING = 'booking-secret-from-a-file-0123456789';
const WEBHOOK = 'webhook-secret-from-a-file-0123456789';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'calbridge-secrets-'));
  mkdirSync(join(dir, 'secrets'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function configWith(lines: { booking?: string; webhook?: string; extra?: string }): string {
  const file = join(dir, 'config.yaml');
  writeFileSync(
    file,
    [
      'server:',
      '  public_url: https://cal.example.com',
      'booking:',
      '  base_url: https://booking.example.com',
      `  token: ${lines.booking ?? `\${file:${join(dir, 'secrets', 'booking_token')}}`}`,
      'webhook:',
      `  secret: ${lines.webhook ?? '${file:secrets/webhook_secret}'}`,
      lines.extra ?? '',
    ].join('\n'),
  );
  return file;
}

function problemsOf(file: string) {
  try {
    loadConfigFile(file, {});
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  throw new Error('expected the config to be rejected');
}

describe('secrets from files', () => {
  beforeEach(() => {
    writeFileSync(join(dir, 'secrets', 'booking_token'), `${BOOKING}\n`); // as `echo ... > file` leaves it
    writeFileSync(join(dir, 'secrets', 'webhook_secret'), `${WEBHOOK}\r\n`);
  });

  it('reads an absolute path and one relative to the config file, without the trailing newline', () => {
    const { config } = loadConfigFile(configWith({}), {});
    expect(config.booking.token).toBe(BOOKING);
    expect(config.webhook.secret).toBe(WEBHOOK);
  });

  it('takes a file inside a longer value, and keeps the newlines inside a file', () => {
    writeFileSync(join(dir, 'secrets', 'two_lines'), 'first\nsecond\n\n');
    const { config } = loadConfigFile(configWith({ extra: 'poll:\n  filters:\n    owner_user: "owner ${file:secrets/two_lines}!"' }), {});
    expect(config.poll.filters.owner_user).toBe('owner first\nsecond!');
  });

  it('names the YAML path, its line and the file when the file is missing, and never the contents of another', () => {
    const missing = join(dir, 'secrets', 'nope');
    const file = configWith({ booking: `\${file:${missing}}` });
    expect(problemsOf(file)).toEqual([{ path: 'booking.token', line: 5, message: `secret file ${missing} does not exist` }]);
  });

  it('says a path that names a folder cannot be read', () => {
    expect(problemsOf(configWith({ webhook: '${file:secrets}' }))).toEqual([
      { path: 'webhook.secret', line: 7, message: `secret file ${join(dir, 'secrets')} is a folder` },
    ]);
  });

  it('refuses ${file:/dev/zero} at once, naming the file and why, instead of reading without end', () => {
    const started = Date.now();
    const found = problemsOf(configWith({ webhook: '${file:/dev/zero}' }));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(found).toEqual([
      { path: 'webhook.secret', line: 7, message: expect.stringMatching(/^secret file \/dev\/zero is not a regular file/) as unknown },
    ]);
  });

  it('refuses a secret file larger than 1 MiB, naming it', () => {
    writeFileSync(join(dir, 'secrets', 'huge'), Buffer.alloc(1024 * 1024 + 1, 'a'));
    const found = problemsOf(configWith({ webhook: '${file:secrets/huge}' }));
    expect(found).toEqual([
      {
        path: 'webhook.secret',
        line: 7,
        message: `secret file ${join(dir, 'secrets', 'huge')} is larger than 1 MiB, which no secret is; give the file that holds the secret`,
      },
    ]);
  });

  it('uses the fallback only for a file that does not exist', () => {
    const { config } = loadConfigFile(configWith({ extra: '  auth_token: ${file:secrets/webhook_auth:-}' }), {});
    expect(config.webhook.auth_token).toBeUndefined();
    expect(problemsOf(configWith({ extra: '  auth_token: ${file:secrets:-}' }))[0]?.message).toMatch(/is a folder$/);
  });

  it('never shows text read from a file in an error about its value', () => {
    writeFileSync(join(dir, 'secrets', 'mode'), 'hunter2-not-a-mode\n');
    writeFileSync(join(dir, 'secrets', 'port'), 'hunter2-not-a-port\n');
    const file = configWith({ extra: 'database:\n  synchronous: ${file:secrets/mode}\npoll:\n  past_days: ${file:secrets/port}' });
    const found = problemsOf(file);
    expect(found.map((p) => p.path).sort()).toEqual(['database.synchronous', 'poll.past_days']);
    expect(JSON.stringify(found)).not.toContain('hunter2');
  });

  it('keeps secrets read from files masked in check-config --print', async () => {
    const out: string[] = [];
    const io: CommandIo = { out: (l) => out.push(l), err: (l) => out.push(l), isTty: false };
    expect(await runCli(['check-config', '--print', '--config', configWith({})], io)).toBe(0);
    const printed = out.join('\n');
    expect(printed).toContain('"token": "********"');
    expect(printed).not.toContain(BOOKING);
    expect(printed).not.toContain(WEBHOOK);
  });
});
