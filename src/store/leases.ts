// A lease row serialises a job across processes (serve and a one-shot `sync`), so nothing runs twice.
// A lease whose holder was a process on this host that no longer exists (killed mid-run) is taken
// over at once instead of waiting for it to expire.
import { hostname } from 'node:os';
import type { Db } from './db.ts';
import type { Clock } from '../core/clock.ts';

/** Owner ids look like `host:pid:random`, so a dead holder on the same host can be recognised. */
export function leaseOwner(random: string): string {
  return `${hostname()}:${process.pid}:${random}`;
}

function holderIsDead(owner: string): boolean {
  const [host, pid] = owner.split(':');
  if (host !== hostname() || !pid || !/^\d+$/.test(pid)) return false;
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

  /** Takes the lease if it is free, expired, or held by a dead local process (not if we hold it: no re-entry). */
  acquire(name: string, ttlMs: number): boolean {
    const now = this.clock.now();
    const take = this.db.prepare(
      `INSERT INTO leases (name, owner, expires_at_ms) VALUES (?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at_ms = excluded.expires_at_ms
       WHERE leases.expires_at_ms <= ? OR leases.owner = ?`,
    );
    if (take.run(name, this.owner, now + ttlMs, now, null).changes === 1) return true;
    const holder = this.db.prepare('SELECT owner FROM leases WHERE name = ?').get(name) as { owner: string } | undefined;
    if (!holder || !holderIsDead(holder.owner)) return false;
    return take.run(name, this.owner, now + ttlMs, now, holder.owner).changes === 1;
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
