// Small named values (stored credentials, cursors): JSON in, JSON out.
import type { Db } from './db.ts';
import type { Clock } from '../core/clock.ts';

export class KvStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly table: 'kv' | 'sync_cursors' = 'kv',
  ) {}

  get<T>(key: string): T | undefined {
    const column = this.table === 'kv' ? 'key' : 'name';
    const row = this.db.prepare(`SELECT value FROM ${this.table} WHERE ${column} = ?`).get(key) as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  set(key: string, value: unknown): void {
    const column = this.table === 'kv' ? 'key' : 'name';
    this.db
      .prepare(
        `INSERT INTO ${this.table} (${column}, value, updated_at_ms) VALUES (?, ?, ?)
         ON CONFLICT (${column}) DO UPDATE SET value = excluded.value, updated_at_ms = excluded.updated_at_ms`,
      )
      .run(key, JSON.stringify(value), this.clock.now());
  }

  delete(key: string): void {
    const column = this.table === 'kv' ? 'key' : 'name';
    this.db.prepare(`DELETE FROM ${this.table} WHERE ${column} = ?`).run(key);
  }
}
