// Feed storage: rendered event fragments, per-feed ETag state, and (feed-member-store.ts) which
// appointments each feed holds, judged from AppointmentStore's filter columns.
import type { Db } from './db.ts';
import { atomicOf } from './atomic.ts';
import { FeedMemberStore } from './feed-member-store.ts';

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
  /**
   * What else made the stored body (FeedCache's shape hash); null when a member changed since, or
   * no body was stored: the file named for the ETag may then be out of date.
   */
  shape?: string | null;
}

export class FeedFragmentStore {
  readonly members: FeedMemberStore;

  constructor(private readonly db: Db) {
    this.members = new FeedMemberStore(db);
  }

  save(variant: string, fragments: ReadonlyMap<string, Fragment>): void {
    if (fragments.size === 0) return;
    const upsert = this.db.prepare(
      `INSERT INTO feed_fragments (variant, appointment_key, revision, body) VALUES (?, ?, ?, ?)
       ON CONFLICT (variant, appointment_key) DO UPDATE SET revision = excluded.revision, body = excluded.body`,
    );
    atomicOf(this.db)(() => {
      for (const [key, f] of fragments) upsert.run(variant, key, f.revision, f.body);
    });
  }

  /** Drops fragments no configured feed can use: other variants, and gone appointments. */
  prune(keepVariants: readonly string[]): number {
    const marks = keepVariants.map(() => '?').join(', ');
    const other = keepVariants.length
      ? this.db.prepare(`DELETE FROM feed_fragments WHERE variant NOT IN (${marks})`).run(...keepVariants).changes
      : this.db.prepare('DELETE FROM feed_fragments').run().changes;
    const gone = this.db
      .prepare(
        'DELETE FROM feed_fragments WHERE appointment_key IN (SELECT appointment_key FROM appointments WHERE gone_at_ms IS NOT NULL)',
      )
      .run().changes;
    return other + gone;
  }

  state(feedId: string): FeedState | undefined {
    const row = this.db.prepare('SELECT etag, last_modified_ms, shape FROM feed_state WHERE feed_id = ?').get(feedId) as
      | { etag: string; last_modified_ms: number; shape: string | null }
      | undefined;
    return row && { etag: row.etag, lastModified: row.last_modified_ms, shape: row.shape };
  }

  setState(feedId: string, state: FeedState): void {
    this.db
      .prepare(
        `INSERT INTO feed_state (feed_id, etag, last_modified_ms, shape) VALUES (?, ?, ?, ?)
         ON CONFLICT (feed_id) DO UPDATE SET etag = excluded.etag, last_modified_ms = excluded.last_modified_ms, shape = excluded.shape`,
      )
      .run(feedId, state.etag, state.lastModified, state.shape ?? null);
  }
}
