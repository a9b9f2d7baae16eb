// A throw-away copy of the database to work on (`sync --dry-run`), taken so that the database
// itself stays byte for byte as it was: no migration, no checkpoint, no file left beside it.
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';

/** The whole database in one backup step: one read transaction, a consistent snapshot. */
const ALL_PAGES = 0x7fffffff;

export async function scratchCopy(source: string, target: string): Promise<void> {
  // Without a -wal beside it no connection has the database open, and a plain connection that only
  // reads removes the -wal and -shm it creates when it closes. With one there, another process may
  // be writing (or one was killed): read-only, so our close never checkpoints its WAL into the file.
  const db = new Database(source, { readonly: existsSync(`${source}-wal`), fileMustExist: true });
  try {
    db.pragma('busy_timeout = 10000');
    await db.backup(target, { progress: () => ALL_PAGES });
  } finally {
    db.close();
  }
}
