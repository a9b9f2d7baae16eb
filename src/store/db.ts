// The one place that opens the SQLite file: creates its folder, sets the pragmas, runs migrations.
// The file holds the Google refresh token, channel tokens and personal data: what calbridge creates
// is private (folder 0700, files 0600; see private-files.ts).
import Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPrivately } from './private-files.ts';

export type Db = Database.Database;
export type Statement<P extends unknown[], R> = Database.Statement<P, R>;

// Beside this file: src/store/migrations, or dist/migrations in the bundle, where every chunk sits in dist/ (scripts/build.js).
const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export class DatabaseError extends Error {
  override name = 'DatabaseError';
}

export interface OpenOptions {
  /** normal: an acknowledged write survives a process kill; full: also a power cut. */
  synchronous?: 'normal' | 'full';
  busyTimeoutMs?: number;
}

interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d+_.+\.sql$/.test(f))
    .map((f) => ({ version: Number.parseInt(f, 10), name: f, sql: readFileSync(join(dir, f), 'utf8') }))
    .sort((a, b) => a.version - b.version);
}

let latest: number | undefined;

/** The schema version this calbridge migrates to (its last migration). */
export function latestSchemaVersion(): number {
  return (latest ??= loadMigrations().at(-1)?.version ?? 0);
}

export function openDatabase(path: string, options: OpenOptions = {}): Db {
  let db: Db;
  try {
    // The WAL and shared-memory files SQLite makes later take the database file's mode.
    db = path === ':memory:' ? new Database(path) : createPrivately(dirname(path), path, () => new Database(path));
  } catch (e) {
    throw new DatabaseError(`cannot open the database ${path}: ${(e as Error).message}`);
  }
  try {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    // better-sqlite3 builds SQLite with a 16 MB page cache per connection; 2 MB holds every index
    // calbridge walks often, and the rest is the operating system's file cache, not our memory.
    db.pragma('cache_size = -2000');
    migrate(db);
    cachePrepared(db);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

/**
 * The stores prepare the same few dozen SQL texts on every call, and better-sqlite3 compiles each
 * prepare() anew: a poll over 20,000 appointments made 20,000 statements for the collector to
 * finalize. Each text is compiled once per connection instead. A statement still stepping through an
 * iterate() cannot run again meanwhile, so a caller then gets a fresh one.
 */
function cachePrepared(db: Db): void {
  const cache = new Map<string, Database.Statement>();
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    const hit = cache.get(sql);
    if (hit && !hit.busy) return hit;
    const fresh = prepare(sql);
    if (!hit) cache.set(sql, fresh);
    return fresh;
  }) as Db['prepare'];
}

/** Forward-only numbered migrations tracked by PRAGMA user_version, each in its own transaction. */
export function migrate(db: Db, migrations = loadMigrations()): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  const latest = migrations.at(-1)?.version ?? 0;
  if (current > latest) {
    throw new DatabaseError(
      `the database is at schema version ${current}, newer than this calbridge knows (${latest}); ` +
        'it was written by a newer release: run that release, or restore a backup made for this one',
    );
  }
  for (const m of migrations) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}
