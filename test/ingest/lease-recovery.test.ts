// After a crash, the dead process's job leases must not block the restarted daemon for their whole
// time-to-live (a poll lease lasts 30 minutes); a live holder, or one on another host, still blocks.
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Leases, leaseOwner } from '../../src/store/leases.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';

let t: TestContext | undefined;
let live: ChildProcess | undefined;
afterEach(async () => {
  live?.kill('SIGKILL');
  await t?.close();
  t = live = undefined;
});

/** The poll's lease, taken by `owner` for its 30 minutes. */
function holdLease(tc: TestContext, owner: string): Leases {
  const holder = new Leases(tc.ctx.db, tc.clock, owner);
  expect(holder.acquire('job:poll', 30 * 60_000)).toBe(true);
  return holder;
}

describe('job leases after a crash', () => {
  it('a lease held by a process of this host that no longer exists is taken over at once', () => {
    t = createTestContext();
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    holdLease(t, leaseOwner('abcd1234', dead));
    const leases = new Leases(t.ctx.db, t.clock, leaseOwner('mine'));
    expect(leases.acquire('job:poll', 60_000)).toBe(true);
    expect(leases.holder('job:poll')).toBe(leases.owner);
  });

  it('a live holder keeps it, and so does a holder on another host', () => {
    t = createTestContext();
    live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)']);
    const liveHolder = holdLease(t, leaseOwner('abcd1234', live.pid));
    const leases = new Leases(t.ctx.db, t.clock, leaseOwner('mine'));
    expect(leases.acquire('job:poll', 60_000)).toBe(false);
    liveHolder.release('job:poll');
    holdLease(t, 'some-other-host:999999:abcd1234');
    expect(leases.acquire('job:poll', 60_000)).toBe(false);
  });
});
