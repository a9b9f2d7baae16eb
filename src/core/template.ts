// Title and description templates (docs/reference/configuration.md, "Templates"): `{placeholder}` replaced by appointment fields.
// An unknown placeholder is a config error (checked at load); a known one without a value is empty.
import { DateTime } from 'luxon';
import type { Appointment } from './appointment.ts';
import { messagesFor, statusLabel, type Messages } from './i18n/index.ts';

// Anything between braces is meant as a placeholder, so a misspelt one is caught, not printed.
const PLACEHOLDER = /\{([^{}]*)\}/g;

const FIELDS: Readonly<Record<string, (a: Appointment, m: Messages) => string | null>> = {
  appointment_key: (a) => a.key,
  search_code: (a) => a.searchCode,
  status: (a) => a.status,
  /** The status in words, in server.locale: "No-show", "Não compareceu". */
  status_label: (a, m) => statusLabel(m, a.status),
  start: (a) => localTime(a.start, a.timezone),
  end: (a) => localTime(a.end, a.timezone),
  'calendar.calendar_key': (a) => a.calendar.calendarKey,
  'calendar.name': (a) => a.calendar.name,
  'person.person_key': (a) => a.person.personKey,
  'person.full_name': (a) => a.person.fullName,
  'person.email': (a) => a.person.email,
  'person.phone': (a) => a.person.phone,
  // Names only: a service the booking service sent without one is left out, never shown by its key.
  services: (a) => serviceNames(a),
  owner_user: (a) => a.ownerUser,
};

/** "Fisioterapia, Pilates": the names of the appointment's services. */
export function serviceNames(a: Appointment): string {
  return a.services.flatMap((s) => (s.name ? [s.name] : [])).join(', ');
}

function localTime(ms: number, zone: string): string {
  return DateTime.fromMillis(ms, { zone }).toFormat('yyyy-MM-dd HH:mm');
}

export function unknownPlaceholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1] ?? '').filter((name) => !Object.hasOwn(FIELDS, name));
}

/** `m`: the catalogue of server.locale, for the words placeholders bring ({status_label}). */
export function renderTemplate(template: string, a: Appointment, m: Messages = messagesFor('en')): string {
  return template
    .replace(PLACEHOLDER, (whole, name: string) => {
      const field = Object.hasOwn(FIELDS, name) ? FIELDS[name] : undefined;
      return field ? (field(a, m) ?? '') : whole;
    })
    .trim();
}
