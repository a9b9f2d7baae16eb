// Which appointments one feed holds right now, kept as a map from appointment key to what the
// feed's body depends on. A row goes in or out by the feed's filters (feed-filter.ts).
import { factsOf } from '../core/appointment-filter.ts';
import type { FilterRow, StoredAppointment } from '../store/appointment-store.ts';
import { placeInFeed, type FeedSelection } from './feed-filter.ts';

export interface Member {
  start: number;
  revision: number;
  changedAt: number;
}

export type Members = Map<string, Member>;

/** Puts one appointment in or out of a feed's members; true when that changed the feed. */
export function placeRow(members: Members, row: FilterRow, feed: FeedSelection): boolean {
  const had = members.get(row.key);
  if (placeInFeed(row.facts, row.gone, feed) === 'absent') return had !== undefined && members.delete(row.key);
  if (had && had.revision === row.revision && had.start === row.start) return false;
  members.set(row.key, { start: row.start, revision: row.revision, changedAt: row.changedAt });
  return true;
}

export function sameMembers(a: Members, b: Members): boolean {
  if (a.size !== b.size) return false;
  for (const [key, m] of b) {
    const o = a.get(key);
    if (!o || o.revision !== m.revision || o.start !== m.start) return false;
  }
  return true;
}

export function rowOf(s: StoredAppointment): FilterRow {
  return {
    key: s.appointment.key,
    revision: s.revision,
    changedAt: s.changedAt,
    start: s.appointment.start,
    gone: s.goneAt !== null,
    facts: factsOf(s.appointment),
  };
}

/** Feed order: by start, then key, so equal inputs always give the same body. */
export function inFeedOrder(members: Members): [string, Member][] {
  return [...members].sort(([ka, a], [kb, b]) => a.start - b.start || (ka < kb ? -1 : ka > kb ? 1 : 0));
}
