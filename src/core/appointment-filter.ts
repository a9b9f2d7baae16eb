// The one filter engine: whether an appointment passes a set of the booking API's list filters.
// `poll.filters` (what calbridge mirrors at all) and `feeds[].filters` (what a feed shows) both
// judge through it, so they cannot drift apart. Pure. The rule, for every filter:
//
// - Values compare ignoring case and surrounding spaces: keys, statuses and owner e-mails alike. A
//   person types them into YAML, and a stricter poll scope would make appointments gone over a case.
// - An empty string, or an empty list, leaves the filter unset (as every empty config value).
// - A list means "any of": one of the listed values for the fields an appointment has one of
//   (calendar_key, client_key, person_key, status, owner_user); at least one shared value for the
//   fields it has several of (service_keys, tag_keys), as the booking API reads a list.
// - A filter on a field the record does not show (no calendar key, no services) is `unknown`: it
//   neither matches nor contradicts. What unknown means is the caller's: poll scope counts it as
//   inside (the booking service's own filtered listing returned the record; docs/reference/configuration.md, "Filters"), a feed as
//   not selected (a feed shows what it knows to match, never a stranger's appointment).
import type { Appointment } from './appointment.ts';

/** What filters look at; the store keeps these as columns, so it can answer without parsing records. */
export interface FilterFacts {
  status: string;
  calendarKey: string | null;
  clientKey: string | null;
  personKey: string | null;
  serviceKeys: string[];
  tagKeys: string[];
  ownerUser: string | null;
}

type OneOrMany = string | readonly string[] | undefined;

/** The filters the engine knows; other list filters (email, search_code ...) a record cannot show. */
export interface AppointmentFilters {
  calendar_key?: OneOrMany;
  client_key?: OneOrMany;
  person_key?: OneOrMany;
  status?: OneOrMany;
  owner_user?: OneOrMany;
  service_keys?: readonly string[] | undefined;
  tag_keys?: readonly string[] | undefined;
}

export type FilterName = keyof AppointmentFilters;

export type FilterVerdict =
  | { kind: 'match' }
  /** A set filter on a field the record does not show, and no filter that contradicts it. */
  | { kind: 'unknown'; filter: FilterName }
  /** The first filter (in the order above) the record contradicts: what it shows, what was wanted. */
  | { kind: 'mismatch'; filter: FilterName; shown: string[]; wanted: string[] };

export function factsOf(a: Appointment): FilterFacts {
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

const fold = (value: string): string => value.trim().toLowerCase();

/** The wanted values, trimmed; undefined when the filter is unset. */
function wanted(value: OneOrMany): string[] | undefined {
  const list = (typeof value === 'string' ? [value] : (value ?? [])).map((v) => v.trim()).filter((v) => v !== '');
  return list.length ? list : undefined;
}

/** Each filter with the values the record shows for it; an empty list is "not shown". */
function shownBy(f: FilterFacts): [FilterName, string[]][] {
  const one = (v: string | null) => (v === null || v.trim() === '' ? [] : [v]);
  return [
    ['calendar_key', one(f.calendarKey)],
    ['client_key', one(f.clientKey)],
    ['person_key', one(f.personKey)],
    ['status', one(f.status)],
    ['owner_user', one(f.ownerUser)],
    ['service_keys', f.serviceKeys],
    ['tag_keys', f.tagKeys],
  ];
}

export function judge(facts: FilterFacts, filters: AppointmentFilters): FilterVerdict {
  let unknown: FilterName | undefined;
  for (const [filter, shown] of shownBy(facts)) {
    const want = wanted(filters[filter]);
    if (!want) continue;
    if (shown.length === 0) {
      unknown ??= filter;
      continue;
    }
    const allowed = new Set(want.map(fold));
    if (!shown.some((v) => allowed.has(fold(v)))) return { kind: 'mismatch', filter, shown, wanted: want };
  }
  return unknown ? { kind: 'unknown', filter: unknown } : { kind: 'match' };
}
