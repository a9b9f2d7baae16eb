// Which appointments each feed holds (migration 013): the rows a feed's body is assembled from, in
// feed order, and what tells whether a change touched the feed. Kept in SQLite rather than in maps
// of every appointment, so an idle daemon holds nothing that grows with what is stored.
import type { Db } from './db.ts';
import { atomicOf } from './atomic.ts';

/** What a feed's body depends on, per appointment it shows. */
export interface Member {
  key: string;
  start: number;
  revision: number;
  changedAt: number;
}

/** One feed's changes to its members, written together with the other feeds' in one transaction. */
export interface MemberChanges {
  feedId: string;
  put: Member[];
  remove: string[];
}

/** A member's place in feed order. */
export interface FeedPlace {
  start: number;
  key: string;
}

export interface FeedOrderRow extends FeedPlace {
  /** The stored fragment ('' when there is none). */
  body: string;
  changedAt: number;
}

export interface MemberSummary {
  events: number;
  /** The newest change among the members, or null when the feed is empty. */
  lastChange: number | null;
}

export class FeedMemberStore {
  constructor(private readonly db: Db) {}

  /** What the feed holds of these keys (those it holds). */
  heldOf(feedId: string, keys: readonly string[]): Map<string, { start: number; revision: number }> {
    if (keys.length === 0) return new Map();
    const rows = this.db
      .prepare(
        `SELECT appointment_key, start_ms, revision FROM feed_members WHERE feed_id = ? AND appointment_key IN (${keys.map(() => '?').join(', ')})`,
      )
      .raw()
      .all(feedId, ...keys) as [string, number, number][];
    return new Map(rows.map(([key, start, revision]) => [key, { start, revision }]));
  }

  /** Members with a key after `after` up to `upTo` (to the end when null), in SQLite's key order. */
  range(feedId: string, after: string, upTo: string | null): Map<string, { start: number; revision: number }> {
    const rows = (
      upTo === null
        ? this.db
            .prepare('SELECT appointment_key, start_ms, revision FROM feed_members WHERE feed_id = ? AND appointment_key > ?')
            .raw()
            .all(feedId, after)
        : this.db
            .prepare(
              'SELECT appointment_key, start_ms, revision FROM feed_members WHERE feed_id = ? AND appointment_key > ? AND appointment_key <= ?',
            )
            .raw()
            .all(feedId, after, upTo)
    ) as [string, number, number][];
    return new Map(rows.map(([key, start, revision]) => [key, { start, revision }]));
  }

  /**
   * Writes the changes; a feed whose members changed loses its stored body's claim (feed_state.shape)
   * in the same transaction, so a restart never serves a body older than its members.
   */
  apply(changes: readonly MemberChanges[]): void {
    const put = this.db.prepare(
      `INSERT INTO feed_members (feed_id, appointment_key, start_ms, revision, changed_at_ms) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (feed_id, appointment_key) DO UPDATE SET start_ms = excluded.start_ms, revision = excluded.revision, changed_at_ms = excluded.changed_at_ms`,
    );
    const remove = this.db.prepare('DELETE FROM feed_members WHERE feed_id = ? AND appointment_key = ?');
    const forget = this.db.prepare('UPDATE feed_state SET shape = NULL WHERE feed_id = ?');
    atomicOf(this.db)(() => {
      for (const c of changes) {
        if (c.put.length === 0 && c.remove.length === 0) continue;
        for (const m of c.put) put.run(c.feedId, m.key, m.start, m.revision, m.changedAt);
        for (const key of c.remove) remove.run(c.feedId, key);
        forget.run(c.feedId);
      }
    });
  }

  /**
   * Drops the members of feeds no longer configured. Finds the stored feeds by seeking the primary
   * key from one to the next rather than reading every member: with many appointments, `NOT IN`
   * over the table held the event loop noticeably on each start.
   */
  keepOnly(feedIds: readonly string[]): void {
    const keep = new Set(feedIds);
    const next = this.db.prepare<[string], string>('SELECT feed_id FROM feed_members WHERE feed_id > ? ORDER BY feed_id LIMIT 1').pluck();
    const drop = this.db.prepare('DELETE FROM feed_members WHERE feed_id = ?');
    for (let id = next.get(''); id !== undefined; id = next.get(id)) if (!keep.has(id)) drop.run(id);
  }

  summary(feedId: string): MemberSummary {
    const row = this.db
      .prepare('SELECT COUNT(*) AS events, MAX(changed_at_ms) AS lastChange FROM feed_members WHERE feed_id = ?')
      .get(feedId) as MemberSummary;
    return { events: row.events, lastChange: row.lastChange };
  }

  /**
   * Up to `limit` members after `after` (key order) whose fragment for `variant` is missing or of
   * another revision: what must be rendered before the feed is assembled.
   */
  unrendered(feedId: string, variant: string, after: string, limit: number): { key: string; revision: number }[] {
    return this.db
      .prepare(
        `SELECT m.appointment_key AS key, m.revision AS revision FROM feed_members m
         LEFT JOIN feed_fragments f ON f.variant = ? AND f.appointment_key = m.appointment_key
         WHERE m.feed_id = ? AND m.appointment_key > ? AND (f.revision IS NULL OR f.revision != m.revision)
         ORDER BY m.appointment_key LIMIT ?`,
      )
      .all(variant, feedId, after, limit) as { key: string; revision: number }[];
  }

  /**
   * Up to `limit` of the feed's fragments in feed order (by start, then key, so equal inputs give the
   * same body) after the member `after` (from the first when null), with each member's change time
   * and place: read at once, so the assembly can let the event loop go between pages.
   */
  feedOrderPage(feedId: string, variant: string, after: FeedPlace | null, limit: number): FeedOrderRow[] {
    return this.db
      .prepare(
        `SELECT COALESCE(f.body, '') AS body, m.changed_at_ms AS changedAt, m.start_ms AS start, m.appointment_key AS key FROM feed_members m
         LEFT JOIN feed_fragments f ON f.variant = ? AND f.appointment_key = m.appointment_key
         WHERE m.feed_id = ? AND (m.start_ms, m.appointment_key) > (?, ?) ORDER BY m.start_ms, m.appointment_key LIMIT ?`,
      )
      .all(variant, feedId, after?.start ?? Number.MIN_SAFE_INTEGER, after?.key ?? '', limit) as FeedOrderRow[];
  }
}
