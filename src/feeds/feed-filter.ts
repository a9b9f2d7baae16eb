// Which stored appointments a feed shows (contract §2 feeds[].filters, §4). Pure: no I/O.
import { isCancelled, type Appointment } from '../core/appointment.ts';
import type { FeedFilters } from '../config/schema.ts';

/** The fields a feed filter looks at; the store can read them without parsing whole records. */
export interface FeedFacts {
  status: string;
  calendarKey: string | null;
  clientKey: string | null;
  personKey: string | null;
  serviceKeys: string[];
  tagKeys: string[];
  ownerUser: string | null;
}

/** show: a normal event; cancelled: shown as STATUS:CANCELLED; absent: not in the feed. */
export type Placement = 'show' | 'cancelled' | 'absent';

export interface FeedSelection {
  filters: FeedFilters;
  include_cancelled: boolean;
}

export function factsOf(a: Appointment): FeedFacts {
  return {
    status: a.status,
    calendarKey: a.calendar.calendarKey,
    clientKey: a.clientKey,
    personKey: a.person.personKey,
    serviceKeys: a.services.map((s) => s.serviceKey),
    tagKeys: a.tagKeys,
    ownerUser: a.ownerUser,
  };
}

/** A filter value as a list; an empty string or empty list means unset (like every empty config value). */
function wanted(value: string | string[] | undefined): string[] | undefined {
  const list = (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((v) => v !== '');
  return list.length ? list : undefined;
}

function oneOf(value: string | null, allowed: string[] | undefined, fold = false): boolean {
  if (!allowed) return true;
  if (value === null) return false;
  return fold ? allowed.some((a) => a.toUpperCase() === value.toUpperCase()) : allowed.includes(value);
}

// service_keys and tag_keys match when the appointment has ANY of the listed keys, the way the
// booking API's own list filter reads a list, so a feed and `poll.filters` mean the same thing.
function anyOf(values: string[], allowed: string[] | undefined): boolean {
  return !allowed || values.some((v) => allowed.includes(v));
}

/** Every configured filter holds; a list means "any of" (contract §2). Statuses compare case-insensitively. */
export function matchesFilters(f: FeedFacts, filters: FeedFilters): boolean {
  return (
    oneOf(f.calendarKey, wanted(filters.calendar_key)) &&
    oneOf(f.clientKey, wanted(filters.client_key)) &&
    oneOf(f.personKey, wanted(filters.person_key)) &&
    oneOf(f.status, wanted(filters.status), true) &&
    anyOf(f.serviceKeys, wanted(filters.service_keys)) &&
    anyOf(f.tagKeys, wanted(filters.tag_keys)) &&
    oneOf(f.ownerUser, wanted(filters.owner_user))
  );
}

/**
 * Filters select first; include_cancelled then decides about the cancelled ones among them.
 * A gone appointment (404, or out of the mirrored scope) is no longer ours to show: it leaves the
 * feed even with include_cancelled, since we cannot claim it was cancelled.
 */
export function placeInFeed(f: FeedFacts, gone: boolean, feed: FeedSelection): Placement {
  if (gone || !matchesFilters(f, feed.filters)) return 'absent';
  if (!isCancelled(f.status)) return 'show';
  return feed.include_cancelled ? 'cancelled' : 'absent';
}
