// vdirsyncer (Debian package `vdirsyncer`) as a second, independent CalDAV client: it syncs one
// calendar of a server to a folder, read-only, with its config, status and HOME in a temp folder,
// so nothing asks a question; we read back what it found.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readEvent } from '../../src/caldav/event-reader.ts';
import { requireBinary } from './radicale.ts';

/** Runs vdirsyncer with stdin closed, so a prompt fails instead of waiting. */
function vdirsyncer(binary: string, home: string, config: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ['-c', config, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8' },
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

export interface SyncedEvent {
  /** The appointment key its UID names, or null. */
  key: string | null;
  uid: string;
  start: number;
  end: number;
}

/**
 * Syncs the collection `collection` (its path segment, e.g. "clinic") of `serverUrl` to a fresh
 * folder and reads every event it wrote there; throws with vdirsyncer's output when it fails.
 */
export async function syncedByVdirsyncer(o: {
  serverUrl: string;
  username: string;
  password: string;
  collection: string;
  zone: string;
}): Promise<SyncedEvent[]> {
  const binary = requireBinary('vdirsyncer', 'vdirsyncer');
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-vdirsyncer-'));
  try {
    const local = join(dir, 'local');
    mkdirSync(join(local, o.collection), { recursive: true }); // the local side of the one collection, so discover needs no prompt
    const config = join(dir, 'config');
    writeFileSync(
      config,
      [
        '[general]',
        `status_path = "${join(dir, 'status')}/"`,
        '[pair cal]',
        'a = "cal_local"',
        'b = "cal_remote"',
        `collections = ["from b"]`,
        'conflict_resolution = "b wins"',
        '[storage cal_local]',
        'type = "filesystem"',
        `path = "${local}/"`,
        'fileext = ".ics"',
        '[storage cal_remote]',
        'type = "caldav"',
        `url = "${o.serverUrl}"`,
        `username = "${o.username}"`,
        `password = "${o.password}"`,
        'read_only = true',
        '', // the file ends with a newline
      ].join('\n'),
    );
    for (const step of ['discover', 'sync']) {
      const r = await vdirsyncer(binary, dir, config, [step]);
      if (r.code !== 0) throw new Error(`vdirsyncer ${step} exited with ${r.code}:\n${r.output}`);
    }
    const folder = join(local, o.collection);
    return readdirSync(folder)
      .filter((f) => f.endsWith('.ics'))
      .map((f) => {
        const e = readEvent(readFileSync(join(folder, f), 'utf8'), o.zone);
        return { key: e.key, uid: e.uid, start: e.start, end: e.end };
      });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
