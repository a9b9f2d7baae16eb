// A consistent copy of the database while `serve` writes to it, with SQLite's online backup API.
// The copy is written under a temporary name beside the target, checked, made private and then
// renamed, so the target is either the old file or a complete backup, never half of one.
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export class BackupError extends Error {
  override name = 'BackupError';
}

export interface BackupResult {
  bytes: number;
}

/** The whole database in one backup step (see below); the largest value SQLite takes. */
const ALL_PAGES = 0x7fffffff;

export async function backupDatabase(source: string, target: string, options: { force: boolean }): Promise<BackupResult> {
  if (!existsSync(source)) throw new BackupError(`there is no database at ${source}; check database.path`);
  refuseTarget(source, target, options.force);
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(4).toString('hex')}.tmp`);
  // Private before SQLite writes a byte: appointments hold people's names and e-mails. The umask
  // covers the -wal and -journal files SQLite creates beside the copy while writing it.
  const umask = process.umask(0o077);
  try {
    writeFileSync(temp, '', { mode: 0o600, flag: 'wx' });
    // Read-only: a backup never migrates or otherwise changes the database it copies.
    const db = new Database(source, { readonly: true, fileMustExist: true });
    try {
      db.pragma('busy_timeout = 10000');
      // One step copies every page inside one read transaction: a consistent snapshot that, in WAL
      // mode, never blocks serve's writers. Small steps would restart after each write of serve's,
      // and under a steady stream of webhooks might never finish.
      await db.backup(temp, { progress: () => ALL_PAGES });
    } finally {
      db.close();
    }
    checkCopy(temp);
    const bytes = statSync(temp).size;
    // Checked again at the last moment: something may have appeared at the target meanwhile.
    refuseTarget(source, target, options.force);
    renameSync(temp, target);
    syncFolder(dirname(target));
    return { bytes };
  } catch (e) {
    if (e instanceof BackupError) throw e;
    throw new BackupError(`the backup to ${target} failed: ${(e as Error).message}`);
  } finally {
    process.umask(umask);
    for (const leftover of [temp, `${temp}-wal`, `${temp}-shm`, `${temp}-journal`]) rmSync(leftover, { force: true });
  }
}

function refuseTarget(source: string, target: string, force: boolean): void {
  if (!existsSync(dirname(target))) throw new BackupError(`the folder ${dirname(target)} does not exist`);
  if (!existsSync(target)) return;
  if (statSync(target).isDirectory())
    throw new BackupError(`${target} is a folder; give the backup a file name, e.g. ${join(target, 'calbridge-backup.db')}`);
  if (realpathSync(target) === realpathSync(source)) throw new BackupError(`${target} is the database itself; give another file name`);
  if (!force) throw new BackupError(`${target} already exists; choose another name, or add --force to replace it`);
}

/** The copy opens, passes quick_check, and is one self-contained file (no -wal beside it). */
function checkCopy(file: string): void {
  const copy = new Database(file, { fileMustExist: true });
  try {
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new BackupError(`the copy failed SQLite's check (${String(check)}); the database was not backed up`);
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
  const fd = openSync(file, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Makes the rename itself durable. */
function syncFolder(folder: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(folder, 'r');
    fsyncSync(fd);
  } catch {
    // Some filesystems refuse to fsync a folder; the file itself is already synced.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
