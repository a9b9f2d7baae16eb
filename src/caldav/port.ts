// What calbridge needs from a CalDAV server, in its own terms. client.ts implements it over HTTP;
// the writer and the reverse sync see only these shapes. ETags are kept exactly as the server wrote
// them (quotes included) and given back in If-Match unchanged.

export interface CalendarCollection {
  /** Absolute URL of the collection, ending in a slash. */
  url: string;
  displayName: string | null;
  /** The server offers sync-collection here (it reported a DAV:sync-token); else compare ETag listings. */
  supportsSync: boolean;
}

/** Create only if absent (If-None-Match: *), or change only the version we know (If-Match). */
export type DavPrecondition = { kind: 'create' } | { kind: 'update'; etag: string };

export type DavPutResult =
  /** etag is null when the server did not say (it may have rewritten the body, RFC 4791 §5.3.4): read it back when needed. */
  | { kind: 'written'; etag: string | null }
  /** The create met an existing resource (ours from an earlier attempt, or someone's). */
  | { kind: 'exists' }
  /** The update met another version: someone changed or deleted it since we read it. */
  | { kind: 'changed_remotely' };

export type DavGetResult = { kind: 'found'; ics: string; etag: string } | { kind: 'not_found' };

export type DavRemoveResult = { kind: 'removed' } | { kind: 'not_found' } | { kind: 'changed_remotely' };

/** One member of a collection as a listing or a change report shows it. */
export interface ObjectRef {
  /** Absolute URL of the resource. */
  href: string;
  /** The appointment key its name spells (`{key}.ics`), or null for a name that is not one of ours. */
  key: string | null;
  /** Null when a change report left it out: fetch the object to learn it. */
  etag: string | null;
}

export type ChangesResult =
  | { kind: 'changes'; changed: ObjectRef[]; removed: Omit<ObjectRef, 'etag'>[]; token: string }
  /** The server no longer knows the token (RFC 6578 valid-sync-token): list everything and compare. */
  | { kind: 'token_expired' }
  /** The server refused the REPORT as one it does not offer here (501, or DAV:supported-report): compare ETag listings. */
  | { kind: 'unsupported' };

export interface FetchedObject {
  href: string;
  key: string | null;
  etag: string;
  ics: string;
}

export interface CalDavApi {
  /** Every calendar of the account that can hold events. */
  calendars(): Promise<CalendarCollection[]>;
  /** The calendar a config entry names: its display name or its collection URL. */
  findCalendar(nameOrUrl: string): Promise<CalendarCollection>;
  put(collection: string, key: string, ics: string, precondition: DavPrecondition): Promise<DavPutResult>;
  get(collection: string, key: string): Promise<DavGetResult>;
  remove(collection: string, key: string, etag: string): Promise<DavRemoveResult>;
  /** sync-collection from a stored token; null asks for every member and a first token. */
  changesSince(collection: string, token: string | null): Promise<ChangesResult>;
  /** Every member with its ETag (servers without sync-collection, or after an expired token). */
  listEtags(collection: string): Promise<ObjectRef[]>;
  /** The collection's CTag, where the server keeps one: unchanged means no member changed. */
  ctag(collection: string): Promise<string | null>;
  /** Many objects in one calendar-multiget REPORT per batch; hrefs the server no longer has come back in missing. */
  multiget(collection: string, hrefs: readonly string[]): Promise<{ found: FetchedObject[]; missing: string[] }>;
}
