// The booking API's list filters as the simulator applies them. Matching rules the API leaves open,
// chosen here: keys and codes exact; email, phone and name partial and case-insensitive; arrays
// (repeated keys or comma-separated) match when the record has any of the given keys.
import { DateTime } from 'luxon';
import { isCancelledStatus, type SimAppointment } from './model.ts';

export class FilterError extends Error {}

type Test = (a: SimAppointment) => boolean;

function values(q: URLSearchParams, name: string): string[] {
  return q
    .getAll(name)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

function time(name: string, v: string, zone: string): DateTime {
  const dt = DateTime.fromISO(v, { zone });
  if (!dt.isValid) throw new FilterError(`${name}: Enter a valid date/time (YYYY-MM-DDTHH:MM:SS), got "${v}".`);
  return dt;
}

const contains = (hay: string, needle: string) => hay.toLowerCase().includes(needle.toLowerCase());

export function compileFilters(q: URLSearchParams, zone: string): Test {
  const tests: Test[] = [];
  const exact = (name: string, get: (a: SimAppointment) => string) => {
    const v = q.get(name);
    if (v !== null && v !== '') tests.push((a) => get(a) === v);
  };
  exact('calendar_key', (a) => a.calendar.calendar_key);
  exact('client_key', (a) => a.client_key);
  exact('person_key', (a) => a.person.person_key);
  exact('identification_code', (a) => a.identification_code);
  exact('external_id', (a) => a.external_id);
  exact('search_code', (a) => a.search_code);
  exact('owner_user', (a) => a.owner_user);
  const status = q.get('status');
  if (status) tests.push((a) => a.status === status.toUpperCase());
  const partial = (name: string, get: (a: SimAppointment) => string) => {
    const v = q.get(name);
    if (v) tests.push((a) => contains(get(a), v));
  };
  partial('email', (a) => a.person.email);
  partial('name', (a) => a.person.full_name);
  const phone = q.get('phone');
  if (phone) {
    const digits = phone.replace(/\D/g, '');
    tests.push((a) => a.person.phone.replace(/\D/g, '').includes(digits));
  }
  const from = q.get('start_date');
  if (from) {
    const min = time('start_date', from, zone).toMillis();
    tests.push((a) => a.start >= min);
  }
  const to = q.get('end_date');
  if (to) {
    const max = time('end_date', to, zone).toMillis();
    tests.push((a) => a.start <= max);
  }
  const cancelled = q.get('is_cancelled');
  if (cancelled) {
    const want = /^(true|1|yes)$/i.test(cancelled);
    if (!want && !/^(false|0|no)$/i.test(cancelled)) throw new FilterError(`is_cancelled: Must be a valid boolean, got "${cancelled}".`);
    tests.push((a) => isCancelledStatus(a.status) === want);
  }
  const services = values(q, 'service_keys');
  if (services.length) tests.push((a) => a.services.some((s) => services.includes(s.service_key)));
  const tags = values(q, 'tag_keys');
  if (tags.length) tests.push((a) => a.tag_keys.some((t) => tags.includes(t)));
  const created = q.get('created_at');
  if (created) {
    // A date alone selects that day; a datetime selects what was created at or after it.
    const dt = time('created_at', created, zone);
    if (/^\d{4}-\d{2}-\d{2}$/.test(created)) {
      const day = dt.startOf('day').toMillis();
      const next = dt.startOf('day').plus({ days: 1 }).toMillis();
      tests.push((a) => a.created_at >= day && a.created_at < next);
    } else {
      const min = dt.toMillis();
      tests.push((a) => a.created_at >= min);
    }
  }
  return (a) => tests.every((t) => t(a));
}
