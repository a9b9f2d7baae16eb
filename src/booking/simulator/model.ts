// The simulator's own appointment model and how it is shown on the wire, in the documented record shape
// or the shape the service sends in practice (see notes in README.md beside this file).
import { DateTime } from 'luxon';

export type RecordShape = 'seed' | 'practice';

export interface SimService {
  service_key: string;
  service_name: string;
  /** Minutes; used when the simulator books with this service. */
  minutes?: number;
}

export interface SimAppointment {
  appointment_key: string;
  search_code: string;
  status: string;
  /** Epoch ms. */
  start: number;
  end: number;
  calendar: { calendar_key: string; name: string };
  person: { person_key: string; full_name: string; email: string; phone: string };
  client_key: string;
  identification_code: string;
  external_id: string;
  services: SimService[];
  tag_keys: string[];
  owner_user: string;
  created_at: number;
}

/** What `create`/`update` take: any subset; times as epoch ms or ISO text (start or start_date). */
export interface SimAppointmentInput {
  appointment_key?: string;
  search_code?: string;
  status?: string;
  start?: number | string;
  end?: number | string;
  start_date?: string;
  end_date?: string;
  calendar?: Partial<SimAppointment['calendar']>;
  person?: Partial<SimAppointment['person']>;
  client_key?: string;
  identification_code?: string;
  external_id?: string;
  services?: SimService[];
  service_keys?: string[];
  tag_keys?: string[];
  owner_user?: string;
  created_at?: number | string;
}

export type WireRecord = Record<string, unknown>;

export const isCancelledStatus = (s: string): boolean => s.startsWith('CANCEL');

export function toMs(v: number | string | undefined, zone: string): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'number') return v;
  const dt = DateTime.fromISO(v, { zone });
  if (!dt.isValid) throw new Error(`not an ISO 8601 time: ${v}`);
  return dt.toMillis();
}

function iso(ms: number, zone: string): string {
  return DateTime.fromMillis(ms, { zone }).toISO({ suppressMilliseconds: true }) ?? new Date(ms).toISOString();
}

function zoned(ms: number, zone: string): { dateTime: string; timeZone: string } {
  return { dateTime: iso(ms, zone), timeZone: zone };
}

export function toWire(a: SimAppointment, shape: RecordShape, zone: string): WireRecord {
  const common = {
    appointment_key: a.appointment_key,
    search_code: a.search_code,
    status: a.status,
    client_key: a.client_key,
    identification_code: a.identification_code,
    external_id: a.external_id,
    owner_user: a.owner_user,
    is_cancelled: isCancelledStatus(a.status),
  };
  if (shape === 'seed') {
    return {
      ...common,
      start_date: iso(a.start, zone),
      end_date: iso(a.end, zone),
      calendar: { calendar_key: a.calendar.calendar_key, name: a.calendar.name },
      person: { ...a.person },
      person_key: a.person.person_key,
      service_keys: a.services.map((s) => s.service_key),
      tag_keys: [...a.tag_keys],
      created_at: iso(a.created_at, zone),
    };
  }
  return {
    ...common,
    start: zoned(a.start, zone),
    end: zoned(a.end, zone),
    calendar: { calendar_key: a.calendar.calendar_key, calendar_name: a.calendar.name },
    attendees: [
      {
        name: a.person.full_name,
        email: a.person.email,
        phone: a.person.phone,
        person_key: a.person.person_key,
        external_id: a.external_id,
      },
    ],
    service_list: a.services.map((s) => ({ service_key: s.service_key, service_name: s.service_name })),
    tag_list: a.tag_keys.map((k) => ({ tag_key: k })),
    created_at: zoned(a.created_at, zone),
  };
}
