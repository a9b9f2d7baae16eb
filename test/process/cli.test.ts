import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli.ts';
import { commands } from '../../src/commands/index.ts';
import type { CommandIo } from '../../src/commands/command.ts';
import { logLevel } from '../../src/log.ts';
import { wholeNumberOption } from '../../src/commands/args.ts';
import { calbridgeProcesses } from '../helpers/calbridge-process.ts';

const calbridge = calbridgeProcesses();
const env = {
  BOOKING_TOKEN: 'booking-token-0123456789abcdef',
  WEBHOOK_SECRET: 'webhook-secret-0123456789',
  FEED_TOKEN: 'feed-token-0123456789abcdef',
  ADMIN_TOKEN: 'admin-token-0123456789abcdef',
};

function captured(): CommandIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (l) => stdout.push(l), err: (l) => stderr.push(l), isTty: false };
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function run(args: string[], extraEnv: Record<string, string | undefined> = {}) {
  return calbridge.run(args, { env: { ...env, ...extraEnv } });
}

describe('CLI', () => {
  it('has every command of the contract', () => {
    const names = commands.map((c) => c.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'serve',
        'demo',
        'check-config',
        'sync',
        'status',
        'feeds',
        'webhooks list',
        'webhooks ensure',
        'webhooks remove',
        'google auth',
      ]),
    );
  });

  it.each(commands.map((c) => c.name))('%s --help prints its usage and exits 0', async (name) => {
    const io = captured();
    expect(await runCli([...name.split(' '), '--help'], io)).toBe(0);
    expect(io.stdout.join('\n')).toContain(`usage: calbridge ${name}`);
  });

  it("--version prints package.json's version and exits 0, with or without a command and a config", () => {
    const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };
    for (const args of [['--version'], ['status', '--version', '--config', '/nonexistent/config.yaml']]) {
      const result = run(args);
      expect(result.status).toBe(0);
      expect(result.stdout).toBe(`${version}\n`);
      expect(result.stderr).toBe('');
    }
  });

  it('lists the commands for --help and refuses an unknown one with exit 2', async () => {
    const help = captured();
    expect(await runCli(['--help'], help)).toBe(0);
    expect(help.stdout.join('\n')).toContain('check-config');
    const unknown = captured();
    expect(await runCli(['frobnicate'], unknown)).toBe(2);
    expect(unknown.stderr).toEqual(['calbridge: unknown command "frobnicate"; run `calbridge --help` for the list.']);
  });

  it('finds the command after options, and runs serve when options come without one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'calbridge-cli-'));
    dirs.push(dir);
    const file = join(dir, 'config.yaml');
    writeFileSync(
      file,
      'server: {public_url: "https://c.example.com", admin_token: admin-token-0123456789abcdef}\nbooking: {base_url: "https://b.example.com", token: t}\nwebhook: {secret: cli-test-secret-0123456789}\n',
    );
    const before = captured();
    expect(await runCli(['--config', file, 'check-config'], before)).toBe(0);
    expect(before.stdout).toEqual([`${file}: valid.`]);
    const serveByDefault = captured();
    expect(await runCli(['--config', '/nonexistent/calbridge.yaml'], serveByDefault)).toBe(2);
    expect(serveByDefault.stderr.join('\n')).toContain('/nonexistent/calbridge.yaml is not valid');
  });

  it('lists a command group for `webhooks --help` and `help webhooks`; refuses extra arguments', async () => {
    for (const args of [
      ['webhooks', '--help'],
      ['help', 'webhooks'],
    ]) {
      const io = captured();
      expect(await runCli(args, io)).toBe(0);
      expect(io.stdout.join('\n')).toMatch(/webhooks list[\s\S]*webhooks ensure[\s\S]*webhooks remove/);
    }
    const extra = captured();
    expect(await runCli(['check-config', 'other.yaml'], extra)).toBe(2);
    expect(extra.stderr).toEqual(['calbridge check-config: unexpected argument "other.yaml"; see --help.']);
  });

  it('check-config warns when the Google service account key is missing or is not one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'calbridge-cli-'));
    dirs.push(dir);
    const file = join(dir, 'config.yaml');
    const base =
      'server: {public_url: "https://c.example.com", admin_token: admin-token-0123456789abcdef}\nbooking: {base_url: "https://b.example.com", token: t}\nwebhook: {secret: cli-test-secret-0123456789}\n';
    writeFileSync(
      file,
      `${base}google: {credentials: {service_account_file: sa.json}, calendars: [{calendar_key: "*", calendar_id: c_1@group.calendar.google.com}]}\n`,
    );
    const missing = captured();
    expect(await runCli(['check-config', '--config', file], missing)).toBe(0);
    expect(missing.stderr).toEqual([
      `warning: google.credentials.service_account_file: ${join(dir, 'sa.json')} does not exist; it must exist where calbridge runs`,
    ]);
    writeFileSync(join(dir, 'sa.json'), '{"type": "authorized_user"}');
    const wrong = captured();
    expect(await runCli(['check-config', '--config', file], wrong)).toBe(0);
    expect(wrong.stderr[0]).toMatch(/is not a service account key/);
    writeFileSync(join(dir, 'sa.json'), '{"client_email": "cb@p.iam.gserviceaccount.com", "private_key": "-----BEGIN PRIVATE KEY-----"}');
    const good = captured();
    expect(await runCli(['check-config', '--config', file], good)).toBe(0);
    expect(good.stderr).toEqual([]);
  });

  it('check-config warns about a webhook event the booking service is not known to send', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'calbridge-cli-'));
    dirs.push(dir);
    const file = join(dir, 'config.yaml');
    writeFileSync(
      file,
      'server: {public_url: "https://c.example.com", admin_token: admin-token-0123456789abcdef}\nbooking: {base_url: "https://b.example.com", token: t}\nwebhook: {secret: cli-test-secret-0123456789, events: [appointment.created, appointment.cancelled]}\n',
    );
    const io = captured();
    expect(await runCli(['check-config', '--config', file], io)).toBe(0);
    expect(io.stderr).toEqual([
      expect.stringMatching(
        /^warning: webhook\.events\[1\]: "appointment\.cancelled" is not an event the booking service is known to send/,
      ),
    ]);
  });

  it('status says so when there is no database yet, instead of an empty status', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'calbridge-cli-'));
    dirs.push(dir);
    const file = join(dir, 'config.yaml');
    writeFileSync(
      file,
      'server: {public_url: "https://c.example.com", admin_token: admin-token-0123456789abcdef}\ndatabase: {path: typo/cb.db}\nbooking: {base_url: "https://b.example.com", token: t}\nwebhook: {secret: cli-test-secret-0123456789}\n',
    );
    const io = captured();
    expect(await runCli(['status', '--config', file], io)).toBe(1);
    expect(io.stderr).toEqual([
      `calbridge status: there is no database at ${join(dir, 'typo', 'cb.db')} yet; run serve or sync first, or check database.path.`,
    ]);
  });

  it('refuses a misspelt CALBRIDGE_LOG_LEVEL and a port that is not a number, in one sentence', () => {
    expect(() => logLevel('info', { CALBRIDGE_LOG_LEVEL: 'verbose' })).toThrow(
      /CALBRIDGE_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, not "verbose"/,
    );
    expect(logLevel('info', { CALBRIDGE_LOG_LEVEL: 'DEBUG' })).toBe('debug');
    expect(() => wholeNumberOption('abc', 'port', 0, 0, 65535)).toThrow('--port must be a whole number from 0 to 65535, not "abc"');
  });

  it('refuses an unknown option in one sentence, exit 2', async () => {
    const io = captured();
    expect(await runCli(['status', '--frob'], io)).toBe(2);
    expect(io.stderr[0]).toMatch(/^calbridge status: Unknown option '--frob'; see --help\.$/);
  });

  it('check-config: the example config is valid with its variables set (exit 0)', () => {
    const result = run(['check-config', '--config', 'config.example.yaml']);
    expect(result.stderr).toMatch(
      /^warning: google\.credentials\.service_account_file: \/run\/secrets\/google_service_account does not exist; it must exist where calbridge runs\n$/,
    );
    expect(result.status).toBe(0);
  });

  it('check-config: a misspelt key exits 2 naming its path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'calbridge-cli-'));
    dirs.push(dir);
    const file = join(dir, 'config.yaml');
    writeFileSync(file, readFileSync('config.example.yaml', 'utf8').replace('  past_days: 7', '  past_dayz: 7'));
    const result = run(['check-config', '--config', file]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/poll\.past_dayz, line \d+: unknown key/);
  });

  it('check-config: a missing ${VAR} exits 2 naming the variable, via $CALBRIDGE_CONFIG too', () => {
    const result = run(['check-config'], { CALBRIDGE_CONFIG: 'config.example.yaml', WEBHOOK_SECRET: undefined });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/webhook\.secret, line \d+: environment variable WEBHOOK_SECRET is not set/);
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace without --verbose
  });
});
