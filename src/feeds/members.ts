// Whether an appointment belongs in a feed, given what the feed holds of it now: the one decision
// behind feed membership (kept in SQLite by FeedMemberStore). Pure: no I/O.
import { factsOf } from '../core/appointment-filter.ts';
import type { FilterRow, StoredAppointment } from '../store/appointment-store.ts';
import type { Member } from '../store/feed-member-store.ts';
import { placeInFeed, type FeedSelection } from './feed-filter.ts';

/** What the feed holds of an appointment: the two things its place and text depend on. */
export interface Held {
  start: number;
  revision: number;
}

/** put: the feed must hold this row (new, or another revision or start); remove: it must not; undefined: nothing changes. */
export function memberChange(held: Held | undefined, row: FilterRow, feed: FeedSelection): 'put' | 'remove' | undefined {
  if (placeInFeed(row.facts, row.gone, feed) === 'absent') return held ? 'remove' : undefined;
  return held && held.revision === row.revision && held.start === row.start ? undefined : 'put';
}

export function memberOf(row: FilterRow): Member {
  return { key: row.key, start: row.start, revision: row.revision, changedAt: row.changedAt };
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
