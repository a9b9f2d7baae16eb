// A poll's whole listing, held aside until every page has come (a listing that fails half way must
// change nothing): in a TEMP table of this connection, not in memory. 100,000 records as JavaScript
// strings were 100 to 200 MB; here SQLite keeps at most its page cache of them in memory.
import type { Db } from './db.ts';

const BATCH = 500;

export class ListingSpool {
  private size = 0;

  constructor(private readonly db: Db) {
    db.exec('CREATE TEMP TABLE IF NOT EXISTS poll_listing (n INTEGER PRIMARY KEY, record TEXT NOT NULL)');
    // The TEMP database has a page cache of its own (16 MB by default): the listing is written once
    // and read once in order, so a small one does.
    db.pragma('temp.cache_size = -1000');
    db.exec('DELETE FROM temp.poll_listing');
  }

  get count(): number {
    return this.size;
  }

  /** One page of records, as JSON text, in listing order. */
  add(records: readonly string[]): void {
    const insert = this.db.prepare('INSERT INTO temp.poll_listing (record) VALUES (?)');
    // Only the TEMP table is written: no lock on the database others share.
    this.db.transaction(() => {
      for (const r of records) insert.run(r);
    })();
    this.size += records.length;
  }

  /** The records in listing order, read a batch at a time (no statement stays open between batches, so the caller may write). */
  *records(): Generator<string> {
    const next = this.db.prepare('SELECT n, record FROM temp.poll_listing WHERE n > ? ORDER BY n LIMIT ?').raw();
    let after = 0;
    for (;;) {
      const rows = next.all(after, BATCH) as [number, string][];
      for (const [, record] of rows) yield record;
      if (rows.length < BATCH) return;
      after = rows.at(-1)![0];
    }
  }

  /** Empties the table (its pages go back to SQLite's temp file). */
  close(): void {
    this.db.exec('DELETE FROM temp.poll_listing');
    this.size = 0;
  }
}
