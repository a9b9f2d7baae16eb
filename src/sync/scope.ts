// What calbridge mirrors at all (contract §2): poll.filters bound it, for the filters a record
// shows. A filter the record does not show (no client_key, no services) cannot exclude it. Pure.
import type { Appointment } from '../core/appointment.ts';
import type { PollFilters } from '../config/schema.ts';

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Why the appointment is outside poll.filters, or undefined when it is inside. */
export function outOfScope(a: Appointment, f: PollFilters): string | undefined {
  const single: [keyof PollFilters, string | null][] = [
    ['calendar_key', a.calendar.calendarKey],
    ['client_key', a.clientKey],
    ['person_key', a.person.personKey],
    ['status', a.status],
    ['owner_user', a.ownerUser],
  ];
  for (const [name, value] of single) {
    const wanted = f[name];
    if (typeof wanted !== 'string' || wanted === '' || value === null) continue;
    if (!same(wanted, value)) return `${name} is ${value}, not ${wanted}`;
  }
  const lists: [keyof PollFilters, string[]][] = [
    ['service_keys', a.services.map((s) => s.serviceKey)],
    ['tag_keys', a.tagKeys],
  ];
  for (const [name, values] of lists) {
    const wanted = f[name];
    if (!Array.isArray(wanted) || wanted.length === 0 || values.length === 0) continue;
    if (!values.some((v) => wanted.some((w) => same(String(w), v)))) return `none of its ${name} is in poll.filters.${name}`;
  }
  return undefined;
}
