// A poll's whole listing, held aside until every page has come (a listing that fails half way must
// change nothing): in a TEMP table of this connection, not in memory. 100,000 records as JavaScript
// strings were 100 to 200 MB; here SQLite keeps at most its page cache of them in memory.
import type { Db } from './db.ts';

/** One listed record: its JSON text, its appointment key (when it has one) and its source hash. */
export interface ListedRecord {
  key: string | undefined;
  hash: string;
  text: string;
}

export class ListingSpool {
  private size = 0;

  constructor(private readonly db: Db) {
    // Dropped and made again: a database of an earlier version may hold the table without key and hash.
    db.exec('DROP TABLE IF EXISTS temp.poll_listing');
    db.exec('CREATE TEMP TABLE poll_listing (n INTEGER PRIMARY KEY, appointment_key TEXT, source_hash TEXT NOT NULL, record TEXT NOT NULL)');
    // The TEMP database has a page cache of its own (16 MB by default): the listing is written once
    // and read once in order, so a small one does.
    db.pragma('temp.cache_size = -1000');
  }

  get count(): number {
    return this.size;
  }

  /** One page of records, in listing order. */
  add(records: readonly ListedRecord[]): void {
    const insert = this.db.prepare('INSERT INTO temp.poll_listing (appointment_key, source_hash, record) VALUES (?, ?, ?)');
    // Only the TEMP table is written: no lock on the database others share.
    this.db.transaction(() => {
      for (const r of records) insert.run(r.key ?? null, r.hash, r.text);
    })();
    this.size += records.length;
  }

  /**
   * The records that differ from what is stored, in listing order, `size` at a time: new keys, rows
   * stored from another record (or with no source hash), gone rows, records without a key, and the
   * keys in `always`. The rest, the same record as stored, are compared in SQL and never leave it.
   * No statement stays open between batches, so the caller may write (and wait) in between.
   */
  *differing(always: readonly string[], size: number): Generator<string[]> {
    const next = this.db
      .prepare(
        `SELECT l.n, l.record FROM temp.poll_listing l LEFT JOIN appointments a ON a.appointment_key = l.appointment_key
         WHERE l.n > ? AND (a.source_hash IS NULL OR a.source_hash != l.source_hash OR a.gone_at_ms IS NOT NULL
                            OR l.appointment_key IN (SELECT value FROM json_each(?)))
         ORDER BY l.n LIMIT ?`,
      )
      .raw();
    const keys = JSON.stringify(always);
    let after = 0;
    for (;;) {
      const rows = next.all(after, keys, size) as [number, string][];
      if (rows.length) yield rows.map(([, record]) => record);
      if (rows.length < size) return;
      after = rows.at(-1)![0];
    }
  }

  /** Empties the table (its pages go back to SQLite's temp file). */
  close(): void {
    this.db.exec('DELETE FROM temp.poll_listing');
    this.size = 0;
  }
}
