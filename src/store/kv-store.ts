// Small named values (stored credentials, cursors): JSON in, JSON out. Read on every /readyz and
// status call, so the statements are prepared once (parsing SQL costs more than the lookup).
import type { Db } from './db.ts';
import type { Clock } from '../core/clock.ts';

export class KvStore {
  private readonly select;
  private readonly upsert;
  private readonly remove;

  constructor(
    db: Db,
    private readonly clock: Clock,
    table: 'kv' | 'sync_cursors' = 'kv',
  ) {
    const column = table === 'kv' ? 'key' : 'name';
    this.select = db.prepare(`SELECT value FROM ${table} WHERE ${column} = ?`);
    this.upsert = db.prepare(
      `INSERT INTO ${table} (${column}, value, updated_at_ms) VALUES (?, ?, ?)
       ON CONFLICT (${column}) DO UPDATE SET value = excluded.value, updated_at_ms = excluded.updated_at_ms`,
    );
    this.remove = db.prepare(`DELETE FROM ${table} WHERE ${column} = ?`);
  }

  get<T>(key: string): T | undefined {
    const row = this.select.get(key) as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  set(key: string, value: unknown): void {
    this.upsert.run(key, JSON.stringify(value), this.clock.now());
  }

  delete(key: string): void {
    this.remove.run(key);
  }
}
