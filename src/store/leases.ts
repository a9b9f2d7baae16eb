// A lease row serialises a job across processes (serve and a one-shot `sync`), so nothing runs twice.
// A lease whose holder was a process on this host that no longer exists (killed mid-run) is taken
// over at once instead of waiting for it to expire. "This host" must be sound: two containers can
// share a hostname (and a database on a shared volume) while each numbers its processes from 1, so
// a pid that is gone in our namespace may be alive in theirs. The owner id therefore carries the pid
// namespace and the boot it was made in; only when both are ours is the pid ours to ask about.
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import type { Db } from './db.ts';
import type { Clock } from '../core/clock.ts';

/** Unknown on Linux (never matches); "-" where there are no pid namespaces (macOS, Windows). */
const UNKNOWN = '?';

let identity: { pidNs: string; bootId: string } | undefined;

/** This process's pid namespace (the inode of /proc/self/ns/pid) and boot id, read once. */
function processIdentity(): { pidNs: string; bootId: string } {
  if (identity) return identity;
  if (process.platform !== 'linux') return (identity = { pidNs: '-', bootId: '-' });
  const read = (f: () => string): string => {
    try {
      return f();
    } catch {
      return UNKNOWN;
    }
  };
  return (identity = {
    pidNs: read(() => /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'))?.[1] ?? UNKNOWN),
    bootId: read(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || UNKNOWN),
  });
}

/**
 * Owner ids look like `host:pid:pidns:bootid:random`, so a dead holder in this host, pid namespace
 * and boot can be recognised. `pid` is this process's unless a test names another.
 */
export function leaseOwner(random: string, pid = process.pid): string {
  const { pidNs, bootId } = processIdentity();
  return `${hostname()}:${pid}:${pidNs}:${bootId}:${random}`;
}

/** True only when the holder was surely a process like us, here, now, and that process is gone. */
function holderIsDead(owner: string): boolean {
  const [host, pid, pidNs, bootId] = owner.split(':');
  const me = processIdentity();
  if (host !== hostname() || !pid || !/^\d+$/.test(pid)) return false;
  // An id of an older release (no namespace or boot), or one made where they could not be read, waits for expiry.
  if (pidNs === undefined || bootId === undefined || pidNs === UNKNOWN || bootId === UNKNOWN) return false;
  if (pidNs !== me.pidNs || bootId !== me.bootId) return false;
  try {
    process.kill(Number(pid), 0); // signal 0: only asks whether the process exists
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

export class Leases {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    readonly owner: string,
  ) {}

  /** Takes the lease if it is free, expired, or held by a dead process of ours (not if we hold it: no re-entry). */
  acquire(name: string, ttlMs: number): boolean {
    const now = this.clock.now();
    const take = this.db.prepare(
      `INSERT INTO leases (name, owner, expires_at_ms) VALUES (?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at_ms = excluded.expires_at_ms
       WHERE leases.expires_at_ms <= ? OR leases.owner = ?`,
    );
    if (take.run(name, this.owner, now + ttlMs, now, null).changes === 1) return true;
    const holder = this.holder(name);
    if (!holder || !holderIsDead(holder)) return false;
    return take.run(name, this.owner, now + ttlMs, now, holder).changes === 1;
  }

  /** Who holds the lease (host:pid:id), expired or not; undefined when no one does. */
  holder(name: string): string | undefined {
    return (this.db.prepare('SELECT owner FROM leases WHERE name = ?').get(name) as { owner: string } | undefined)?.owner;
  }

  release(name: string): void {
    this.db.prepare('DELETE FROM leases WHERE name = ? AND owner = ?').run(name, this.owner);
  }

  /** Pushes our lease's expiry out again; false when it is no longer ours. */
  renew(name: string, ttlMs: number): boolean {
    const r = this.db
      .prepare('UPDATE leases SET expires_at_ms = ? WHERE name = ? AND owner = ?')
      .run(this.clock.now() + ttlMs, name, this.owner);
    return r.changes === 1;
  }

  /**
   * Runs fn while holding the lease, renewed every third of its time so a slow run keeps it;
   * returns undefined without running when another holds it.
   */
  async with<T>(name: string, ttlMs: number, fn: () => Promise<T>): Promise<T | undefined> {
    if (!this.acquire(name, ttlMs)) return undefined;
    const renewal = setInterval(() => this.renew(name, ttlMs), Math.max(1000, ttlMs / 3));
    renewal.unref();
    try {
      return await fn();
    } finally {
      clearInterval(renewal);
      this.release(name);
    }
  }
}
