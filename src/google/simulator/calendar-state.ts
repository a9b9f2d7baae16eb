// The state behind the Google Calendar simulator (index.ts): calendars of events with Google's rules
// for ids, etags, sequences, tombstones, If-Match, revival and sync tokens. No HTTP here.
import { randomBytes } from 'node:crypto';

export type EventTime = { dateTime?: string; date?: string; timeZone?: string };

/** An event as the API returns it. Fields we do not model are kept as sent. */
export interface SimulatedEvent {
  kind: 'calendar#event';
  id: string;
  status: string;
  etag: string;
  sequence: number;
  created: string;
  updated: string;
  iCalUID: string;
  summary?: string;
  description?: string;
  start?: EventTime;
  end?: EventTime;
  extendedProperties?: { private?: Record<string, string>; shared?: Record<string, string> };
  [field: string]: unknown;
}

interface Stored {
  event: SimulatedEvent;
  /** Position in the calendar's change history (sync tokens count these). */
  changeSeq: number;
}

/** An error the HTTP layer turns into Google's error body. */
export class CalendarApiError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
    readonly domain = 'global',
  ) {
    super(message);
  }
}

export interface ListParams {
  syncToken?: string;
  pageToken?: string;
  maxResults?: number;
  showDeleted?: boolean;
  timeMin?: string;
  timeMax?: string;
  updatedMin?: string;
  privateExtendedProperty?: string[];
  /** Params a sync token cannot be combined with, as given. */
  incompatible: string[];
}

export interface ListResult {
  items: Partial<SimulatedEvent>[];
  nextPageToken?: string;
  nextSyncToken?: string;
}

const ID = /^[a-v0-9]{5,1024}$/;
const MAX_PRIVATE_KEY = 44;

const encode = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const decode = <T>(s: string): T | undefined => {
  try {
    return JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as T;
  } catch {
    return undefined;
  }
};

function randomId(): string {
  // base32hex from random bytes: 26 characters of a-v0-9.
  const alphabet = '0123456789abcdefghijklmnopqrstuv';
  return [...randomBytes(26)].map((b) => alphabet[b % 32]).join('');
}

function startMs(t: EventTime | undefined): number {
  return t?.dateTime ? Date.parse(t.dateTime) : t?.date ? Date.parse(`${t.date}T00:00:00Z`) : Number.NaN;
}

/** Google silently drops private/shared property keys longer than 44 characters. */
function trimProperties(p: SimulatedEvent['extendedProperties']): SimulatedEvent['extendedProperties'] {
  if (!p) return p;
  const keep = (m?: Record<string, string>) => m && Object.fromEntries(Object.entries(m).filter(([k]) => k.length <= MAX_PRIVATE_KEY));
  return { ...(p.private ? { private: keep(p.private) } : {}), ...(p.shared ? { shared: keep(p.shared) } : {}) };
}

export class CalendarState {
  private readonly calendars = new Map<string, Map<string, Stored>>();
  private readonly tokenFloor = new Map<string, number>();
  private seq = 0;
  private etagCounter = 3_181_161_784_712_000;
  /** When true, updating a deleted event back to life answers 403 (some accounts do). */
  refuseRevival = false;
  /** Called after every change to a calendar (push notifications). */
  onChange: (calendarId: string) => void = () => {};

  constructor(private readonly now: () => number = Date.now) {}

  private calendar(id: string): Map<string, Stored> {
    let c = this.calendars.get(id);
    if (!c) this.calendars.set(id, (c = new Map()));
    return c;
  }

  private stamp(cal: string, event: SimulatedEvent): void {
    event.etag = `"${++this.etagCounter}"`;
    event.updated = new Date(this.now()).toISOString();
    this.calendar(cal).set(event.id, { event, changeSeq: ++this.seq });
    this.onChange(cal);
  }

  private existing(cal: string, id: string): Stored {
    const s = this.calendar(cal).get(id);
    if (!s) throw new CalendarApiError(404, 'notFound', 'Not Found');
    return s;
  }

  private checkEtag(s: Stored, ifMatch: string | undefined): void {
    if (ifMatch !== undefined && ifMatch !== '*' && ifMatch !== s.event.etag) {
      throw new CalendarApiError(412, 'conditionNotMet', 'Precondition Failed');
    }
  }

  private checkTimes(e: Partial<SimulatedEvent>): void {
    if (!e.start || Number.isNaN(startMs(e.start))) throw new CalendarApiError(400, 'required', 'Missing start time.');
    if (!e.end || Number.isNaN(startMs(e.end))) throw new CalendarApiError(400, 'required', 'Missing end time.');
    if (startMs(e.end) < startMs(e.start)) throw new CalendarApiError(400, 'timeRangeEmpty', 'The specified time range is empty.');
  }

  /** The next version of an event after an update or patch: sequence, revival and time rules. */
  private replace(cal: string, s: Stored, next: Partial<SimulatedEvent>, ifMatch: string | undefined): SimulatedEvent {
    this.checkEtag(s, ifMatch);
    const old = s.event;
    const status = next.status ?? 'confirmed';
    if (old.status === 'cancelled' && status !== 'cancelled' && this.refuseRevival) {
      throw new CalendarApiError(403, 'forbidden', 'Forbidden');
    }
    if (typeof next.sequence === 'number' && next.sequence < old.sequence) {
      throw new CalendarApiError(
        400,
        'invalid',
        'Invalid sequence value. The specified sequence number is below the current sequence number of the resource.',
      );
    }
    this.checkTimes(next);
    const moved = startMs(next.start) !== startMs(old.start) || startMs(next.end) !== startMs(old.end);
    const event: SimulatedEvent = {
      ...next,
      kind: 'calendar#event',
      id: old.id,
      status,
      etag: old.etag,
      created: old.created,
      updated: old.updated,
      iCalUID: old.iCalUID,
      sequence: Math.max(old.sequence, next.sequence ?? 0) + (moved ? 1 : 0),
      extendedProperties: trimProperties(next.extendedProperties),
    };
    this.stamp(cal, event);
    return structuredClone(event);
  }

  insert(cal: string, body: Partial<SimulatedEvent>): SimulatedEvent {
    const id = body.id ?? randomId();
    if (typeof id !== 'string' || !ID.test(id)) throw new CalendarApiError(400, 'invalid', 'Invalid resource id value.');
    if (this.calendar(cal).has(id)) throw new CalendarApiError(409, 'duplicate', 'The requested identifier already exists.');
    this.checkTimes(body);
    const now = new Date(this.now()).toISOString();
    const event: SimulatedEvent = {
      ...body,
      kind: 'calendar#event',
      id,
      status: body.status ?? 'confirmed',
      etag: '',
      sequence: body.sequence ?? 0,
      created: now,
      updated: now,
      iCalUID: `${id}@google.com`,
      htmlLink: `https://www.google.com/calendar/event?eid=${id}`,
      extendedProperties: trimProperties(body.extendedProperties),
    };
    this.stamp(cal, event);
    return structuredClone(event);
  }

  /** Deleted events are still returned, with status cancelled. */
  get(cal: string, id: string): SimulatedEvent {
    return structuredClone(this.existing(cal, id).event);
  }

  update(cal: string, id: string, body: Partial<SimulatedEvent>, ifMatch?: string): SimulatedEvent {
    return this.replace(cal, this.existing(cal, id), body, ifMatch);
  }

  patch(cal: string, id: string, body: Partial<SimulatedEvent>, ifMatch?: string): SimulatedEvent {
    const s = this.existing(cal, id);
    const old = s.event;
    const props = body.extendedProperties
      ? {
          private: { ...old.extendedProperties?.private, ...body.extendedProperties.private },
          shared: { ...old.extendedProperties?.shared, ...body.extendedProperties.shared },
        }
      : old.extendedProperties;
    const merged = {
      ...old,
      ...body,
      extendedProperties: props,
      status: body.status ?? (old.status === 'cancelled' ? 'cancelled' : old.status),
    };
    return this.replace(cal, s, merged, ifMatch);
  }

  delete(cal: string, id: string, ifMatch?: string): void {
    const s = this.existing(cal, id);
    if (s.event.status === 'cancelled') throw new CalendarApiError(410, 'deleted', 'Resource has been deleted');
    this.checkEtag(s, ifMatch);
    this.stamp(cal, { ...s.event, status: 'cancelled' });
  }

  list(cal: string, p: ListParams): ListResult {
    const all = [...this.calendar(cal).values()];
    let since: number | undefined;
    let snapshot = this.seq;
    let offset = 0;
    if (p.pageToken) {
      const t = decode<{ o: number; s: number; since?: number }>(p.pageToken);
      if (!t) throw new CalendarApiError(400, 'invalid', 'Invalid page token value.');
      ({ o: offset, s: snapshot, since } = t);
    } else if (p.syncToken) {
      if (p.incompatible.length) {
        throw new CalendarApiError(400, 'invalid', `Sync token cannot be used with ${p.incompatible.join(', ')}.`);
      }
      const t = decode<{ c: string; s: number }>(p.syncToken);
      if (!t || t.c !== cal) throw new CalendarApiError(400, 'invalid', 'Invalid sync token value.');
      if (t.s < (this.tokenFloor.get(cal) ?? 0)) {
        throw new CalendarApiError(410, 'fullSyncRequired', 'Sync token is no longer valid, a full sync is required.');
      }
      since = t.s;
    }
    const incremental = since !== undefined;
    const min = p.timeMin ? Date.parse(p.timeMin) : -Infinity;
    const max = p.timeMax ? Date.parse(p.timeMax) : Infinity;
    const updatedMin = p.updatedMin ? Date.parse(p.updatedMin) : -Infinity;
    const wanted = (p.privateExtendedProperty ?? []).map((kv) => kv.split('=') as [string, string | undefined]);
    const matching = all
      .filter(({ event: e, changeSeq }) => {
        if (incremental) return changeSeq > since!;
        if (e.status === 'cancelled' && !p.showDeleted) return false;
        if (startMs(e.end) <= min || startMs(e.start) >= max) return false;
        if (Date.parse(e.updated) < updatedMin) return false;
        return wanted.every(([k, v]) => e.extendedProperties?.private?.[k] === v);
      })
      .sort((a, b) => (a.event.id < b.event.id ? -1 : 1));
    const size = Math.min(Math.max(p.maxResults ?? 250, 1), 2500);
    const page = matching.slice(offset, offset + size).map(({ event: e }) =>
      // Tombstones carry little more than their id.
      e.status === 'cancelled' ? { kind: e.kind, etag: e.etag, id: e.id, status: e.status, updated: e.updated } : structuredClone(e),
    );
    if (offset + size < matching.length) {
      return { items: page, nextPageToken: encode({ o: offset + size, s: snapshot, since }) };
    }
    return { items: page, nextSyncToken: encode({ c: cal, s: snapshot }) };
  }

  /** Every sync token issued so far for the calendar (or all calendars) now answers 410. */
  invalidateSyncTokens(cal?: string): void {
    for (const id of cal ? [cal] : [...this.calendars.keys()]) this.tokenFloor.set(id, this.seq + 1);
  }

  /** Direct access for tests: events of a calendar, tombstones only when asked. */
  events(cal: string, options: { includeDeleted?: boolean } = {}): SimulatedEvent[] {
    return [...this.calendar(cal).values()]
      .map((s) => structuredClone(s.event))
      .filter((e) => options.includeDeleted || e.status !== 'cancelled');
  }

  calendarIds(): string[] {
    return [...this.calendars.keys()];
  }

  /** A person editing the event in Google's UI: no If-Match, etag and sequence change. */
  userEdit(cal: string, id: string, changes: Partial<SimulatedEvent>): SimulatedEvent {
    const s = this.existing(cal, id);
    const event = { ...s.event, ...changes, id } as SimulatedEvent;
    if (changes.start || changes.end) event.sequence = s.event.sequence + 1;
    this.stamp(cal, event);
    return structuredClone(event);
  }

  /** A person deleting the event in Google's UI. */
  userDelete(cal: string, id: string): void {
    const s = this.existing(cal, id);
    this.stamp(cal, { ...s.event, status: 'cancelled' });
  }
}
