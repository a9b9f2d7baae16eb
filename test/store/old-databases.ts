// Databases as an older release left them, for the migration tests: a file in a temp dir with the
// migrations up to a version applied, so a test seeds rows in the old shape (SQL, for the old schema
// only) and then upgrades the file as a user's daemon would (migrate, or openDatabase on its path).
// One call, so each migration test says only the schema it starts from and the rows it seeds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach } from 'vitest';
import { loadMigrations, migrate } from '../../src/store/db.ts';

export interface OldDatabase {
  db: Database.Database;
  path: string;
}

export interface OldDatabases {
  /** A new database path in its own temp dir. */
  file(): string;
  /** A database at schema `version`: every migration up to it applied, none after. */
  atSchema(version: number, options?: { foreignKeys?: boolean }): OldDatabase;
}

/** Call at a test file's top level: each temp dir made is removed after its test. */
export function oldDatabases(prefix: string): OldDatabases {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const file = () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return join(dir, 'cb.db');
  };
  return {
    file,
    atSchema(version, options = {}) {
      const path = file();
      const db = new Database(path);
      if (options.foreignKeys) db.pragma('foreign_keys = ON');
      migrate(
        db,
        loadMigrations().filter((m) => m.version <= version),
      );
      return { db, path };
    },
  };
}
