// The one internal shape of an appointment, whatever shape the booking service sent (see reader.ts).
// Instants are epoch milliseconds (UTC); `timezone` is the IANA zone they are shown in.

export const STATUSES = [
  'CONFIRMED',
  'PENDING',
  'ATTENDED',
  'IN_PROGRESS',
  'NO_SHOW',
  'CANCELED',
  'CANCELED_CLIENT',
  'CANCELED_GOOGLE',
  'PENDING_PAYMENT',
  'PENDING_FORM',
  'PENDING_COMPANIONS',
] as const;
export type Status = (typeof STATUSES)[number];

export type StatusClass = 'active' | 'done' | 'cancelled';

export interface Person {
  personKey: string | null;
  fullName: string | null;
  email: string | null;
  phone: string | null;
  /** identification_code: a personal document number; never shown by limited/busy feeds. */
  documentNumber: string | null;
}

export interface Appointment {
  key: string;
  searchCode: string | null;
  /** Upper case; one of STATUSES in practice, but an unknown value is kept, not rejected. */
  status: string;
  start: number;
  end: number;
  timezone: string;
  calendar: { calendarKey: string | null; name: string | null };
  person: Person;
  clientKey: string | null;
  services: { serviceKey: string; name: string | null }[];
  tagKeys: string[];
  ownerUser: string | null;
  externalId: string | null;
  createdAt: number | null;
  /** The record exactly as received, for diagnosis. Not material. */
  raw: unknown;
}

function statusClass(status: string): StatusClass {
  if (status.startsWith('CANCELED') || status.startsWith('CANCELLED')) return 'cancelled';
  if (status === 'ATTENDED' || status === 'NO_SHOW') return 'done';
  return 'active';
}

export function isCancelled(status: string): boolean {
  return statusClass(status) === 'cancelled';
}

/** PENDING, PENDING_PAYMENT, PENDING_FORM, PENDING_COMPANIONS: shown as tentative. */
export function isPending(status: string): boolean {
  return status.startsWith('PENDING');
}

/** The fields whose change is visible in Google or a feed; `raw` and `createdAt` are not among them. */
export function materialView(a: Appointment): unknown {
  return [
    a.key,
    a.searchCode,
    a.status,
    a.start,
    a.end,
    a.timezone,
    a.calendar.calendarKey,
    a.calendar.name,
    a.person.personKey,
    a.person.fullName,
    a.person.email,
    a.person.phone,
    a.person.documentNumber,
    a.clientKey,
    a.services.map((s) => [s.serviceKey, s.name]),
    a.tagKeys,
    a.ownerUser,
    a.externalId,
  ];
}
