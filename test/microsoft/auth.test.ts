// Sign-in against the simulated identity platform: app-only client credentials, delegated refresh
// tokens that rotate (each new one kept, or the next start is refused), and the device code flow.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.ts';
import { finishDeviceCode, refreshTokensIn, startDeviceCode, type RefreshTokens } from '../../src/microsoft/auth.ts';
import { calendarRef } from '../../src/microsoft/graph-target.ts';
import { startGraphSimulator, type GraphSimulator } from '../../src/microsoft/simulator/index.ts';
import { body, CLIENT_ID, CLIENT_SECRET, connect, MAILBOX } from './env.ts';

let sim: GraphSimulator;
beforeEach(async () => {
  sim = await startGraphSimulator({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, mailboxes: [MAILBOX], deviceInterval: 0 });
});
afterEach(async () => {
  await sim.close();
});

function memoryKv() {
  const m = new Map<string, unknown>();
  return { get: <T>(k: string) => m.get(k) as T | undefined, set: (k: string, v: unknown) => void m.set(k, v), map: m };
}

const noWait = async () => {};
const endpoints = () => ({ authorityUrl: sim.authorityUrl, tenant: 'common', graphRoot: sim.graphRoot, clientId: CLIENT_ID });

describe('Microsoft sign-in', () => {
  it('app-only: a token per account, reused until it expires; the tenant "common" is refused with the reason', async () => {
    const env = connect(sim);
    await env.connection.target.put(calendarRef(MAILBOX, 'Calendar'), 'k1', body('k1', 13), { kind: 'absent' });
    await env.connection.target.get(calendarRef(MAILBOX, 'Calendar'), 'k1');
    expect(sim.tokens.counts.clientCredentials).toBe(1);
    const wrong = connect(sim, { tenant: 'common' });
    await expect(wrong.connection.target.get(calendarRef(MAILBOX, 'Calendar'), 'k1')).rejects.toMatchObject({
      kind: 'auth',
      message: expect.stringMatching(/AADSTS90002/),
    });
  });

  it('app-only cannot use "me": Graph says so', async () => {
    const env = connect(sim);
    await expect(env.connection.target.get(calendarRef('me', 'Calendar'), 'k1')).rejects.toThrow(
      /only valid with delegated authentication/,
    );
  });

  it('delegated: every refresh answers a new refresh token, stored at once; a restart uses the stored one', async () => {
    const kv = memoryKv();
    const first = sim.tokens.issueRefreshToken(MAILBOX);
    const tokens: RefreshTokens = refreshTokensIn(kv, 'microsoft.default.refresh_token', first);
    const env = connect(sim, { credentials: { kind: 'delegated', refreshTokens: tokens } });
    await env.connection.target.put(calendarRef('me', 'Calendar'), 'k1', body('k1', 13), { kind: 'absent' });
    const stored = tokens.load()!;
    expect(stored).not.toBe(first);
    expect(sim.tokens.counts.refreshTokens.at(-1)).toBe(stored);
    // The daemon starts again with the same config: the stored (newest) token works, the config's would not.
    const again = connect(sim, {
      credentials: { kind: 'delegated', refreshTokens: refreshTokensIn(kv, 'microsoft.default.refresh_token', first) },
    });
    expect(await again.connection.target.get(calendarRef('me', 'Calendar'), 'k1')).toMatchObject({ kind: 'found' });
    const stale = connect(sim, { credentials: { kind: 'delegated', refreshTokens: { load: () => first, save: () => {} } } });
    await expect(stale.connection.target.get(calendarRef('me', 'Calendar'), 'k1')).rejects.toMatchObject({ kind: 'auth' });
    // No refresh token anywhere: the fix is named.
    const none = connect(sim, { credentials: { kind: 'delegated', refreshTokens: refreshTokensIn(memoryKv(), 'k', undefined) } });
    await expect(none.connection.target.get(calendarRef('me', 'Calendar'), 'k1')).rejects.toThrow(/calbridge microsoft auth/);
  });

  it('a refresh token pasted into the config wins over an older stored rotation', () => {
    const kv = memoryKv();
    refreshTokensIn(kv, 'rt', 'config-token-1').save('rotated-1');
    expect(refreshTokensIn(kv, 'rt', 'config-token-1').load()).toBe('rotated-1');
    expect(refreshTokensIn(kv, 'rt', 'config-token-2').load()).toBe('config-token-2');
  });

  it('device code: the address and code to enter, then the refresh token once the person signed in', async () => {
    const start = await startDeviceCode(endpoints(), systemClock, noWait);
    expect(start.verificationUri).toBe(`${sim.url}/devicelogin`);
    expect(sim.tokens.pendingUserCodes()).toEqual([start.userCode]);
    let polls = 0;
    const sleep = async () => {
      polls++;
      if (polls === 3) sim.tokens.approveDevice(start.userCode, MAILBOX);
    };
    const rt = await finishDeviceCode(endpoints(), start, systemClock, sleep);
    expect(polls).toBe(3);
    expect(sim.tokens.counts.refreshTokens).toEqual([rt]);
  });

  it('device code: a declined sign-in fails with the reason', async () => {
    const start = await startDeviceCode(endpoints(), systemClock, noWait);
    sim.tokens.declineDevice(start.userCode);
    await expect(finishDeviceCode(endpoints(), start, systemClock, noWait)).rejects.toThrow(/declined/);
  });
});
