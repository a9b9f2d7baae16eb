// What a webhook body must be to count as a notification (docs/reference/http.md, "Webhooks"): the envelope
// {event, timestamp, data}, the same with an upper-case event, or a bare appointment record.
// Pure. Only the appointment key matters: the worker re-reads the appointment before acting.
import { readKey } from '../core/reader.ts';

export type NotificationCheck = { ok: true; appointmentKey: string; event: string | null } | { ok: false; reason: string };

const UPPER_EVENTS: Record<string, string> = {
  CREATED: 'appointment.created',
  UPDATED: 'appointment.updated',
  CANCELED: 'appointment.canceled',
  CANCELLED: 'appointment.canceled',
  DELETED: 'appointment.deleted',
};

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `appointment.created` for every spelling the service is known to send. */
function normaliseEvent(event: string): string {
  return UPPER_EVENTS[event.toUpperCase()] ?? event.toLowerCase();
}

export function checkNotification(body: unknown): NotificationCheck {
  if (!isObject(body)) {
    return { ok: false, reason: Array.isArray(body) ? 'the body is a JSON array, not a notification' : 'the body is not a JSON object' };
  }
  if ('data' in body || 'event' in body) {
    if (typeof body.event !== 'string' || body.event.trim() === '') return { ok: false, reason: 'the envelope has no event' };
    if (!isObject(body.data)) return { ok: false, reason: 'the envelope has no data object' };
    // Keys go into API paths and feeds: the one check every path in shares (core/reader.ts).
    const read = readKey(body.data.appointment_key, 'data');
    if (!read.ok) return { ok: false, reason: read.reason };
    return { ok: true, appointmentKey: read.key, event: normaliseEvent(body.event.trim()) };
  }
  const read = readKey(body.appointment_key, 'the record');
  return read.ok ? { ok: true, appointmentKey: read.key, event: null } : { ok: false, reason: read.reason };
}
