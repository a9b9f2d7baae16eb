// Title and description templates (docs/reference/configuration.md, "Templates"): `{placeholder}` replaced by appointment fields.
// An unknown placeholder is a config error (checked at load); a known one without a value is empty.
import { DateTime } from 'luxon';
import type { Appointment } from './appointment.ts';

// Anything between braces is meant as a placeholder, so a misspelt one is caught, not printed.
const PLACEHOLDER = /\{([^{}]*)\}/g;

const FIELDS: Readonly<Record<string, (a: Appointment) => string | null>> = {
  appointment_key: (a) => a.key,
  search_code: (a) => a.searchCode,
  status: (a) => a.status,
  start: (a) => localTime(a.start, a.timezone),
  end: (a) => localTime(a.end, a.timezone),
  'calendar.calendar_key': (a) => a.calendar.calendarKey,
  'calendar.name': (a) => a.calendar.name,
  'person.person_key': (a) => a.person.personKey,
  'person.full_name': (a) => a.person.fullName,
  'person.email': (a) => a.person.email,
  'person.phone': (a) => a.person.phone,
  services: (a) => a.services.map((s) => s.name ?? s.serviceKey).join(', '),
  owner_user: (a) => a.ownerUser,
};

function localTime(ms: number, zone: string): string {
  return DateTime.fromMillis(ms, { zone }).toFormat('yyyy-MM-dd HH:mm');
}

export function unknownPlaceholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1] ?? '').filter((name) => !Object.hasOwn(FIELDS, name));
}

export function renderTemplate(template: string, a: Appointment): string {
  return template
    .replace(PLACEHOLDER, (whole, name: string) => {
      const field = Object.hasOwn(FIELDS, name) ? FIELDS[name] : undefined;
      return field ? (field(a) ?? '') : whole;
    })
    .trim();
}
