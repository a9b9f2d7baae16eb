// `calbridge sync --dry-run` through the real CLI and composition root, against the booking
// simulator over HTTP and the Google simulator through the real googleapis client, on a real SQLite
// file: it lists what a sync would do, writes nothing anywhere, and a real sync then does exactly that.
import { afterEach, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { systemClock } from '../../src/core/clock.ts';
import { eventIdFor } from '../../src/core/event-id.ts';
import { KvStore } from '../../src/store/kv-store.ts';
import type { GoogleSimulator } from '../../src/google/simulator/index.ts';
import type { Simulator } from '../../src/booking/simulator/index.ts';
import { TEST_ZONE } from '../helpers/simulator.ts';
import { startCliEnv } from '../helpers/cli-env.ts';
import { CAL, slot } from '../reverse/harness.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const start = () =>
  startCliEnv(cleanups, {
    google: ['title: "{person.full_name}"'],
    extra: 'feeds:\n  - { name: Clinic, token: dry-run-feed-token-0123456789 }\n',
  });

/** Every file beside the database (the -wal and -shm too) with its bytes. */
const files = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir)
      .filter((f) => f.startsWith('calbridge.db'))
      .map((f) => [
        f,
        createHash('sha256')
          .update(readFileSync(join(dir, f)))
          .digest('hex'),
      ]),
  );

const WRITES = new Set(['insert', 'update', 'patch', 'delete']);
/**
 * The Google writes the fake took since `known` (the event ids there were), in the dry run's words
 * ("create <event id>"); an insert names its id only in its body, so it is the event that is new.
 */
function googleWrites(fake: GoogleSimulator, known: Set<string>): string[] {
  const created = fake.events(CAL, { includeDeleted: true }).filter((e) => !known.has(e.id));
  const taken = fake.log.filter((r) => WRITES.has(r.kind) && r.status < 300);
  expect(taken.filter((r) => r.kind === 'insert')).toHaveLength(created.length);
  return [
    ...created.map((e) => `create ${e.id}`),
    ...taken.filter((r) => r.kind !== 'insert').map((r) => `${r.kind === 'patch' ? 'update' : r.kind} ${r.eventId}`),
  ];
}
/** The same, from the dry run's printout. */
const listedGoogleWrites = (out: string[]) =>
  out.flatMap((l) => /^\s+google\s+(create|update|delete) event (\S+) in /.exec(l)?.slice(1, 3).join(' ') ?? []);
const bookingWrites = (sim: Simulator) => sim.requests.filter((r) => r.method !== 'GET');

it('lists what a sync would do, writes nothing anywhere, and a real sync then does exactly that', async () => {
  const env = await start();
  const { sim, fake } = env;
  const [moved, cancelled, kept, personMoved] = [slot(1), slot(2), slot(3), slot(4)].map((start, i) =>
    sim.create({ start, person: { full_name: `Person ${i + 1}` } }),
  );
  expect((await env.run('sync')).code).toBe(0);
  expect(fake.events(CAL)).toHaveLength(4);

  // What happened since: two changes at the booking service, a new appointment, a move in Google.
  sim.reschedule(moved!.appointment_key, slot(6));
  sim.cancel(cancelled!.appointment_key);
  const added = sim.create({ start: slot(8), person: { full_name: 'Person 5' } });
  const at = (ms: number) => ({ dateTime: DateTime.fromMillis(ms, { zone: TEST_ZONE }).toISO()!, timeZone: TEST_ZONE });
  fake.state.userEdit(CAL, eventIdFor(personMoved!.appointment_key), { start: at(slot(10)), end: at(slot(11)) });

  const db = files(env.dir);
  const [simSeen, fakeSeen] = [sim.requests.length, fake.log.length];
  const dry = await env.run('sync', '--dry-run');
  expect(dry.code).toBe(0);

  // Nothing written: the database files byte for byte, no write request to either service.
  expect(files(env.dir)).toEqual(db);
  expect(bookingWrites(sim).length).toBe(0);
  expect(sim.requests.length).toBeGreaterThan(simSeen); // it did read the booking service
  expect(fake.log.slice(fakeSeen).filter((r) => WRITES.has(r.kind))).toEqual([]);
  expect(fake.events(CAL)).toHaveLength(4);

  // The listing, per appointment.
  const text = dry.out.join('\n');
  const when = (ms: number) => DateTime.fromMillis(ms, { zone: TEST_ZONE }).toFormat('ccc d LLL yyyy HH:mm');
  const block = (key: string) => {
    const lines = dry.out;
    const i = lines.findIndex((l) => l.includes(`(${key})`));
    expect(i, `${key} is listed`).toBeGreaterThanOrEqual(0);
    const end = lines.findIndex((l, j) => j > i && l === '');
    return lines.slice(i, end).join('\n');
  };
  expect(text).toMatch(/^Dry run: nothing was written anywhere\./);
  expect(block(moved!.appointment_key)).toContain(`start ${when(slot(1))} → ${when(slot(6))}`);
  expect(block(moved!.appointment_key)).toMatch(
    new RegExp(`google\\s+update event ${eventIdFor(moved!.appointment_key)} in primary: "Person 1" at ${when(slot(6))}`),
  );
  expect(block(moved!.appointment_key)).toMatch(/feeds\s+Clinic: changed/);
  expect(block(cancelled!.appointment_key)).toContain('status CONFIRMED → CANCELED');
  expect(block(cancelled!.appointment_key)).toMatch(
    new RegExp(`google\\s+delete event ${eventIdFor(cancelled!.appointment_key)} in primary`),
  );
  expect(block(cancelled!.appointment_key)).toMatch(/feeds\s+Clinic: removed/);
  expect(block(added.appointment_key)).toMatch(/store\s+new, CONFIRMED/);
  expect(block(added.appointment_key)).toMatch(
    new RegExp(`google\\s+create event ${eventIdFor(added.appointment_key)} in primary: "Person 5"`),
  );
  expect(block(added.appointment_key)).toMatch(/feeds\s+Clinic: added/);
  expect(block(personMoved!.appointment_key)).toMatch(new RegExp(`booking\\s+reschedule to ${when(slot(10))}`));
  expect(text).not.toContain(`(${kept!.appointment_key})`);
  // The booking service's re-read after the reschedule is a new state, which Person 4's event already
  // shows (the person put it there): taken as it is, not written again.
  expect(block(personMoved!.appointment_key)).toContain(`start ${when(slot(4))} → ${when(slot(10))}`);
  expect(block(personMoved!.appointment_key)).not.toMatch(/google\s+update/);
  expect(text).toContain(
    'In all: store 4 appointments (1 new, 3 changed, 0 gone); google: 1 create, 1 update, 1 delete; booking service: 1 reschedule; feeds that change: Clinic.',
  );

  // A real sync now does exactly what was listed.
  fake.resetLog();
  const known = new Set(fake.events(CAL, { includeDeleted: true }).map((e) => e.id));
  expect((await env.run('sync')).code).toBe(0);
  expect(googleWrites(fake, known).sort()).toEqual(listedGoogleWrites(dry.out).sort());
  const patches = bookingWrites(sim);
  expect(patches.map((r) => `${r.method} ${r.path}`)).toEqual([`PATCH /api/v3/appointments/${personMoved!.appointment_key}/reschedule/`]);
  expect(sim.get(personMoved!.appointment_key)?.start).toBe(slot(10));

  // And after it, a dry run finds nothing left to do.
  const after = await env.run('sync', '--dry-run');
  expect(after.out.join('\n')).toContain('A sync now would change nothing.');
});

it('plans from an empty database when there is none yet, and creates none', async () => {
  const env = await start();
  const a = env.sim.create({ start: slot(1), person: { full_name: 'First' } });
  const dry = await env.run('sync', '--dry-run');
  expect(dry.code).toBe(0);
  expect(existsSync(join(env.dir, 'calbridge.db'))).toBe(false);
  expect(dry.out.join('\n')).toMatch(new RegExp(`google\\s+create event ${eventIdFor(a.appointment_key)} in primary: "First"`));
  expect(env.fake.log.filter((r) => WRITES.has(r.kind))).toEqual([]);
});

it('leaves the database and its WAL as they are while another process has it open and written', async () => {
  const env = await start();
  env.sim.create({ start: slot(1), person: { full_name: 'First' } });
  expect((await env.run('sync')).code).toBe(0);
  // As a running serve would: the database open, a write still in the WAL (not checkpointed).
  const serve = new Database(join(env.dir, 'calbridge.db'));
  cleanups.push(() => serve.close());
  serve.pragma('wal_autocheckpoint = 0');
  new KvStore(serve, systemClock).set('written-by-serve', 'x');
  env.sim.create({ start: slot(2), person: { full_name: 'Second' } });
  const { 'calbridge.db-shm': _shm, ...before } = files(env.dir);
  expect(Object.keys(before)).toContain('calbridge.db-wal');

  const dry = await env.run('sync', '--dry-run');
  expect(dry.out.join('\n')).toMatch(/google\s+create event \S+ in primary: "Second"/);
  const { 'calbridge.db-shm': _shmAfter, ...after } = files(env.dir);
  expect(after).toEqual(before);
});

it('exits 1 and names the step when one cannot be planned (Google refusing the credentials), still writing nothing', async () => {
  const env = await start();
  env.sim.create({ start: slot(1), person: { full_name: 'First' } });
  env.fake.revoke();
  const dry = await env.run('sync', '--dry-run');
  expect(dry.code).toBe(1);
  const text = dry.out.join('\n');
  expect(text).toMatch(/store\s+new, CONFIRMED/); // what could be planned is listed
  expect(text).toContain('Some steps could not be planned in full; a sync now would meet the same problems:');
  expect(text).toMatch(/google-writer\s+failed\s+authorisation failed: invalid_grant/);
  expect(existsSync(join(env.dir, 'calbridge.db'))).toBe(false);
  expect(env.fake.log.filter((r) => WRITES.has(r.kind))).toEqual([]);
});
