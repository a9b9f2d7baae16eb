// Feed storage: rendered event fragments, per-feed ETag state, and the light read of the
// appointments table that feed filters need (no whole-record parsing for 10,000 rows).
import type { Db } from './db.ts';
import type { FeedFacts } from '../feeds/feed-filter.ts';

export interface Fragment {
  revision: number;
  body: string;
}

export interface FeedRow {
  key: string;
  revision: number;
  changedAt: number;
  start: number;
  gone: boolean;
  facts: FeedFacts;
}

export interface FeedState {
  etag: string;
  lastModified: number;
}

interface RawFeedRow {
  appointment_key: string;
  revision: number;
  changed_at_ms: number;
  start_ms: number;
  gone_at_ms: number | null;
  status: string;
  calendar_key: string | null;
  client_key: string | null;
  person_key: string | null;
  services: string | null;
  tag_keys: string | null;
  owner_user: string | null;
}

export class FeedFragmentStore {
  private versionQuery: (() => unknown) | undefined;

  constructor(private readonly db: Db) {}

  load(variant: string): Map<string, Fragment> {
    const rows = this.db
      .prepare('SELECT appointment_key, revision, body FROM feed_fragments WHERE variant = ?')
      .all(variant) as { appointment_key: string; revision: number; body: string }[];
    return new Map(rows.map((r) => [r.appointment_key, { revision: r.revision, body: r.body }]));
  }

  save(variant: string, fragments: ReadonlyMap<string, Fragment>): void {
    if (fragments.size === 0) return;
    const upsert = this.db.prepare(
      `INSERT INTO feed_fragments (variant, appointment_key, revision, body) VALUES (?, ?, ?, ?)
       ON CONFLICT (variant, appointment_key) DO UPDATE SET revision = excluded.revision, body = excluded.body`,
    );
    this.db.transaction(() => {
      for (const [key, f] of fragments) upsert.run(variant, key, f.revision, f.body);
    })();
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

  /** Every appointment (gone ones too, so they can leave feeds), with only what filters read. */
  rows(): FeedRow[] {
    // json_extract parses each record once per row (SQLite caches the parse across the calls).
    const raw = this.db
      .prepare(
        `SELECT appointment_key, revision, changed_at_ms, start_ms, gone_at_ms, status, calendar_key,
                json_extract(data, '$.clientKey') AS client_key,
                json_extract(data, '$.person.personKey') AS person_key,
                json_extract(data, '$.services') AS services,
                json_extract(data, '$.tagKeys') AS tag_keys,
                json_extract(data, '$.ownerUser') AS owner_user
         FROM appointments`,
      )
      .all() as RawFeedRow[];
    return raw.map((r) => ({
      key: r.appointment_key,
      revision: r.revision,
      changedAt: r.changed_at_ms,
      start: r.start_ms,
      gone: r.gone_at_ms !== null,
      facts: {
        status: r.status,
        calendarKey: r.calendar_key,
        clientKey: r.client_key,
        personKey: r.person_key,
        serviceKeys: r.services ? (JSON.parse(r.services) as { serviceKey: string }[]).map((s) => s.serviceKey) : [],
        tagKeys: r.tag_keys ? (JSON.parse(r.tag_keys) as string[]) : [],
        ownerUser: r.owner_user,
      },
    }));
  }

  /** Changes whenever a revision grows or a row appears, whichever process wrote it. */
  appointmentsStamp(): string {
    const r = this.db.prepare('SELECT COUNT(*) AS n, TOTAL(revision) AS s FROM appointments').get() as { n: number; s: number };
    return `${r.n}:${r.s}`;
  }

  /** SQLite's PRAGMA data_version: differs after another connection (process) committed anything. */
  dataVersion(): number {
    // Asked on every feed request, so the statement is prepared once.
    if (!this.versionQuery) {
      const statement = this.db.prepare<[], number>('PRAGMA data_version').pluck();
      this.versionQuery = () => statement.get();
    }
    return this.versionQuery() as number;
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
