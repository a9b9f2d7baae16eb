import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DatabaseError, loadMigrations, openDatabase, schemaVersion } from '../../src/store/db.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-db-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('database', () => {
  it('creates the file and its folder, in WAL mode, with every migration applied', () => {
    const path = join(tempDir(), 'nested', 'folder', 'cb.db');
    const db = openDatabase(path);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(schemaVersion(db)).toBe(loadMigrations().at(-1)?.version);
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all()
      .map((r) => (r as { name: string }).name);
    expect(tables).toEqual(expect.arrayContaining(['appointments', 'deliveries', 'links', 'reschedules', 'sync_cursors', 'leases', 'kv']));
    db.close();
  });

  it('re-opens an existing database without re-running migrations or losing rows', () => {
    const path = join(tempDir(), 'cb.db');
    const first = openDatabase(path);
    first.prepare("INSERT INTO kv (key, value, updated_at_ms) VALUES ('k', '\"v\"', 1)").run();
    first.close();
    const again = openDatabase(path);
    expect(again.prepare("SELECT value FROM kv WHERE key = 'k'").get()).toEqual({ value: '"v"' });
    again.close();
  });

  it('refuses a database from a newer version and leaves it untouched', () => {
    const path = join(tempDir(), 'cb.db');
    openDatabase(path).close();
    const raw = new Database(path);
    raw.pragma('user_version = 999');
    raw.close();
    expect(() => openDatabase(path)).toThrow(DatabaseError);
    expect(() => openDatabase(path)).toThrow(/schema version 999, newer than this calbridge knows/);
    const check = new Database(path);
    expect(check.pragma('user_version', { simple: true })).toBe(999);
    check.close();
  });

  it('numbers migrations 1, 2, 3... with no gap (a later-filled gap would be skipped by existing databases)', () => {
    const versions = loadMigrations().map((m) => m.version);
    expect(versions).toEqual(versions.map((_, i) => i + 1));
  });
});
