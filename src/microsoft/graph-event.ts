// Our event in Graph's shape and back: the body of a create or PATCH (subject, text body, times in
// the booking time zone, free/busy, and our single-value extended properties), and an event Graph
// answered as the target port's TargetEvent.
import { createHash } from 'node:crypto';
import { DateTime } from 'luxon';
import { PROP_HASH, PROP_KEY, type EventBody, type EventTime } from '../core/mirror/desired-event.ts';
import type { TargetEvent } from '../core/mirror/target.ts';

/** Our property set: one GUID, a name per value (Graph's `String {GUID} Name …` ids). */
const PROPERTY_SET = '{5b9e3f8a-2c41-4d7e-9a63-0f1e2d3c4b5a}';
const propertyId = (name: string) => `String ${PROPERTY_SET} Name ${name}`;
export const KEY_PROPERTY = propertyId(PROP_KEY);
const HASH_PROPERTY = propertyId(PROP_HASH);

/** An OData string literal: quotes doubled. */
const odataString = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** `$filter` of the events carrying this appointment key. */
export const keyFilter = (key: string) =>
  `singleValueExtendedProperties/Any(ep: ep/id eq ${odataString(KEY_PROPERTY)} and ep/value eq ${odataString(key)})`;
/** `$expand` of our hash, so a read shows whether the event holds our write. */
export const HASH_EXPAND = `singleValueExtendedProperties($filter=id eq ${odataString(HASH_PROPERTY)})`;

/**
 * The transactionId of an event's create: the same for every attempt (a retry, a repeat after a
 * crash), so Graph answers the event the first attempt made instead of making a second. GUID-shaped.
 */
export function transactionIdOf(calendarId: string, eventId: string): string {
  const h = createHash('sha256').update(`calbridge\u0000${calendarId}\u0000${eventId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** Graph takes a wall time without offset plus the zone's name (IANA names are accepted). */
const graphTime = (t: EventTime) => ({
  dateTime: DateTime.fromISO(t.dateTime, { setZone: true }).setZone(t.timeZone).toFormat("yyyy-MM-dd'T'HH:mm:ss"),
  timeZone: t.timeZone,
});

export function graphBody(body: EventBody): Record<string, unknown> {
  return {
    subject: body.summary,
    body: { contentType: 'text', content: body.description },
    start: graphTime(body.start),
    end: graphTime(body.end),
    // A pending appointment shows as tentative in Outlook's free/busy, as in Google.
    showAs: body.status === 'tentative' ? 'tentative' : 'busy',
    singleValueExtendedProperties: Object.entries(body.privateProperties).map(([name, value]) => ({ id: propertyId(name), value })),
  };
}

export interface GraphEvent {
  id: string;
  etag: string | null;
  start: number | null;
  end: number | null;
  /** The hash property, when the read expanded it. */
  hash: string | null;
  key: string | null;
  /** What Outlook shows besides the times: the subject, and free/busy (`showAs`); undefined when Graph did not say. */
  subject?: string;
  showAs?: string;
}

/** Graph's `{dateTime, timeZone}`: UTC unless a Prefer header asked otherwise, which we never send. */
function instant(t: unknown): number | null {
  const o = t as { dateTime?: unknown; timeZone?: unknown } | undefined;
  if (typeof o?.dateTime !== 'string') return null;
  const zone = typeof o.timeZone === 'string' && o.timeZone !== 'UTC' ? o.timeZone : 'utc';
  const dt = DateTime.fromISO(o.dateTime, { zone });
  return dt.isValid ? dt.toMillis() : null;
}

export function readGraphEvent(json: Record<string, unknown>): GraphEvent {
  const props = Array.isArray(json.singleValueExtendedProperties)
    ? (json.singleValueExtendedProperties as { id?: unknown; value?: unknown }[])
    : [];
  const prop = (id: string) => {
    const p = props.find((x) => typeof x.id === 'string' && x.id.toLowerCase() === id.toLowerCase());
    return typeof p?.value === 'string' ? p.value : null;
  };
  // A whole-day event or one of a series cannot be carried back as a reschedule: no times.
  const timed = json.isAllDay !== true && (json.type === undefined || json.type === 'singleInstance');
  return {
    id: String(json.id),
    etag: typeof json['@odata.etag'] === 'string' ? json['@odata.etag'] : null,
    start: timed ? instant(json.start) : null,
    end: timed ? instant(json.end) : null,
    hash: prop(HASH_PROPERTY),
    key: prop(KEY_PROPERTY),
    ...(typeof json.subject === 'string' ? { subject: json.subject } : {}),
    ...(typeof json.showAs === 'string' ? { showAs: json.showAs } : {}),
  };
}

/**
 * Free/busy as the port's status, the inverse of graphBody's: tentative is a pending appointment,
 * busy a confirmed one; anything else a person chose (free, away) is a status of its own, put back.
 */
const statusOf = (showAs: string) => (showAs === 'tentative' ? 'tentative' : showAs === 'busy' ? 'confirmed' : showAs);

/**
 * The title and status are reported, so the mirror core compares what Outlook shows with what it
 * wants (core/mirror/shown.ts): an event is taken as it is only when it shows our subject too. The
 * body is not: Graph may hand it back as HTML for a text we wrote, and a description that reads as
 * changed would be written again and again.
 */
export const targetEventOf = (id: string, e: GraphEvent, ourHash: string | null): TargetEvent => ({
  id,
  etag: e.etag,
  deleted: false,
  start: e.start,
  end: e.end,
  ourHash,
  ...(e.subject !== undefined ? { title: e.subject } : {}),
  ...(e.showAs !== undefined ? { status: statusOf(e.showAs) } : {}),
});

export const deletionOf = (id: string): TargetEvent => ({ id, etag: null, deleted: true, start: null, end: null, ourHash: null });
