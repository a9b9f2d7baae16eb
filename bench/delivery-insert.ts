// The receiver's commit on its own: DeliveryStore.insertMany in batches of 10 (about what a busy
// receiver's group commit holds; see delivery-writer.ts), on a database that already keeps 70,000
// processed deliveries (what retention keeps of a busy week) and on a fresh one. The baseline in
// the same run are the table as migration 015 left it (a unique index of the pending rows' keys, and
// two indexes of pending rows, each written by every insert; migrations 016 and 017 replaced them)
// and as it was before 015 (a unique index of 64-character hex keys over every delivery kept).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { loadMigrations, migrate, openDatabase, type Db } from '../src/store/db.ts';
import { DeliveryStore } from '../src/store/delivery-store.ts';
import { dedupeKeyOf } from '../src/http/webhook-routes.ts';

const BATCH = 10;
const MEASURED = 20_000;
const KEPT = 70_000;

const body = () =>
  Buffer.from(
    JSON.stringify({ event: 'appointment.updated', data: { appointment_key: `a-${randomUUID()}` }, sent_at: new Date().toISOString() }),
  );

interface Inserter {
  insert(bodies: Buffer[]): void;
}

function current(db: Db): Inserter {
  const store = new DeliveryStore(db);
  return {
    insert: (bodies) =>
      void store.insertMany(
        bodies.map((b) => ({
          dedupeKey: dedupeKeyOf(b),
          appointmentKey: 'a',
          event: 'appointment.updated',
          body: b.toString(),
          receivedAt: Date.now(),
        })),
      ),
  };
}

/** The insert of migration 015's schema: duplicates among pending rows found by their unique index. */
function at015(db: Db): Inserter {
  const insert = db.prepare(
    `INSERT INTO deliveries (dedupe_key, appointment_key, event, body, received_at_ms, next_attempt_ms) VALUES (?, ?, ?, ?, ?, 0)
     ON CONFLICT (dedupe_key) WHERE state = 'pending' DO NOTHING RETURNING id`,
  );
  const seenAgain = db.prepare(`UPDATE deliveries SET last_seen_ms = ? WHERE dedupe_key = ? AND state = 'pending'`);
  const many = db.transaction((bodies: Buffer[]) =>
    bodies.map((b) => {
      const key = dedupeKeyOf(b);
      return insert.get(key, 'a', 'appointment.updated', b.toString(), Date.now()) ?? seenAgain.run(Date.now(), key);
    }),
  );
  return { insert: (bodies) => void many.immediate(bodies) };
}

/** The insert before migration 015 (hex keys, re-queueing a processed row in place), for the baseline. */
function before015(db: Db): Inserter {
  const insert = db.prepare(
    `INSERT INTO deliveries (dedupe_key, appointment_key, event, body, received_at_ms, next_attempt_ms) VALUES (?, ?, ?, ?, ?, 0)
     ON CONFLICT (dedupe_key) DO UPDATE SET state = 'pending', next_attempt_ms = 0, received_at_ms = excluded.received_at_ms,
       body = excluded.body, processed_at_ms = NULL, last_error = NULL WHERE state != 'pending' RETURNING id`,
  );
  const many = db.transaction((bodies: Buffer[]) =>
    bodies.map((b) => insert.get(createHash('sha256').update(b).digest('hex'), 'a', 'appointment.updated', b.toString(), Date.now())),
  );
  return { insert: (bodies) => void many.immediate(bodies) };
}

/** Opened as openDatabase opens one, migrated only up to `last`. */
function olderDatabase(path: string, last: number): Db {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('cache_size = -2000');
  migrate(
    db,
    loadMigrations().filter((m) => m.version <= last),
  );
  return db;
}

type Schema = 'current' | '015' | 'before 015';
const SCHEMAS: Record<Schema, { open(path: string): Db; inserter(db: Db): Inserter }> = {
  current: { open: (path) => openDatabase(path), inserter: current },
  '015': { open: (path) => olderDatabase(path, 15), inserter: at015 },
  'before 015': { open: (path) => olderDatabase(path, 14), inserter: before015 },
};

/** µs of wall time and of CPU per stored delivery. */
function measure(schema: Schema, kept: number): { wall: number; cpu: number } {
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-insert-'));
  try {
    const db = SCHEMAS[schema].open(join(dir, 'x.db'));
    const inserter = SCHEMAS[schema].inserter(db);
    for (let i = 0; i < kept; i += 500) inserter.insert(Array.from({ length: 500 }, body));
    db.exec(`UPDATE deliveries SET state = 'done', processed_at_ms = received_at_ms, body = ''`);
    const batches = Array.from({ length: MEASURED / BATCH }, () => Array.from({ length: BATCH }, body));
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (const b of batches) inserter.insert(b);
    const wall = ((performance.now() - t0) * 1000) / MEASURED;
    const c = process.cpuUsage(c0);
    db.close();
    return { wall, cpu: (c.user + c.system) / MEASURED };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function deliveryInsertRows(): string[] {
  const cell = (m: { wall: number; cpu: number }) => `${m.wall.toFixed(1)} µs (CPU ${m.cpu.toFixed(1)} µs)`;
  // Twice each, in turns, the better of two: the machine is shared.
  const best = (f: () => { wall: number; cpu: number }) => [f(), f()].sort((a, b) => a.wall - b.wall)[0]!;
  const rows: [string, number][] = [
    ['a fresh database', 0],
    [`${KEPT.toLocaleString('en')} processed deliveries kept`, KEPT],
  ];
  return [
    `The receiver's commit alone (DeliveryStore.insertMany, batches of ${BATCH}, ${MEASURED.toLocaleString('en')} deliveries, in one process), per delivery:`,
    '',
    '| database | now | migration 015 (same run) | before migration 015 (same run) |',
    '|---|---:|---:|---:|',
    ...rows.map(
      ([name, kept]) =>
        `| ${name} | ${cell(best(() => measure('current', kept)))} | ${cell(best(() => measure('015', kept)))} | ${cell(best(() => measure('before 015', kept)))} |`,
    ),
  ];
}
