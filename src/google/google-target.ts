// The calendar target port (core/mirror/target.ts) over the Google Calendar API: the answers of
// conditional requests become typed results (409 → exists, 412 → changed, 404/410 → missing,
// 403 → refused), for writes and deletes alike; every other failure stays a GoogleError, which is the
// port's TargetError.
import { PROP_HASH, type EventBody } from '../core/mirror/desired-event.ts';
import type { CalendarTarget, GetResult, PutResult, RemoveResult, TargetEvent } from '../core/mirror/target.ts';
import { GoogleError, type GoogleErrorKind } from './errors.ts';
import type { CalendarApi, GoogleEvent } from './port.ts';
import { readChanges } from './reverse/change-feed.ts';

/** One event as the mirror sees it. Times a reschedule cannot carry (all-day, repeating) are none. */
function targetEventOf(e: GoogleEvent): TargetEvent {
  const timed = e.recurring !== true;
  return {
    id: e.id,
    etag: e.etag || null,
    deleted: e.status === 'cancelled',
    start: timed ? e.start : null,
    end: timed ? e.end : null,
    ourHash: e.privateProperties[PROP_HASH] ?? null,
    title: e.summary ?? '',
    ...(e.description !== undefined ? { description: e.description ?? '' } : {}),
    status: e.status,
  };
}

const kindOf = (e: unknown, ...kinds: GoogleErrorKind[]): boolean => e instanceof GoogleError && kinds.includes(e.kind);

const written = (e: GoogleEvent): PutResult => ({ kind: 'written', etag: e.etag || null });

export function createGoogleTarget(api: CalendarApi): CalendarTarget<EventBody> {
  return {
    async put(calendarId, eventId, body, condition): Promise<PutResult> {
      try {
        if (condition.kind === 'absent') return written(await api.insert(calendarId, eventId, body));
        return written(await api.update(calendarId, eventId, body, condition.kind === 'etag' ? condition.etag : undefined));
      } catch (e) {
        if (kindOf(e, 'conflict')) return { kind: 'exists' };
        if (kindOf(e, 'precondition_failed')) return { kind: 'changed' };
        // A 404 on an insert is about the calendar (wrong id, not shared), not the event: a failure.
        if (condition.kind !== 'absent' && kindOf(e, 'not_found', 'gone')) return { kind: 'missing' };
        if (kindOf(e, 'forbidden')) return { kind: 'refused', message: (e as GoogleError).message };
        throw e;
      }
    },

    async get(calendarId, eventId): Promise<GetResult> {
      try {
        return { kind: 'found', event: targetEventOf(await api.get(calendarId, eventId)) };
      } catch (e) {
        if (kindOf(e, 'not_found', 'gone')) return { kind: 'missing' };
        throw e;
      }
    },

    // With the etag as If-Match, as the other targets delete: only the version we know is removed,
    // and the mirror core decides on a person's edit made since (core/mirror/write-decide.ts, afterRemove).
    async remove(calendarId, eventId, etag): Promise<RemoveResult> {
      try {
        await api.delete(calendarId, eventId, etag ?? undefined);
        return { kind: 'removed' };
      } catch (e) {
        if (kindOf(e, 'not_found', 'gone')) return { kind: 'missing' };
        if (kindOf(e, 'precondition_failed')) return { kind: 'changed' };
        throw e;
      }
    },

    async changes(calendarId, cursor) {
      const batch = await readChanges(api, calendarId, cursor ?? undefined);
      return { mode: batch.mode, events: batch.events.map(targetEventOf), cursor: batch.nextSyncToken };
    },
  };
}
