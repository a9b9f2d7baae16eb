// The connect pages speak server.locale, and the config refuses connect without what it needs.
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config/load.ts';
import { ENGLISH, KEYS } from '../helpers/locale-scan.ts';
import { formOf, get, startConnectEnv, type ConnectEnv } from './connect-env.ts';

let env: ConnectEnv | undefined;
afterEach(() => env?.stop());

const text = (page: string) =>
  page
    .replace(/<style>[\s\S]*?<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(KEYS, ' ');

describe('connect in pt-BR', () => {
  it('answers an unknown link and shows the CalDAV form in Portuguese', async () => {
    env = await startConnectEnv(() => 'connect: { enabled: true }\n', { locale: 'pt-BR' });
    const gone = await get(`${env.base}/connect/unknown-link`);
    expect(gone.status).toBe(404);
    const goneText = await gone.text();
    expect(goneText).toContain('<html lang="pt-BR">');
    expect(goneText).toContain('Este link não funciona');
    expect(text(goneText)).not.toMatch(ENGLISH);

    const made = await env.run('connect', 'invite', '--target', 'caldav', '--calendar-key', 'k', '--name', 'bruno');
    const page = await (await get(made.out.trim())).text();
    expect(page).toContain('Senha de app');
    expect(formOf(page).fields.token).toBeTruthy();
    expect(text(page).replace(/Settings, Privacy & Security, App passwords|Fastmail|iCloud|Nextcloud|CalDAV/g, '')).not.toMatch(ENGLISH);
  });
});

describe('the connect section of the config', () => {
  const yaml = (server: string, connect = 'connect: { enabled: true }') => `server: { public_url: "${server}" }
booking: { base_url: "https://booking.example.com", token: t }
webhook: { secret: webhook-secret-0123456789 }
${connect}`;
  const problems = (text: string) => {
    try {
      parseConfig(text, 'config.yaml');
      return [];
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      return e.problems.map((p) => `${p.path}: ${p.message}`);
    }
  };

  it('needs server.secret_key, and an https public_url off this machine, while connect is enabled', () => {
    const found = problems(yaml('http://calendar.example.com'));
    expect(found).toEqual([
      expect.stringMatching(/^server\.secret_key: is required while connect is enabled.*32 characters/),
      expect.stringMatching(/^server\.public_url: must be an https:\/\/ URL while connect is enabled/),
    ]);
    expect(problems(yaml('http://127.0.0.1:8080').replace('{ public_url', `{ secret_key: ${'k'.repeat(32)}, public_url`))).toEqual([]);
    expect(problems(yaml('http://calendar.example.com', 'connect: { enabled: false }'))).toEqual([]);
  });

  it('refuses a short secret_key without showing it', () => {
    const found = problems(yaml('https://calendar.example.com').replace('{ public_url', '{ secret_key: short-key-value, public_url'));
    expect(found).toEqual([expect.stringMatching(/^server\.secret_key: must be at least 32 characters/)]);
    expect(found.join()).not.toContain('short-key-value');
  });
});
