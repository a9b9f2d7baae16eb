// A poll's whole listing, held aside until every page has come (a listing that fails half way must
// change nothing): in a TEMP table of this connection, not in memory. A large listing as JavaScript
// strings would take a hundred megabytes or more; here SQLite keeps at most its page cache of it.
import type { Db } from './db.ts';

/** One listed record: its JSON text, its appointment key (when it has one) and its source hash. */
export interface ListedRecord {
  key: string | undefined;
  hash: string;
  text: string;
}

export class ListingSpool {
  private size = 0;
  private unchanged = 0;
  private unknown = 0;

  constructor(private readonly db: Db) {
    // Dropped and made again: a database of an earlier version may hold the table without its hash.
    db.exec('DROP TABLE IF EXISTS temp.poll_listing');
    db.exec('CREATE TEMP TABLE poll_listing (n INTEGER PRIMARY KEY, record TEXT NOT NULL)');
    // Every key listed, changed or not: what the listing missed is found against it in SQL, so a
    // pass holds neither their keys nor the stored ones in memory.
    db.exec('DROP TABLE IF EXISTS temp.poll_listed');
    db.exec('CREATE TEMP TABLE poll_listed (key TEXT PRIMARY KEY) WITHOUT ROWID');
    // The TEMP database has a page cache of its own (16 MB by default): the listing is written once
    // and read once in order, so a small one does.
    db.pragma('temp.cache_size = -1000');
  }

  /** Records listed so far. */
  get count(): number {
    return this.size;
  }

  /** Of them, the very record already stored: not kept, nothing to apply. */
  get same(): number {
    return this.unchanged;
  }

  /** Of them, those of an appointment never stored (gone ones are known): new ones, once applied. */
  get fresh(): number {
    return this.unknown;
  }

  /**
   * One page of records, in listing order. Those whose source hash is the one stored with their
   * appointment (not gone) are only counted; the rest wait here to be applied. `always`: keys kept
   * even so (they must be applied whatever they hold).
   */
  add(records: readonly ListedRecord[], always: ReadonlySet<string>): void {
    const keys = records.flatMap((r) => r.key ?? []);
    // Every stored one, gone or not: a gone one listed again is back, not new. Its hash is null then.
    const stored = new Map(
      this.db
        .prepare(
          `SELECT appointment_key, CASE WHEN gone_at_ms IS NULL THEN source_hash END FROM appointments
           WHERE appointment_key IN (SELECT value FROM json_each(?))`,
        )
        .raw()
        .all(JSON.stringify(keys)) as [string, string | null][],
    );
    const differing = records.filter((r) => r.key === undefined || always.has(r.key) || (stored.get(r.key) ?? null) !== r.hash);
    this.size += records.length;
    this.unchanged += records.length - differing.length;
    this.unknown += differing.filter((r) => r.key !== undefined && !stored.has(r.key)).length;
    const listed = this.db.prepare('INSERT OR IGNORE INTO temp.poll_listed (key) VALUES (?)');
    const insert = this.db.prepare('INSERT INTO temp.poll_listing (record) VALUES (?)');
    // Only the TEMP tables are written: no lock on the database others share.
    this.db.transaction(() => {
      for (const key of keys) listed.run(key);
      for (const r of differing) insert.run(r.text);
    })();
  }

  /** Whether the listing so far named this appointment. */
  listed(key: string): boolean {
    return this.db.prepare('SELECT 1 FROM temp.poll_listed WHERE key = ?').get(key) !== undefined;
  }

  /**
   * The stored appointments (not gone) starting in [fromMs, toMs): how many are not cancelled
   * (`isCancelled` judges a status), and those the listing did not name, with their status. Read a
   * row at a time: only the unlisted ones are kept (a handful, unless the listing is broken).
   */
  unlistedInWindow(
    fromMs: number,
    toMs: number,
    isCancelled: (status: string) => boolean,
  ): { active: number; unlisted: { key: string; status: string }[] } {
    const rows = this.db
      .prepare(
        `SELECT a.appointment_key, a.status, EXISTS (SELECT 1 FROM temp.poll_listed AS l WHERE l.key = a.appointment_key)
         FROM appointments AS a WHERE a.gone_at_ms IS NULL AND a.start_ms >= ? AND a.start_ms < ?`,
      )
      .raw()
      .iterate(fromMs, toMs) as IterableIterator<[string, string, 0 | 1]>;
    let active = 0;
    const unlisted: { key: string; status: string }[] = [];
    for (const [key, status, listed] of rows) {
      if (!isCancelled(status)) active++;
      if (!listed) unlisted.push({ key, status });
    }
    return { active, unlisted };
  }

  /** The records kept, in listing order, `size` at a time (no statement stays open between batches, so the caller may write, and wait). */
  *batches(size: number): Generator<string[]> {
    const next = this.db.prepare('SELECT n, record FROM temp.poll_listing WHERE n > ? ORDER BY n LIMIT ?').raw();
    let after = 0;
    for (;;) {
      const rows = next.all(after, size) as [number, string][];
      if (rows.length) yield rows.map(([, record]) => record);
      if (rows.length < size) return;
      after = rows.at(-1)![0];
    }
  }

  /** Empties the tables (their pages go back to SQLite's temp file). */
  close(): void {
    this.db.exec('DELETE FROM temp.poll_listing');
    this.db.exec('DELETE FROM temp.poll_listed');
    this.size = 0;
    this.unchanged = 0;
    this.unknown = 0;
  }
}
