// What a webhook body must be to count as a notification (contract §3): the seed's envelope
// {event, timestamp, data}, the same with an upper-case event, or a bare appointment record.
// Pure. Only the appointment key matters: the worker re-reads the appointment before acting.

export type NotificationCheck =
  | { ok: true; appointmentKey: string; event: string | null }
  | { ok: false; reason: string };

// Keys go into API paths; refuse anything that could step out of /appointments/{key}/.
const KEY = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,199}$/;

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
export function normaliseEvent(event: string): string {
  return UPPER_EVENTS[event.toUpperCase()] ?? event.toLowerCase();
}

/** The key as text (some services send numeric ids, as the record reader also accepts), or why not. */
function readKey(value: unknown, where: string): { key: string } | { problem: string } {
  const key = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof key !== 'string' || key === '') return { problem: `${where} has no appointment_key` };
  if (!KEY.test(key)) return { problem: `${where}.appointment_key is not a usable key (a letter or digit, then letters, digits, - _ . : ; at most 200)` };
  return { key };
}

export function checkNotification(body: unknown): NotificationCheck {
  if (!isObject(body)) {
    return { ok: false, reason: Array.isArray(body) ? 'the body is a JSON array, not a notification' : 'the body is not a JSON object' };
  }
  if ('data' in body || 'event' in body) {
    if (typeof body.event !== 'string' || body.event.trim() === '') return { ok: false, reason: 'the envelope has no event' };
    if (!isObject(body.data)) return { ok: false, reason: 'the envelope has no data object' };
    const read = readKey(body.data.appointment_key, 'data');
    if ('problem' in read) return { ok: false, reason: read.problem };
    return { ok: true, appointmentKey: read.key, event: normaliseEvent(body.event.trim()) };
  }
  const read = readKey(body.appointment_key, 'the record');
  return 'problem' in read ? { ok: false, reason: read.problem } : { ok: true, appointmentKey: read.key, event: null };
}
