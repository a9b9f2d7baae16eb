import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureWebhook } from '../../src/booking/webhook-registration.ts';
import { UserError } from '../../src/core/errors.ts';
import { cli } from '../helpers/run-cli.ts';
import type { Simulator } from '../../src/booking/simulator/index.ts';
import { clientFor, onCleanup, simulator } from './helpers.ts';

const SECRET = 'wh-secret-0123456789abcdef';
const PUBLIC = 'https://calendar.example.com';
const OURS = `${PUBLIC}/webhooks/${SECRET}/`;
const EVENTS = ['appointment.created', 'appointment.updated', 'appointment.canceled'];
const target = { publicUrl: PUBLIC, secret: SECRET, events: EVENTS };

describe('ensureWebhook', () => {
  it('creates our webhook, and a second run leaves exactly one, unchanged', async () => {
    const sim = await simulator();
    const { client } = clientFor(sim);
    expect(await ensureWebhook(client, target)).toMatchObject({ action: 'created', removed: 0, callbackUrl: OURS });
    expect(await ensureWebhook(client, target)).toMatchObject({ action: 'unchanged', removed: 0 });
    expect(sim.webhooks()).toEqual([{ webhook_key: expect.any(String), url: OURS, events: EVENTS }]);
    expect(sim.requests.filter((r) => r.method !== 'GET')).toHaveLength(1);
  });

  it("during a secret rotation moves the webhook at the old secret's URL to the new one, in place", async () => {
    const sim = await simulator();
    const { client } = clientFor(sim);
    const oldSecret = 'old-secret-0123456789abcdef';
    const old = await client.createWebhook(`${PUBLIC}/webhooks/${oldSecret}/`, EVENTS);
    const r = await ensureWebhook(client, { ...target, previousSecret: oldSecret });
    expect(r).toMatchObject({ action: 'updated', removed: 0 });
    expect(sim.webhooks()).toEqual([{ webhook_key: old.webhook_key, url: OURS, events: EVENTS }]);
    expect(await ensureWebhook(client, { ...target, previousSecret: oldSecret })).toMatchObject({ action: 'unchanged' });
  });

  it('updates the first one in place when the events differ, removes duplicates, leaves other webhooks alone', async () => {
    const sim = await simulator();
    const { client } = clientFor(sim);
    const first = await client.createWebhook(OURS, ['appointment.created']);
    await client.createWebhook(OURS, EVENTS);
    const other = await client.createWebhook('https://someone-else.example.com/hook/', ['appointment.created']);
    const r = await ensureWebhook(client, { ...target, publicUrl: `${PUBLIC}/` });
    expect(r).toMatchObject({ action: 'updated', removed: 1 });
    expect(sim.webhooks()).toEqual([{ webhook_key: first.webhook_key, url: OURS, events: EVENTS }, other]);
  });

  it('refuses a non-https public URL, saying why, without touching the service', async () => {
    const sim = await simulator();
    const { client } = clientFor(sim);
    const e = await ensureWebhook(client, { ...target, publicUrl: 'http://calendar.example.com' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UserError);
    expect((e as Error).message).toMatch(/not https:\/\/.*only calls HTTPS callbacks/);
    expect(sim.requests).toEqual([]);
  });
});

function configFor(sim: Simulator, publicUrl = PUBLIC): string {
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-webhooks-'));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'config.yaml');
  writeFileSync(
    file,
    [
      'server:',
      `  public_url: ${publicUrl}`,
      'booking:',
      `  base_url: ${sim.url}`,
      `  token: ${sim.token}`,
      'webhook:',
      `  secret: ${SECRET}`,
    ].join('\n'),
  );
  return file;
}

describe('webhooks commands', () => {
  it('ensure twice leaves exactly one registration; list masks our secret; remove deletes it', async () => {
    const sim = await simulator();
    const config = configFor(sim);
    const first = await cli('webhooks', 'ensure', '--config', config);
    expect(first).toMatchObject({ code: 0 });
    expect(first.out).toMatch(/created: https:\/\/calendar\.example\.com\/webhooks\/\*\*\*\*\//);
    const second = await cli('webhooks', 'ensure', '--config', config);
    expect(second).toMatchObject({ code: 0 });
    expect(second.out).toMatch(/already in place/);
    expect(sim.webhooks()).toHaveLength(1);

    const list = await cli('webhooks', 'list', '--config', config);
    expect(list.code).toBe(0);
    expect(list.out).toContain('(ours)');
    expect(list.out + list.err).not.toContain(SECRET);
    expect(list.out + list.err).not.toContain(sim.token);

    const key = sim.webhooks()[0]?.webhook_key ?? '';
    expect(await cli('webhooks', 'remove', key, '--config', config)).toMatchObject({ code: 0 });
    expect(sim.webhooks()).toEqual([]);
  });

  it('ensure exits 1 saying why for a non-https public_url', async () => {
    const sim = await simulator();
    const r = await cli('webhooks', 'ensure', '--config', configFor(sim, 'http://calendar.example.com'));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/not https:\/\//);
    expect(sim.webhooks()).toEqual([]);
  });

  it('remove of an unknown key exits 1 with the service answer', async () => {
    const sim = await simulator();
    const r = await cli('webhooks', 'remove', 'no-such-webhook', '--config', configFor(sim));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/not found/);
  });

  it('a wrong token exits 1 with advice and without the token', async () => {
    const sim = await simulator({ token: 'the-real-token-000000000000000000000000' });
    const file = configFor(sim).replace(/$/, '');
    writeFileSync(
      file,
      `server:\n  public_url: ${PUBLIC}\nbooking:\n  base_url: ${sim.url}\n  token: not-the-token-1234567890\nwebhook:\n  secret: ${SECRET}\n`,
    );
    const r = await cli('webhooks', 'list', '--config', file);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/check booking\.token/);
    expect(r.err).not.toContain('not-the-token-1234567890');
  });
});
