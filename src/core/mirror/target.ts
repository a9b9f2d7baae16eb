// A calendar target (Google, a CalDAV server) as the writer and the reverse sync see it: put, get,
// remove and "what changed", in our own words. The expected answers of conditional requests (it
// exists, it changed, it is missing, it is refused) are typed results the mirror core decides on;
// only failures (auth, quota, rate limits, a server or network fault, a request it rejects) are
// thrown, as TargetError. Adapters implement this; nothing here knows HTTP or a vendor's SDK.
import type { EventBody } from './desired-event.ts';

/** One event as the target shows it now. */
export interface TargetEvent {
  id: string;
  /** The target's version of it (an ETag); null when it gave none. */
  etag: string | null;
  /** Deleted: a tombstone (Google keeps deleted events), or a removal a change listing reports. */
  deleted: boolean;
  /** Epoch ms; null for an all-day event or a deletion without times. */
  start: number | null;
  end: number | null;
  /** The content hash our write stored in the event (a private property); null if none. */
  ourHash: string | null;
  /** What a calendar app shows as its title, description and status (confirmed, tentative); undefined when the target did not say. */
  title?: string | null;
  description?: string | null;
  status?: string | null;
}

/**
 * The condition of a put: only if no event has this id (a create: Google insert with our derived
 * id, CalDAV If-None-Match: *), only if it still has this version (If-Match), or none.
 */
export type Precondition = { kind: 'absent' } | { kind: 'etag'; etag: string } | { kind: 'none' };

export type PutResult =
  /** The etag of what we wrote; null when the target did not say. */
  | { kind: 'written'; etag: string | null }
  /** A create met an event under this id: our own earlier write, someone's, or a tombstone. */
  | { kind: 'exists' }
  /** The version condition failed: someone changed (or deleted) the event since our write. */
  | { kind: 'changed' }
  /** An update of an event the target no longer has. */
  | { kind: 'missing' }
  /** The target will not take this write (Google refusing to revive a deleted id, no right to it). */
  | { kind: 'refused'; message: string };

export type GetResult = { kind: 'found'; event: TargetEvent } | { kind: 'missing' };

export type RemoveResult = { kind: 'removed' } | { kind: 'missing' } | { kind: 'changed' };

/** What changed in one calendar since a cursor. */
export interface ChangeBatch {
  /** full: every live event, no deletions (they are found by comparing with what we mirror). */
  mode: 'incremental' | 'full';
  events: TargetEvent[];
  /** Where the next round starts (a sync token). */
  cursor: string;
}

export interface CalendarTarget<B = EventBody> {
  put(calendarId: string, eventId: string, body: B, condition: Precondition): Promise<PutResult>;
  get(calendarId: string, eventId: string): Promise<GetResult>;
  /** With an etag only that version is removed (else `changed`); null removes whatever is there. */
  remove(calendarId: string, eventId: string, etag: string | null): Promise<RemoveResult>;
  /** From a stored cursor, or everything when there is none or the target no longer accepts it. */
  changes(calendarId: string, cursor: string | null): Promise<ChangeBatch>;
}

/** Failures, in our words; the outcome labels of the write metrics. */
export type TargetErrorKind =
  | 'rate_limited' // slow down and retry
  | 'quota_exceeded' // a usage limit: back off for a long time
  | 'not_found' // something that had to exist does not (a calendar)
  | 'gone'
  | 'conflict'
  | 'precondition_failed' // changed again while we wrote it
  | 'forbidden' // refused
  | 'auth' // credentials refused or missing
  | 'transient' // 5xx, network, timeouts
  | 'invalid'; // our request is wrong; retrying will not help

export class TargetError extends Error {
  override name = 'TargetError';
  constructor(
    readonly kind: TargetErrorKind,
    message: string,
    /** The HTTP status the target answered with; undefined when no answer came (network, timeout). */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The target answered (whatever it said) and did not refuse our credentials: they work. */
export const provesAccess = (e: TargetError): boolean => e.status !== undefined && e.kind !== 'auth';

/** Any error as a TargetError: adapters throw only these, anything else is a fault of ours. */
export function asTargetError(e: unknown): TargetError {
  return e instanceof TargetError ? e : new TargetError('invalid', e instanceof Error ? e.message : String(e));
}
