// A lease row serialises a job across processes (serve and a one-shot `sync`), so nothing runs twice.
import type { Db } from './db.ts';
import type { Clock } from '../core/clock.ts';

export class Leases {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    readonly owner: string,
  ) {}

  /** Takes the lease if it is free, expired, or already ours; true when we hold it. */
  acquire(name: string, ttlMs: number): boolean {
    const now = this.clock.now();
    const result = this.db
      .prepare(
        `INSERT INTO leases (name, owner, expires_at_ms) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at_ms = excluded.expires_at_ms
         WHERE leases.owner = excluded.owner OR leases.expires_at_ms <= ?`,
      )
      .run(name, this.owner, now + ttlMs, now);
    return result.changes === 1;
  }

  release(name: string): void {
    this.db.prepare('DELETE FROM leases WHERE name = ? AND owner = ?').run(name, this.owner);
  }

  /** Runs fn while holding the lease; returns undefined without running when another holds it. */
  async with<T>(name: string, ttlMs: number, fn: () => Promise<T>): Promise<T | undefined> {
    if (!this.acquire(name, ttlMs)) return undefined;
    try {
      return await fn();
    } finally {
      this.release(name);
    }
  }
}
