// The state behind the Graph simulator (index.ts): mailboxes of calendars of events with Graph's
// rules for ids (Graph's, never the client's), change keys and `@odata.etag`, If-Match, `transactionId`,
// single-value extended properties and the change history the delta query reads. No HTTP here.
import { randomBytes } from 'node:crypto';
import { DateTime } from 'luxon';

export interface GraphTime {
  dateTime: string;
  timeZone: string;
}

export interface ExtendedProperty {
  id: string;
  value: string;
}

/** An event as stored; `toJson` gives Graph's shape. */
export interface SimulatedEvent {
  id: string;
  changeKey: string;
  calendarId: string;
  subject: string;
  body: { contentType: string; content: string };
  /** Epoch ms. */
  start: number;
  end: number;
  /** The zone the client wrote the times in (Graph keeps it as originalStartTimeZone). */
  timeZone: string;
  showAs: string;
  isAllDay: boolean;
  transactionId: string | null;
  extended: ExtendedProperty[];
  created: string;
  lastModified: string;
}

/** An error the HTTP layer answers with Graph's body `{error: {code, message}}`. */
export class GraphApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface SimulatedCalendar {
  id: string;
  name: string;
  canEdit: boolean;
  isDefaultCalendar: boolean;
}

export interface Change {
  seq: number;
  calendarId: string;
  eventId: string;
}

const graphId = (prefix: string) => `${prefix}${randomBytes(33).toString('base64url')}`;
const changeKey = () => randomBytes(12).toString('base64');

/** Graph's dateTime: no offset, seven fractional digits, in UTC as answered without a Prefer header. */
const graphUtc = (ms: number): GraphTime => ({ dateTime: `${new Date(ms).toISOString().slice(0, 23)}0000`, timeZone: 'UTC' });

/** A dateTime (without offset) in its timeZone, as Graph reads it; a string with an offset is taken as it says. */
function readTime(t: unknown, field: string): { ms: number; zone: string } {
  const o = t as Partial<GraphTime> | undefined;
  if (!o || typeof o.dateTime !== 'string' || typeof o.timeZone !== 'string') {
    throw new GraphApiError(400, 'ErrorInvalidRequest', `${field} needs dateTime and timeZone`);
  }
  const zone = o.timeZone === 'UTC' ? 'utc' : o.timeZone;
  const dt = DateTime.fromISO(o.dateTime, { zone, setZone: false });
  if (!dt.isValid)
    throw new GraphApiError(
      400,
      'TimeZoneNotSupportedException',
      `A valid TimeZone value must be specified. The following TimeZone value is not supported: '${o.timeZone}'.`,
    );
  return { ms: dt.toMillis(), zone: o.timeZone };
}

export function toJson(e: SimulatedEvent, options: { expand?: (p: ExtendedProperty) => boolean } = {}): Record<string, unknown> {
  return {
    '@odata.etag': `W/"${e.changeKey}"`,
    id: e.id,
    changeKey: e.changeKey,
    createdDateTime: e.created,
    lastModifiedDateTime: e.lastModified,
    transactionId: e.transactionId,
    subject: e.subject,
    body: e.body,
    start: graphUtc(e.start),
    end: graphUtc(e.end),
    originalStartTimeZone: e.timeZone,
    showAs: e.showAs,
    isAllDay: e.isAllDay,
    isCancelled: false,
    type: 'singleInstance',
    ...(options.expand ? { singleValueExtendedProperties: e.extended.filter(options.expand) } : {}),
  };
}

/** One mailbox (a user's calendars). */
export class Mailbox {
  readonly calendars = new Map<string, SimulatedCalendar>();
  readonly events = new Map<string, SimulatedEvent>();
  /** transactionId → event id, as long as that event exists. */
  private readonly transactions = new Map<string, string>();
  readonly changes: Change[] = [];
  private seq = 0;
  /** Called after every change of an event (notifications). */
  onChange: (calendarId: string, eventId: string, kind: 'created' | 'updated' | 'deleted') => void = () => {};

  constructor(
    readonly id: string,
    readonly address: string,
  ) {
    this.addCalendar('Calendar', { isDefaultCalendar: true });
  }

  addCalendar(name: string, o: { canEdit?: boolean; isDefaultCalendar?: boolean } = {}): SimulatedCalendar {
    const c = { id: graphId('AAMkADcal'), name, canEdit: o.canEdit ?? true, isDefaultCalendar: o.isDefaultCalendar ?? false };
    this.calendars.set(c.id, c);
    return c;
  }

  get sequence(): number {
    return this.seq;
  }

  calendar(idOrDefault: string | undefined): SimulatedCalendar {
    const c = idOrDefault === undefined ? [...this.calendars.values()].find((x) => x.isDefaultCalendar) : this.calendars.get(idOrDefault);
    if (!c) throw new GraphApiError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.');
    return c;
  }

  event(id: string, calendarId?: string): SimulatedEvent {
    const e = this.events.get(id);
    if (!e || (calendarId !== undefined && e.calendarId !== calendarId))
      throw new GraphApiError(404, 'ErrorItemNotFound', 'The specified object was not found in the store.');
    return e;
  }

  private touched(e: SimulatedEvent, kind: 'created' | 'updated' | 'deleted'): void {
    this.changes.push({ seq: ++this.seq, calendarId: e.calendarId, eventId: e.id });
    this.onChange(e.calendarId, e.id, kind);
  }

  /** POST .../events: a transactionId already used by a live event answers that event (201 again). */
  create(calendarId: string, body: Record<string, unknown>): { event: SimulatedEvent; repeated: boolean } {
    const cal = this.calendar(calendarId);
    if (!cal.canEdit) throw new GraphApiError(403, 'ErrorAccessDenied', 'Access is denied. Check credentials and try again.');
    const tx = typeof body.transactionId === 'string' && body.transactionId ? body.transactionId : null;
    const earlier = tx === null ? undefined : this.transactions.get(tx);
    if (earlier !== undefined && this.events.has(earlier)) return { event: this.events.get(earlier)!, repeated: true };
    if (typeof body.id === 'string')
      throw new GraphApiError(400, 'ErrorInvalidProperty', 'The property id is read-only and cannot be set.');
    const start = readTime(body.start, 'start');
    const end = readTime(body.end, 'end');
    const now = new Date().toISOString();
    const e: SimulatedEvent = {
      id: graphId('AAMkAGI2'),
      changeKey: changeKey(),
      calendarId: cal.id,
      subject: typeof body.subject === 'string' ? body.subject : '',
      body: readBody(body.body),
      start: start.ms,
      end: end.ms,
      timeZone: start.zone,
      showAs: typeof body.showAs === 'string' ? body.showAs : 'busy',
      isAllDay: body.isAllDay === true,
      transactionId: tx,
      extended: readExtended(body.singleValueExtendedProperties, []),
      created: now,
      lastModified: now,
    };
    this.events.set(e.id, e);
    if (tx !== null) this.transactions.set(tx, e.id);
    this.touched(e, 'created');
    return { event: e, repeated: false };
  }

  /** PATCH .../events/{id}: with If-Match, only that version (412 otherwise). */
  patch(id: string, calendarId: string | undefined, body: Record<string, unknown>, ifMatch: string | undefined): SimulatedEvent {
    const e = this.event(id, calendarId);
    if (!this.calendar(e.calendarId).canEdit)
      throw new GraphApiError(403, 'ErrorAccessDenied', 'Access is denied. Check credentials and try again.');
    checkMatch(e, ifMatch);
    if (body.subject !== undefined) e.subject = String(body.subject);
    if (body.body !== undefined) e.body = readBody(body.body);
    if (body.start !== undefined) ({ ms: e.start, zone: e.timeZone } = readTime(body.start, 'start'));
    if (body.end !== undefined) e.end = readTime(body.end, 'end').ms;
    if (typeof body.showAs === 'string') e.showAs = body.showAs;
    if (body.singleValueExtendedProperties !== undefined) e.extended = readExtended(body.singleValueExtendedProperties, e.extended);
    e.changeKey = changeKey();
    e.lastModified = new Date().toISOString();
    this.touched(e, 'updated');
    return e;
  }

  /** DELETE: the event goes to Deleted Items; for this calendar it is gone (a second DELETE is 404). */
  remove(id: string, calendarId: string | undefined, ifMatch: string | undefined): void {
    const e = this.event(id, calendarId);
    checkMatch(e, ifMatch);
    this.events.delete(id);
    if (e.transactionId !== null) this.transactions.delete(e.transactionId);
    this.touched(e, 'deleted');
  }

  /** Events of a calendar with an extended property of this id and value (the `$filter` Graph offers). */
  withProperty(calendarId: string | undefined, propertyId: string, value: string): SimulatedEvent[] {
    const cal = calendarId === undefined ? undefined : this.calendar(calendarId).id;
    return [...this.events.values()].filter(
      (e) =>
        (cal === undefined || e.calendarId === cal) &&
        e.extended.some((p) => p.id.toLowerCase() === propertyId.toLowerCase() && p.value === value),
    );
  }

  /** A person moves an event in Outlook (or changes its title). */
  userEdit(id: string, change: { start?: number; end?: number; subject?: string }): SimulatedEvent {
    const e = this.event(id);
    if (change.start !== undefined) e.start = change.start;
    if (change.end !== undefined) e.end = change.end;
    if (change.subject !== undefined) e.subject = change.subject;
    e.changeKey = changeKey();
    e.lastModified = new Date().toISOString();
    this.touched(e, 'updated');
    return e;
  }

  /** A person deletes an event in Outlook. */
  userDelete(id: string): void {
    this.remove(id, undefined, undefined);
  }
}

function checkMatch(e: SimulatedEvent, ifMatch: string | undefined): void {
  if (ifMatch === undefined || ifMatch === '*') return;
  if (ifMatch !== `W/"${e.changeKey}"` && ifMatch !== `"${e.changeKey}"`) {
    throw new GraphApiError(
      412,
      'ErrorIrresolvableConflict',
      'The change key passed in the request does not match the current change key for the item.',
    );
  }
}

function readBody(b: unknown): { contentType: string; content: string } {
  const o = b as { contentType?: unknown; content?: unknown } | undefined;
  return { contentType: o?.contentType === 'html' ? 'html' : 'text', content: typeof o?.content === 'string' ? o.content : '' };
}

const PROPERTY_ID = /^String \{[0-9a-f-]{36}\} Name \S+$/i;

/** Sets each given property (by id, case-insensitively as Exchange does), keeping the others. */
function readExtended(list: unknown, before: ExtendedProperty[]): ExtendedProperty[] {
  if (!Array.isArray(list)) throw new GraphApiError(400, 'ErrorInvalidRequest', 'singleValueExtendedProperties must be an array');
  const out = [...before];
  for (const p of list as { id?: unknown; value?: unknown }[]) {
    if (typeof p.id !== 'string' || !PROPERTY_ID.test(p.id) || typeof p.value !== 'string') {
      throw new GraphApiError(400, 'ErrorInvalidProperty', `The extended property id '${String(p.id)}' is not valid.`);
    }
    const i = out.findIndex((q) => q.id.toLowerCase() === (p.id as string).toLowerCase());
    if (i >= 0) out[i] = { id: out[i]!.id, value: p.value };
    else out.push({ id: p.id, value: p.value });
  }
  return out;
}
