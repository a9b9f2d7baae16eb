// The database holds the Google refresh token, channel tokens, webhook bodies and personal data, so
// what calbridge creates for it is private: the folder 0700, the files 0600. SQLite gives the WAL and
// shared-memory files it makes later the database file's mode. A folder or file someone made keeps
// its mode (it may be shared on purpose); a world-readable database is warned about instead.
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { isMainThread } from 'node:worker_threads';

/**
 * Creates `dir` (and any missing parent) 0700, then runs `create`, which makes `file` if it is not
 * there yet: a file it makes ends up 0600.
 */
export function createPrivately<T>(dir: string, file: string, create: () => T): T {
  const fresh = !existsSync(file);
  // umask 077 while creating, so the new file is never readable by others, not even for an instant
  // (worker threads cannot change the umask: the chmod below still applies there).
  const previous = isMainThread ? process.umask(0o077) : undefined;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const result = create();
    if (fresh && existsSync(file)) chmodSync(file, 0o600);
    return result;
  } finally {
    if (previous !== undefined) process.umask(previous);
  }
}

const octal = (mode: number): string => (mode & 0o777).toString(8).padStart(4, '0');

/** One sentence when the database, or its WAL or shared-memory file, can be read by every user of this machine. */
export function worldReadableWarning(path: string): string | undefined {
  const open: string[] = [];
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    let mode: number;
    try {
      mode = statSync(file).mode;
    } catch {
      continue; // not there (yet): SQLite makes the WAL with the database file's mode
    }
    if (mode & 0o004) open.push(`${basename(file)} ${octal(mode)}`);
  }
  if (open.length === 0) return undefined;
  return (
    `the database ${path} can be read by every user of this machine (${open.join(', ')}), and it holds the ` +
    'Google refresh token and personal data: `chmod 600` its files and `chmod 700` their folder'
  );
}
