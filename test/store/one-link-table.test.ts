// Migration 021: the links of every calendar target in one table, keyed by account. A database
// from before it keeps every link, every reverse-sync action and every saved cursor, now under the
// account they belong to (google.default, caldav.default, microsoft.default). SQL here seeds the old schema only.
import { expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.ts';
import { AppointmentStore } from '../../src/store/appointment-store.ts';
import { loadMigrations, migrate, schemaVersion } from '../../src/store/db.ts';
import { KvStore } from '../../src/store/kv-store.ts';
import { LinkStore } from '../../src/store/link-store.ts';
import { RescheduleStore } from '../../src/store/reschedule-store.ts';
import { testAppointment } from '../helpers/appointment.ts';
import { oldDatabases } from './old-databases.ts';

const databases = oldDatabases('calbridge-links-');

const LINK = `INSERT INTO %s (appointment_key, calendar_id, event_id, generation, present, written_hash, etag, written_start_ms, written_end_ms,
  written_revision, attempts, next_attempt_ms, last_error, updated_at_ms, deferred_etag, deferred_since_ms, write_started_ms, failed_hash)
  VALUES (?, ?, ?, 2, 1, 'h1', '"e1"', 1000, 2000, 3, 1, 5000, 'HTTP 503', 900, '"d"', 800, 700, 'f1')`;

it('moves every Google, CalDAV and Microsoft link, action and cursor to its account, losing nothing', () => {
  const { db } = databases.atSchema(19, { foreignKeys: true });
  const clock = new ManualClock(10_000);
  const [a, b] = [testAppointment({ key: 'apt-a' }), testAppointment({ key: 'apt-b' })];
  const appointments = new AppointmentStore(db, clock);
  appointments.upsert(a);
  appointments.upsert(b);
  db.prepare(LINK.replace('%s', 'google_links')).run(a.key, 'primary', 'evA');
  db.prepare(LINK.replace('%s', 'google_links')).run(b.key, 'primary', 'evB');
  db.prepare(LINK.replace('%s', 'caldav_links')).run(a.key, 'Clinic', `${a.key}.ics`);
  db.prepare(LINK.replace('%s', 'microsoft_links')).run(b.key, 'ana@clinic.example/Calendar', b.key);
  const action = `INSERT INTO reschedules (appointment_key, kind, new_start_ms, new_end_ms, state, created_at_ms, updated_at_ms, target)
    VALUES (?, 'reschedule', 3000, 4000, 'pending', 1, 1, ?)`;
  db.prepare(action).run(a.key, 'google');
  db.prepare(action).run(a.key, 'caldav');
  db.prepare(action).run(b.key, 'microsoft');
  const cursor = db.prepare('INSERT INTO sync_cursors (name, value, updated_at_ms) VALUES (?, ?, 1)');
  cursor.run('google.writer', '{"lastPassAt":1}');
  cursor.run('reverse_sync.last_round', '{"lastAt":2}');
  cursor.run('google.reverse.sync_token:primary', '"token-1"');
  cursor.run('caldav.writer', '{"lastPassAt":3}');
  cursor.run('caldav.reverse_sync.last_round', '{"lastAt":4}');
  cursor.run('caldav.reverse.cursor:Clinic', '"sync-token-2"');
  cursor.run('microsoft.writer', '{"lastPassAt":5}');
  cursor.run('microsoft.reverse_sync.last_round', '{"lastAt":6}');
  cursor.run('microsoft.reverse.cursor:ana@clinic.example/Calendar', '"delta-3"');

  migrate(db);
  expect(schemaVersion(db)).toBe(loadMigrations().at(-1)!.version);
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
    .all()
    .map((r) => (r as { name: string }).name);
  expect(tables).toContain('links');
  expect(tables).not.toContain('google_links');
  expect(tables).not.toContain('caldav_links');
  expect(tables).not.toContain('microsoft_links');

  const google = new LinkStore(db, clock, 'google.default');
  const caldav = new LinkStore(db, clock, 'caldav.default');
  const every = {
    generation: 2,
    present: true,
    writtenHash: 'h1',
    etag: '"e1"',
    writtenStart: 1000,
    writtenEnd: 2000,
    writtenRevision: 3,
    attempts: 1,
    nextAttemptMs: 5000,
    lastError: 'HTTP 503',
    updatedAt: 900,
    deferral: { etag: '"d"', since: 800 },
    writeInFlight: true,
    failedContent: 'f1',
  };
  expect(google.get(a.key)).toEqual({ appointmentKey: a.key, calendarId: 'primary', eventId: 'evA', ...every });
  expect(google.byEvent('primary', 'evB')?.appointmentKey).toBe(b.key);
  expect(caldav.get(a.key)).toEqual({ appointmentKey: a.key, calendarId: 'Clinic', eventId: `${a.key}.ics`, ...every });
  expect(caldav.get(b.key)).toBeUndefined();
  const microsoft = new LinkStore(db, clock, 'microsoft.default');
  expect(microsoft.get(b.key)).toEqual({ appointmentKey: b.key, calendarId: 'ana@clinic.example/Calendar', eventId: b.key, ...every });
  expect(microsoft.get(a.key)).toBeUndefined();
  expect([google.counts(), caldav.counts()]).toEqual([
    { mirrored: 2, failed: 2 },
    { mirrored: 1, failed: 1 },
  ]);

  expect(new RescheduleStore(db, clock, 'google.default').due().map((r) => r.appointmentKey)).toEqual([a.key]);
  expect(new RescheduleStore(db, clock, 'caldav.default').due().map((r) => r.appointmentKey)).toEqual([a.key]);
  expect(new RescheduleStore(db, clock, 'microsoft.default').due().map((r) => r.appointmentKey)).toEqual([b.key]);

  const cursors = new KvStore(db, clock, 'sync_cursors');
  expect(cursors.get('google.default.writer')).toEqual({ lastPassAt: 1 });
  expect(cursors.get('google.default.reverse_sync.last_round')).toEqual({ lastAt: 2 });
  expect(cursors.get('google.default.reverse.cursor:primary')).toBe('token-1');
  expect(cursors.get('caldav.default.writer')).toEqual({ lastPassAt: 3 });
  expect(cursors.get('caldav.default.reverse_sync.last_round')).toEqual({ lastAt: 4 });
  expect(cursors.get('caldav.default.reverse.cursor:Clinic')).toBe('sync-token-2');
  expect(cursors.get('microsoft.default.writer')).toEqual({ lastPassAt: 5 });
  expect(cursors.get('microsoft.default.reverse_sync.last_round')).toEqual({ lastAt: 6 });
  expect(cursors.get('microsoft.default.reverse.cursor:ana@clinic.example/Calendar')).toBe('delta-3');
  expect(cursors.get('google.writer')).toBeUndefined();
  db.close();
});
