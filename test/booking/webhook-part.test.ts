import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.ts';
import { createWebhookRegistrationPart } from '../../src/wiring/webhook-registration-part.ts';
import { createTestContext } from '../helpers/context.ts';
import type { Simulator } from '../../src/booking/simulator/index.ts';
import { clientFor, onCleanup, simulator } from './helpers.ts';

const SECRET = 'wh-secret-0123456789abcdef';

/** The part over a real database (shared by every part made for the same `db` key). */
const contexts = new Map<string, ReturnType<typeof createTestContext>>();
function partFor(sim: Simulator, opts: { publicUrl?: string; register?: boolean; maxRetries?: number; db?: string } = {}) {
  const config = parseConfig(
    [
      'server:',
      `  public_url: ${opts.publicUrl ?? 'https://calendar.example.com'}`,
      'booking:',
      `  base_url: ${sim.url}`,
      `  token: ${sim.token}`,
      'webhook:',
      `  secret: ${SECRET}`,
      `  register: ${opts.register ?? true}`,
    ].join('\n'),
    'config.yaml',
    {},
  );
  const { client } = clientFor(sim, { maxRetries: opts.maxRetries ?? 4 });
  const key = opts.db ?? String(Math.random());
  let t = contexts.get(key);
  if (!t) {
    t = createTestContext({ config, booking: client });
    contexts.set(key, t);
    onCleanup(async () => {
      contexts.delete(key);
      await t!.close();
    });
  }
  const part = createWebhookRegistrationPart({ ...t.ctx, config, booking: client });
  onCleanup(() => part.stop?.());
  return part;
}

describe('the webhook part at serve start', () => {
  it('registers our webhook and reports it; a restart changes nothing', async () => {
    const sim = await simulator();
    await partFor(sim).start?.();
    const again = partFor(sim);
    await again.start?.();
    expect(sim.webhooks()).toHaveLength(1);
    const status = again.status?.().webhook_registration;
    expect(again.name).toBe('webhook_registration');
    expect(status).toMatchObject({ register: true, state: 'registered', action: 'unchanged' });
    expect(JSON.stringify(status)).not.toContain(SECRET);
  });

  it('a one-shot command (a part never started) shows what serve last recorded in the database', async () => {
    const sim = await simulator();
    await partFor(sim, { db: 'shared' }).start?.();
    const oneShot = partFor(sim, { db: 'shared' });
    expect(oneShot.status?.().webhook_registration).toMatchObject({ state: 'registered', action: 'created' });
    expect(partFor(sim).status?.().webhook_registration).toMatchObject({ state: 'pending' });
  });

  it('skips a non-https public_url with a warning and never calls the service', async () => {
    const sim = await simulator();
    const part = partFor(sim, { publicUrl: 'http://localhost:8080' });
    await part.start?.();
    expect(sim.requests).toEqual([]);
    expect(part.status?.().webhook_registration).toMatchObject({ state: 'skipped' });
    expect(part.readiness?.().warnings[0]?.text).toMatch(/not https/);
    expect(part.readiness?.().reasons).toEqual([]);
  });

  it('does nothing when webhook.register is off', async () => {
    const sim = await simulator();
    const part = partFor(sim, { register: false });
    await part.start?.();
    expect(sim.requests).toEqual([]);
    expect(part.status?.().webhook_registration).toMatchObject({ register: false, state: 'disabled' });
  });

  it('does not throw when the service is down; the failure shows in status', async () => {
    const sim = await simulator();
    sim.failNext({ status: 503, count: 5 });
    const part = partFor(sim, { maxRetries: 0 });
    await expect(part.start?.()).resolves.toBeUndefined();
    expect(part.status?.().webhook_registration).toMatchObject({ state: 'failed', error: expect.stringMatching(/503/) });
    expect(sim.webhooks()).toEqual([]);
  });
});
