// The one-shot commands know the CalDAV target, in process through the real CLI and composition
// root: `sync` writes to Radicale and carries a move made in a calendar app to the booking service,
// `sync --dry-run` lists the CalDAV writes a sync would make and makes none,
// `status --json` has the caldav section, `check-config` warns about a password sent in clear.
import { afterEach, expect, it } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readEvent } from '../../src/caldav/event-reader.ts';
import { cliFolder } from '../helpers/cli-env.ts';
import { cli } from '../helpers/run-cli.ts';
import { TEST_ZONE } from '../helpers/simulator.ts';
import { CalendarApp } from './calendar-app.ts';
import { startRadicale } from './radicale.ts';
import { PASSWORD, USER } from './setup.ts';
import { statusDocument } from '../../src/status/status-document.ts';
import { movedObject, slot } from './mirror-env.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

it('sync writes the calendar and sends a move made there; status shows it; check-config knows the section', async () => {
  const radicale = await startRadicale();
  cleanups.push(() => radicale.stop());
  const app = new CalendarApp(radicale.url, USER, PASSWORD);
  const calendar = await app.makeCalendar(`/${USER}/clinic/`, 'Clinic');
  const { dir, file, sim } = await cliFolder(
    cleanups,
    async () => `caldav:
  url: "${radicale.url}"
  username: ${USER}
  password: ${PASSWORD}
  calendars: [{ calendar_key: "*", calendar: Clinic }]
`,
  );
  const a = sim.create({ start: slot(1) });
  const url = new URL(`${a.appointment_key}.ics`, calendar).href;

  const first = await cli('sync', '--config', file);
  expect(first.code).toBe(0);
  // The write the poll's change set off is told, not the empty pass that followed it.
  expect(first.lines).toContainEqual(expect.stringMatching(/^caldav-writer\s+success\s+1 written, 0 failed/));
  expect(first.lines).toContainEqual(expect.stringMatching(/^caldav-reverse-sync\s+success\s+/));
  // One column for the outcome, however long a job's name.
  expect(new Set(first.lines.map((l) => l.search(/ (success|skipped|failed) /)))).toHaveLength(1);
  const written = await app.get(url);
  expect(readEvent(written.body, TEST_ZONE).start).toBe(slot(1));

  expect((await app.save(url, movedObject(written.body, slot(4), slot(5)), written.etag!)).status).toBeLessThan(300);
  expect((await cli('sync', '--config', file)).code).toBe(0);
  expect(sim.get(a.appointment_key)?.start).toBe(slot(4));

  const status = await cli('status', '--json', '--config', file);
  expect(status.code).toBe(0);
  const doc = statusDocument.parse(JSON.parse(status.out));
  expect(doc.targets['caldav.default']).toMatchObject({
    mirrored: 1,
    failed: 0,
    reverse_sync: { moves_detected: 1, reschedules: { done: 1 } },
  });
  expect(status.out).not.toContain(PASSWORD);

  // A dry run lists the CalDAV writes a sync would make, and makes none.
  const added = sim.create({ start: slot(7) });
  sim.reschedule(a.appointment_key, slot(2));
  const folder = join(radicale.storage, 'collection-root', USER, 'clinic');
  const stored = () =>
    Object.fromEntries(
      readdirSync(folder)
        .filter((f) => f.endsWith('.ics'))
        .map((f) => [f, readFileSync(join(folder, f), 'utf8')]),
    );
  const before = stored();
  const dry = await cli('sync', '--dry-run', '--config', file);
  expect(dry.code).toBe(0);
  expect(stored()).toEqual(before);
  const listed = dry.lines.flatMap((l) => /^\s+caldav\s+(create|update|delete) event (\S+) in Clinic/.exec(l)?.slice(1, 3).join(' ') ?? []);
  expect(listed.sort()).toEqual([`create ${added.appointment_key}`, `update ${a.appointment_key}`].sort());
  expect((await cli('sync', '--config', file)).code).toBe(0);
  expect(Object.keys(stored()).sort()).toEqual([`${a.appointment_key}.ics`, `${added.appointment_key}.ics`].sort());
  expect(readEvent((await app.get(url)).body, TEST_ZONE).start).toBe(slot(2));

  // A move onto a taken slot is put back within the same sync: the writer runs again after the
  // reschedules step decided the move back, and says so on a line of its own.
  const taken = new URL(`${added.appointment_key}.ics`, calendar).href;
  const before2 = await app.get(taken);
  expect((await app.save(taken, movedObject(before2.body, slot(2), slot(3)), before2.etag!)).status).toBeLessThan(300);
  const back = await cli('sync', '--config', file);
  expect(back.code).toBe(0);
  expect(readEvent((await app.get(taken)).body, TEST_ZONE).start).toBe(slot(7));
  expect(sim.get(added.appointment_key)?.start).toBe(slot(7));
  expect(back.lines.filter((l) => l.startsWith('caldav-writer')).at(-1)).toMatch(/^caldav-writer\s+success\s+1 written/);

  // The same file pointing at another host over http://: valid, with a warning about the password.
  writeFileSync(join(dir, 'remote.yaml'), readFileSync(file, 'utf8').replace(radicale.url, 'http://dav.example.com/'));
  const check = await cli('check-config', '--config', join(dir, 'remote.yaml'));
  expect(check.code).toBe(0);
  expect(check.err).toMatch(/caldav\.url.*in clear text/);
});
