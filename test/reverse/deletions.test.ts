// Events deleted by a person in Google, each on_delete policy, and a lost sync token (410).
import { afterEach, describe, expect, it } from 'vitest';
import { CAL, googleStart, slot, startReverseEnv, type ReverseEnv } from './harness.ts';
import { reverseSyncOn } from '../helpers/reverse-sync-section.ts';
import { targetKeys } from '../../src/sync/target/adapter.ts';

const syncTokenKey = targetKeys({ kind: 'google', name: 'default' }).cursor;

let env: ReverseEnv;
afterEach(async () => {
  await env?.close();
});

async function booked(e: ReverseEnv, hours: number): Promise<string> {
  const a = e.sim.create({ start: slot(hours) });
  await e.settle(1);
  return a.appointment_key;
}

const cancelRequests = (e: ReverseEnv) => e.sim.requests.filter((r) => r.method === 'DELETE' && r.path.startsWith('/api/v3/appointments/'));
const section = (e: ReverseEnv) => reverseSyncOn(e.status().targets['google.default']);

describe('a person deletes an event in Google', () => {
  it('recreates it by default (same event id, revived), without touching the booking', async () => {
    env = await startReverseEnv();
    const key = await booked(env, 0);
    await env.run('google-reverse-sync');
    env.deleteInGoogle(key);
    await env.settle(3);
    expect(env.eventOf(key)?.status).toBe('confirmed');
    expect(googleStart(env.eventOf(key))).toBe(slot(0));
    expect(env.fake.events(CAL)).toHaveLength(1);
    expect(cancelRequests(env)).toHaveLength(0);
    expect(section(env).deletions).toMatchObject({ recreated: 1, cancelled: 0 });
    const writes = env.googleWrites();
    await env.settle(5);
    expect(env.googleWrites()).toBe(writes); // the revival's echo is quiet
  });

  it('cancels the booking with on_delete: cancel, passing send_email', async () => {
    env = await startReverseEnv({ reverse: { on_delete: 'cancel', send_email: true } });
    const key = await booked(env, 0);
    const kept = await booked(env, 2);
    await env.run('google-reverse-sync');
    env.deleteInGoogle(key);
    await env.settle(3);
    expect(cancelRequests(env)).toHaveLength(1);
    expect(cancelRequests(env)[0]?.query.send_email).toEqual(['true']);
    expect(env.sim.get(key)?.status).toMatch(/^CANCEL/);
    expect(env.sim.get(kept)?.status).toBe('CONFIRMED');
    expect(env.eventOf(key)?.status).toBe('cancelled'); // stays deleted
    expect(section(env).deletions).toMatchObject({ cancelled: 1 });
    await env.settle(5);
    expect(cancelRequests(env)).toHaveLength(1);
  });

  it('leaves both sides alone with on_delete: ignore', async () => {
    env = await startReverseEnv({ reverse: { on_delete: 'ignore' } });
    const key = await booked(env, 0);
    await env.run('google-reverse-sync');
    env.deleteInGoogle(key);
    await env.settle(3);
    expect(cancelRequests(env)).toHaveLength(0);
    expect(env.sim.get(key)?.status).toBe('CONFIRMED');
    expect(env.eventOf(key)?.status).toBe('cancelled');
    expect(section(env).deletions).toMatchObject({ ignored: 1 });
  });
});

describe('a sync token Google no longer accepts (410)', () => {
  it('lists again in full and still finds a deletion made during the gap', async () => {
    env = await startReverseEnv({ reverse: { on_delete: 'cancel' } });
    const keys = [await booked(env, 0), await booked(env, 2), await booked(env, 4), await booked(env, 6)];
    await env.run('google-reverse-sync');
    const tokenBefore = env.t.ctx.cursors.get<string>(syncTokenKey(CAL));
    env.fake.state.invalidateSyncTokens(CAL);
    env.deleteInGoogle(keys[1]!);
    env.moveInGoogle(keys[2]!, slot(10));
    await env.settle(2);
    expect(env.fake.log.some((r) => r.kind === 'list' && r.status === 410)).toBe(true);
    expect(env.t.ctx.cursors.get<string>(syncTokenKey(CAL))).not.toBe(tokenBefore);
    // The deletion, seen only by its absence, was read again (GET) before acting on it.
    expect(env.fake.log.some((r) => r.kind === 'get' && r.eventId === env.eventOf(keys[1]!)?.id)).toBe(true);
    expect(cancelRequests(env)).toHaveLength(1);
    expect(env.sim.get(keys[1]!)?.status).toMatch(/^CANCEL/);
    expect(env.sim.get(keys[2]!)?.start).toBe(slot(10));
    expect(env.reschedulePatches()).toBe(1);
  });

  it('never cancels in bulk: a mass disappearance trips the breaker and is reported', async () => {
    env = await startReverseEnv({ reverse: { on_delete: 'cancel' } });
    const keys: string[] = [];
    for (let i = 0; i < 5; i++) keys.push(await booked(env, i * 2));
    await env.run('google-reverse-sync');
    env.fake.state.invalidateSyncTokens(CAL);
    for (const k of keys.slice(0, 4)) env.deleteInGoogle(k);
    await env.settle(2);
    expect(cancelRequests(env)).toHaveLength(0);
    for (const k of keys) expect(env.sim.get(k)?.status).toBe('CONFIRMED');
    expect(section(env).held_by_breaker).toBe(4);
    const ready = env.parts.find((p) => p.name === 'google.default')!.readiness!();
    expect(ready.warnings.map((w) => w.text).join(' ')).toMatch(/4 deletions .* held by the breaker/);
  });
});
