import { afterEach, describe, expect, it, vi } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../src/store/db.ts';
import { Leases, leaseOwner } from '../../src/store/leases.ts';
import { ManualClock } from '../../src/core/clock.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function setup(): { db: Db; clock: ManualClock } {
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-lease-'));
  const db = openDatabase(join(dir, 'cb.db'));
  cleanups.push(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { db, clock: new ManualClock() };
}

describe('leases', () => {
  it('lets one holder at a time run a job, until it releases or its lease expires', () => {
    const { db, clock } = setup();
    const a = new Leases(db, clock, leaseOwner('a'));
    const b = new Leases(db, clock, leaseOwner('b'));
    expect(a.acquire('job:poll', 1000)).toBe(true);
    expect(a.acquire('job:poll', 1000)).toBe(false); // no re-entry: a second run of the same job waits
    expect(b.acquire('job:poll', 1000)).toBe(false); // same live process, other owner: still held
    expect(a.holder('job:poll')).toBe(a.owner);
    a.release('job:poll');
    expect(a.holder('job:poll')).toBeUndefined();
    expect(b.acquire('job:poll', 1000)).toBe(true);
    clock.advance(1001);
    expect(a.acquire('job:poll', 1000)).toBe(true);
  });

  it('keeps a lease for a run that outlasts its time by renewing it', async () => {
    const { db, clock } = setup();
    const a = new Leases(db, clock, leaseOwner('a'));
    const b = new Leases(db, clock, leaseOwner('b'));
    let bGotIt: boolean | undefined;
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    cleanups.push(() => vi.useRealTimers());
    await a.with('job:google-writer', 3000, async () => {
      clock.advance(2500);
      vi.advanceTimersByTime(1000); // one renewal (every max(1 s, ttl/3))
      clock.advance(2500); // 5 s after taking a 3 s lease
      bGotIt = b.acquire('job:google-writer', 3000);
    });
    expect(bGotIt).toBe(false);
    expect(b.acquire('job:google-writer', 3000)).toBe(true); // released at the end
  });

  it('takes over at once a lease held by a process of this host, pid namespace and boot that no longer exists', () => {
    const { db, clock } = setup();
    const deadOwner = new Leases(db, clock, leaseOwner('x', deadPid()));
    expect(deadOwner.acquire('job:google-writer', 60_000)).toBe(true);
    const fresh = new Leases(db, clock, leaseOwner('fresh'));
    expect(fresh.acquire('job:google-writer', 60_000)).toBe(true);
  });

  it('never takes over a lease of another host before it expires', () => {
    const { db, clock } = setup();
    const remote = new Leases(db, clock, 'another-host:1:4026531836:boot:x');
    expect(remote.acquire('job:poll', 60_000)).toBe(true);
    expect(new Leases(db, clock, leaseOwner('here')).acquire('job:poll', 60_000)).toBe(false);
  });

  // Two containers with the same hostname share a database on a volume: each numbers its processes
  // from 1, so a pid that is gone here may be the other container's live poll.
  it('waits for expiry when the holder has our hostname but another pid namespace (a twin container)', () => {
    const { db, clock } = setup();
    const [host, pid, ns, boot] = leaseOwner('x', deadPid()).split(':');
    const twin = new Leases(db, clock, `${host}:${pid}:${Number(ns) + 1}:${boot}:twin`);
    expect(twin.acquire('job:poll', 60_000)).toBe(true);
    const here = new Leases(db, clock, leaseOwner('here'));
    expect(here.acquire('job:poll', 60_000)).toBe(false);
    clock.advance(60_001);
    expect(here.acquire('job:poll', 60_000)).toBe(true);
  });

  it('waits for expiry when the holder ran in another boot of this host, or left an id without namespace and boot', () => {
    const { db, clock } = setup();
    const [host, pid, ns] = leaseOwner('x', deadPid()).split(':');
    const here = new Leases(db, clock, leaseOwner('here'));
    for (const owner of [`${host}:${pid}:${ns}:another-boot:x`, `${host}:${pid}:x`]) {
      db.prepare('DELETE FROM leases').run();
      expect(new Leases(db, clock, owner).acquire('job:poll', 60_000)).toBe(true);
      expect(here.acquire('job:poll', 60_000)).toBe(false);
    }
  });

  it('names this process by hostname, pid, pid namespace and boot', () => {
    const [host, pid, ns, boot] = leaseOwner('x').split(':');
    expect(host).toBe(hostname());
    expect(pid).toBe(String(process.pid));
    if (process.platform === 'linux') {
      expect(ns).toMatch(/^\d+$/);
      expect(boot).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

/** The pid of a process that has just exited. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}
