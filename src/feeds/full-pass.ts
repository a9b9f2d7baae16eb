// One pass over every stored appointment row, bringing each feed's stored members (SQLite) up to
// date: after a restart, when another process committed, or when more changed at once than is read
// key by key. A page at a time with the event loop let go between slices (slice.ts): in one piece,
// 100,000 appointments held webhooks and /healthz 0.4 s (nothing to change) to 0.9 s (every member new).
import type { AppointmentStore } from '../store/appointment-store.ts';
import type { FeedMemberStore, MemberChanges } from '../store/feed-member-store.ts';
import type { FeedSelection } from './feed-filter.ts';
import { memberChange, memberOf, type Held } from './members.ts';

// Rows read per page (of a pass, of an assembly). Small on purpose: what survives a young-generation
// collection (a small young generation under serve's runtime settings) moves to the old
// generation, which grows and does not give its pages back; larger pages left the process
// measurably bigger after one pass over many appointments.
export const PAGE = 200;

export interface PassFeed {
  /** The feed's identity in storage. */
  id: string;
  feed: FeedSelection;
}

export class FullPass {
  /** Rows up to this key (SQLite's order) are done; '' before the first page. */
  private after = '';
  /** The last page is stored: nothing is ahead any more (the pass's promise settles a little later). */
  private ended = false;

  constructor(
    private readonly appointments: AppointmentStore,
    private readonly members: FeedMemberStore,
    private readonly feeds: readonly PassFeed[],
    /** Stores the changes of one page, all feeds together. */
    private readonly apply: (changes: MemberChanges[]) => void,
  ) {}

  /**
   * Whether the pass has yet to read this key's row: a change to it needs no note, as the pass reads
   * the row as it is then. A row it already passed must be looked at again after it.
   */
  ahead(key: string): boolean {
    return !this.ended && sortsAfter(key, this.after);
  }

  /**
   * Too many rows behind the pass changed to keep their keys: it goes on from the first row again.
   * False when it has already ended (another pass is needed).
   */
  restart(): boolean {
    this.after = '';
    return !this.ended;
  }

  /**
   * The next page of rows and the members in the same key range, judged and stored; true after the
   * last. Between two pages anything may change (the caller lets the event loop go); a page is one
   * synchronous step.
   */
  page(): boolean {
    const after = this.after;
    const rows = this.appointments.filterRowPage(after, PAGE);
    // Up to the last row read; after a short page, to the end (members of rows that went away).
    const upTo = rows.length === PAGE ? rows[rows.length - 1]!.key : null;
    const changes = this.feeds.map((f): MemberChanges => {
      const held: Map<string, Held> = this.members.range(f.id, after, upTo);
      const put = [];
      for (const row of rows) {
        const change = memberChange(held.get(row.key), row, f.feed);
        if (change === 'put') put.push(memberOf(row));
        // What is left in `held` leaves the feed: rows it no longer shows, and rows that are gone.
        if (change !== 'remove') held.delete(row.key);
      }
      return { feedId: f.id, put, remove: [...held.keys()] };
    });
    this.apply(changes);
    if (upTo === null) return (this.ended = true);
    this.after = upTo;
    return false;
  }
}

/**
 * SQLite's order of TEXT keys (BINARY: the bytes of UTF-8), which JavaScript's `>` (UTF-16 units)
 * differs from for characters past U+FFFF: a key taken as ahead that the pass already read would be
 * a change lost.
 */
function sortsAfter(a: string, b: string): boolean {
  return Buffer.compare(Buffer.from(a), Buffer.from(b)) > 0;
}
