// What calbridge mirrors at all (docs/reference/configuration.md, "Scope"): poll.filters bound it, judged by the one filter
// engine (core/appointment-filter.ts). A filter the record does not show cannot exclude it: the
// booking service's own filtered listing may well have returned it. Pure.
import type { Appointment } from '../core/appointment.ts';
import { factsOf, judge } from '../core/appointment-filter.ts';
import type { PollFilters } from '../config/schema.ts';

const MANY = new Set(['service_keys', 'tag_keys']);

/** Why the appointment is outside poll.filters, or undefined when it is inside. */
export function outOfScope(a: Appointment, f: PollFilters): string | undefined {
  const verdict = judge(factsOf(a), f);
  if (verdict.kind !== 'mismatch') return undefined;
  const { filter, shown, wanted } = verdict;
  if (MANY.has(filter)) return `none of its ${filter} is in poll.filters.${filter}`;
  return `${filter} is ${shown.join(', ')}, not ${wanted.join(' or ')}`;
}
