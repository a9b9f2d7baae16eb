// Migration 015: deliveries deduplicated among pending rows only, keyed by 16 bytes of the body's
// SHA-256. A database written by the release before (hex keys, one unique index over every row)
// is upgraded with nothing lost: a repeat of a delivery still pending is still a duplicate.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { openDatabase } from '../../src/store/db.ts';
import { DeliveryStore } from '../../src/store/delivery-store.ts';
import { dedupeKeyOf } from '../../src/http/webhook-routes.ts';
import { oldDatabases } from './old-databases.ts';

const databases = oldDatabases('calbridge-015-');

const bodyOf = (n: number) => Buffer.from(JSON.stringify({ event: 'appointment.updated', appointment_key: `a${n}`, n }));

describe('migration 015: deliveries deduplicated while pending', () => {
  it('upgrades a database of hex keys: rows, states and counts kept; a repeat of a pending one is still a duplicate', () => {
    const { db: old, path } = databases.atSchema(14);
    const insert = old.prepare(
      `INSERT INTO deliveries (dedupe_key, appointment_key, event, body, received_at_ms, state, attempts, processed_at_ms, last_error)
       VALUES (?, ?, 'appointment.updated', ?, ?, ?, ?, ?, ?)`,
    );
    const hex = (n: number) => createHash('sha256').update(bodyOf(n)).digest('hex');
    insert.run(hex(1), 'a1', bodyOf(1).toString(), 1000, 'pending', 0, null, null);
    insert.run(hex(2), 'a2', bodyOf(2).toString(), 1100, 'pending', 2, null, 'the booking service did not answer');
    insert.run(hex(3), 'a3', '', 1200, 'done', 1, 1300, null);
    insert.run(hex(4), 'a4', '', 1200, 'failed', 1, 1300, 'unreadable');
    insert.run('not-a-digest', 'a5', '', 1200, 'done', 1, 1300, null); // a key the code before never made, kept as it was
    const before = old
      .prepare('SELECT id, appointment_key, body, received_at_ms, state, attempts, last_error, processed_at_ms FROM deliveries ORDER BY id')
      .all();
    old.close();

    const db = openDatabase(path);
    const store = new DeliveryStore(db);
    expect(
      db
        .prepare(
          'SELECT id, appointment_key, body, received_at_ms, state, attempts, last_error, processed_at_ms FROM deliveries ORDER BY id',
        )
        .all(),
    ).toEqual(before);
    expect(store.counts()).toMatchObject({ pending: 2, retrying: 1, done: 2, failed: 1 });
    expect(db.prepare('SELECT dedupe_key FROM deliveries WHERE appointment_key = ?').pluck().get('a1')).toEqual(dedupeKeyOf(bodyOf(1)));

    const repeat = (n: number, at: number) => ({
      dedupeKey: dedupeKeyOf(bodyOf(n)),
      appointmentKey: `a${n}`,
      event: 'appointment.updated',
      body: bodyOf(n).toString(),
      receivedAt: at,
    });
    // still pending: a duplicate, as before the upgrade; processed: stored again, as a new row
    expect(store.insertMany([repeat(1, 2000), repeat(2, 2000), repeat(3, 2000)])).toEqual([false, false, true]);
    expect(store.counts()).toMatchObject({ pending: 3, done: 2, failed: 1 });
    const indexes = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'deliveries' ORDER BY name")
      .pluck()
      .all();
    expect(indexes).toEqual([
      'deliveries_fresh',
      'deliveries_processed',
      'deliveries_retry_due',
      'deliveries_retry_since',
      'deliveries_with_error',
    ]);
    db.close();
  });
});
