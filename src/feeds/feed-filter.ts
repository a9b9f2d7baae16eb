// Which stored appointments a feed shows (docs/reference/configuration.md, "Filters"). The filters are judged
// by the one filter engine (core/appointment-filter.ts); a feed shows only what it knows to match.
// Pure: no I/O.
import { isCancelled } from '../core/appointment.ts';
import { judge, type FilterFacts } from '../core/appointment-filter.ts';
import type { FeedFilters } from '../config/schema.ts';

/** show: a normal event; cancelled: shown as STATUS:CANCELLED; absent: not in the feed. */
export type Placement = 'show' | 'cancelled' | 'absent';

export interface FeedSelection {
  filters: FeedFilters;
  include_cancelled: boolean;
}

/**
 * Filters select first; include_cancelled then decides about the cancelled ones among them.
 * A gone appointment (404, or out of the mirrored scope) is no longer ours to show: it leaves the
 * feed even with include_cancelled, since we cannot claim it was cancelled.
 */
export function placeInFeed(f: FilterFacts, gone: boolean, feed: FeedSelection): Placement {
  if (gone || judge(f, feed.filters).kind !== 'match') return 'absent';
  if (!isCancelled(f.status)) return 'show';
  return feed.include_cancelled ? 'cancelled' : 'absent';
}
