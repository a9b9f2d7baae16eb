// Feed storage: rendered event fragments and per-feed ETag state. Which appointments a feed holds
// comes from AppointmentStore.filterRows (stored columns, no whole-record parsing for 10,000 rows).
import type { Db } from './db.ts';

export interface Fragment {
  revision: number;
  body: string;
}

/** What a feed last served: kept so Last-Modified grows when an event leaves and survives a restart. */
export interface FeedState {
  /** The body's hash (the strong ETag's value). */
  etag: string;
  /** Epoch ms, whole seconds. */
  lastModified: number;
}

export class FeedFragmentStore {
  constructor(private readonly db: Db) {}

  /** Which revision of each appointment is rendered: the bodies stay on disk until a feed is assembled. */
  revisions(variant: string): Map<string, number> {
    const rows = this.db
      .prepare('SELECT appointment_key, revision FROM feed_fragments WHERE variant = ?')
      .raw()
      .all(variant) as [string, number][];
    return new Map(rows);
  }

  body(variant: string, key: string): string | undefined {
    return this.db.prepare('SELECT body FROM feed_fragments WHERE variant = ? AND appointment_key = ?').pluck().get(variant, key) as string | undefined;
  }

  save(variant: string, fragments: ReadonlyMap<string, Fragment>): void {
    if (fragments.size === 0) return;
    const upsert = this.db.prepare(
      `INSERT INTO feed_fragments (variant, appointment_key, revision, body) VALUES (?, ?, ?, ?)
       ON CONFLICT (variant, appointment_key) DO UPDATE SET revision = excluded.revision, body = excluded.body`,
    );
    this.db.transaction(() => {
      for (const [key, f] of fragments) upsert.run(variant, key, f.revision, f.body);
    }).immediate();
  }

  /** Drops fragments no configured feed can use: other variants, and gone appointments. */
  prune(keepVariants: readonly string[]): number {
    const marks = keepVariants.map(() => '?').join(', ');
    const other = keepVariants.length
      ? this.db.prepare(`DELETE FROM feed_fragments WHERE variant NOT IN (${marks})`).run(...keepVariants).changes
      : this.db.prepare('DELETE FROM feed_fragments').run().changes;
    const gone = this.db
      .prepare('DELETE FROM feed_fragments WHERE appointment_key IN (SELECT appointment_key FROM appointments WHERE gone_at_ms IS NOT NULL)')
      .run().changes;
    return other + gone;
  }

  state(feedId: string): FeedState | undefined {
    const row = this.db.prepare('SELECT etag, last_modified_ms FROM feed_state WHERE feed_id = ?').get(feedId) as
      | { etag: string; last_modified_ms: number }
      | undefined;
    return row && { etag: row.etag, lastModified: row.last_modified_ms };
  }

  setState(feedId: string, state: FeedState): void {
    this.db
      .prepare(
        `INSERT INTO feed_state (feed_id, etag, last_modified_ms) VALUES (?, ?, ?)
         ON CONFLICT (feed_id) DO UPDATE SET etag = excluded.etag, last_modified_ms = excluded.last_modified_ms`,
      )
      .run(feedId, state.etag, state.lastModified);
  }
}
