// A second, independent CalDAV client: after the adapter writes, moves and deletes events in a
// Radicale calendar, vdirsyncer (Debian package `vdirsyncer`) syncs that calendar to a folder and
// finds exactly the events we left, with the booking service's times.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readEvent } from '../../src/caldav/event-reader.ts';
import { CalendarApp } from './calendar-app.ts';
import { requireBinary, startRadicale, type Radicale } from './radicale.ts';
import { adapter, objectFor, PASSWORD, USER } from './setup.ts';

const ZONE = 'America/Sao_Paulo';
const T = Date.UTC(2026, 9, 20, 12, 0);

let server: Radicale;
let dir: string;
beforeAll(async () => {
  server = await startRadicale();
  dir = mkdtempSync(join(tmpdir(), 'calbridge-vdirsyncer-'));
});
afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs vdirsyncer with its config, status and HOME in `dir`; stdin closed, so a prompt fails instead of waiting. */
function vdirsyncer(binary: string, config: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ['-c', config, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8' } });
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

describe('vdirsyncer as a second client', () => {
  it('sees exactly the events the adapter left in the calendar, at the booking service\'s times', async () => {
    const binary = requireBinary('vdirsyncer', 'vdirsyncer');
    const cal = await new CalendarApp(server.url, USER, PASSWORD).makeCalendar('/alice/clinic/', 'Clinic');
    const dav = adapter(server.url);

    const expected = new Map<string, { start: number; end: number }>();
    const etags = new Map<string, string>();
    for (let i = 0; i < 10; i++) {
      const key = `apt-${i}`;
      const { appointment, ics } = objectFor(key, T + i * 5_400_000);
      const r = await dav.put(cal, key, ics, { kind: 'create' });
      if (r.kind !== 'written' || !r.etag) throw new Error(`${key}: ${r.kind}`);
      etags.set(key, r.etag);
      expected.set(key, { start: appointment.start, end: appointment.end });
    }
    // A reschedule across the night and a cancellation, as the writer will make them.
    const moved = objectFor('apt-3', T + 30 * 3_600_000, {}, 2);
    expect((await dav.put(cal, 'apt-3', moved.ics, { kind: 'update', etag: etags.get('apt-3')! })).kind).toBe('written');
    expected.set('apt-3', { start: moved.appointment.start, end: moved.appointment.end });
    expect(await dav.remove(cal, 'apt-7', etags.get('apt-7')!)).toEqual({ kind: 'removed' });
    expected.delete('apt-7');

    const local = join(dir, 'local');
    mkdirSync(join(local, 'clinic'), { recursive: true }); // the local side of the one collection, so discover needs no prompt
    const config = join(dir, 'config');
    writeFileSync(
      config,
      [
        '[general]',
        `status_path = "${join(dir, 'status')}/"`,
        '[pair clinic]',
        'a = "clinic_local"',
        'b = "clinic_remote"',
        'collections = ["from b"]',
        'conflict_resolution = "b wins"',
        '[storage clinic_local]',
        'type = "filesystem"',
        `path = "${local}/"`,
        'fileext = ".ics"',
        '[storage clinic_remote]',
        'type = "caldav"',
        `url = "${server.url}"`,
        `username = "${USER}"`,
        `password = "${PASSWORD}"`,
        'read_only = true',
      ].join('\n') + '\n',
    );
    const discover = await vdirsyncer(binary, config, ['discover']);
    expect(discover.code, discover.output).toBe(0);
    const sync = await vdirsyncer(binary, config, ['sync']);
    expect(sync.code, sync.output).toBe(0);

    const files = readdirSync(join(local, 'clinic')).filter((f) => f.endsWith('.ics'));
    const seen = new Map(
      files.map((f) => {
        const e = readEvent(readFileSync(join(local, 'clinic', f), 'utf8'), ZONE);
        return [e.key, { start: e.start, end: e.end }] as const;
      }),
    );
    expect(files).toHaveLength(9);
    expect(new Map([...seen].sort())).toEqual(new Map([...expected].sort()));
  });
});
