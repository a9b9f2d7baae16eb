// Carries out one planned Google action and records what Google now holds. Idempotent by
// construction: the event id is derived, so a repeated insert is a 409 that we adopt.
import { eventIdFor } from '../core/event-id.ts';
import { PROP_HASH, type DesiredEvent, type GoogleAction } from '../core/google-plan.ts';
import type { CalendarApi, GoogleEvent } from '../google/port.ts';
import { GoogleError } from '../google/errors.ts';
import type { GoogleLinkStore } from '../store/google-link-store.ts';

export interface ApplyDeps {
  api: CalendarApi;
  links: GoogleLinkStore;
  /**
   * Reverse sync is on: a move (and, unless on_delete is ignore, a deletion) a person made in Google
   * is its to decide, not ours to overwrite.
   */
  defer?: {
    moves: boolean;
    deletions: boolean;
    /** Whether to leave this very state (etag) of the event to the reverse sync once more; false: write ours. */
    allowed(key: string, etag: string): boolean;
  };
}

/** The event was moved or deleted in Google since our write; the reverse sync decides what happens. */
export class ChangedInGoogle extends Error {
  override name = 'ChangedInGoogle';
}

export interface ApplyInput {
  key: string;
  revision: number;
  action: Exclude<GoogleAction, { kind: 'none' }>;
  desired: DesiredEvent | null;
}

/** How many new id generations we try when Google keeps refusing revivals. */
const MAX_GENERATION_STEPS = 3;

const missing = (e: unknown) => e instanceof GoogleError && (e.kind === 'not_found' || e.kind === 'gone');
const is = (e: unknown, kind: GoogleError['kind']) => e instanceof GoogleError && e.kind === kind;

export async function applyAction(deps: ApplyDeps, input: ApplyInput): Promise<void> {
  const { api, links } = deps;
  const { key, revision, action, desired } = input;

  const record = (calendarId: string, generation: number, ev: GoogleEvent) =>
    links.recordWrite(key, {
      calendarId,
      eventId: ev.id,
      generation,
      present: true,
      hash: desired?.hash ?? null,
      etag: ev.etag,
      start: desired?.start ?? ev.start,
      end: desired?.end ?? ev.end,
      revision,
    });

  const removed = (calendarId: string, eventId: string, generation: number) =>
    links.recordWrite(key, { calendarId, eventId, generation, present: false, hash: null, etag: null, start: null, end: null, revision });

  async function remove(calendarId: string, eventId: string): Promise<void> {
    try {
      await api.delete(calendarId, eventId);
    } catch (e) {
      if (!missing(e)) throw e; // 404/410: already gone, which is what we wanted
    }
  }

  async function insert(calendarId: string, generation: number): Promise<void> {
    const d = desired!;
    for (let g = generation; g <= generation + MAX_GENERATION_STEPS; g++) {
      const eventId = eventIdFor(key, g);
      try {
        return record(calendarId, g, await api.insert(calendarId, eventId, d.body));
      } catch (e) {
        if (!is(e, 'conflict')) throw e;
      }
      // 409: the id exists: our own earlier insert (a crash or a lost answer), or a tombstone.
      const existing = await api.get(calendarId, eventId);
      // Ours and what we want (our hash survives a person's move, so the times must agree too): adopt it, no write.
      if (existing.status !== 'cancelled' && existing.privateProperties[PROP_HASH] === d.hash && existing.start === d.start && existing.end === d.end) {
        return record(calendarId, g, existing);
      }
      try {
        return record(calendarId, g, await api.update(calendarId, eventId, d.body, existing.etag));
      } catch (e) {
        if (!is(e, 'forbidden') || existing.status !== 'cancelled') throw e;
      }
      // Google refuses to revive this deleted id: remember the next generation before using it.
      links.bumpGeneration(key, calendarId, eventIdFor(key, g + 1), g + 1);
    }
    throw new GoogleError('forbidden', `Google refused ${MAX_GENERATION_STEPS} revivals of this appointment's event`);
  }

  async function update(calendarId: string, eventId: string, etag: string | null, generation: number): Promise<void> {
    const d = desired!;
    try {
      return record(calendarId, generation, await api.update(calendarId, eventId, d.body, etag ?? undefined));
    } catch (e) {
      if (missing(e)) return insert(calendarId, generation);
      if (!is(e, 'precondition_failed')) throw e;
    }
    // 412: someone changed the event since our write. A new time or a deletion is a person's move,
    // for the reverse sync to send to the booking service (or to undo); anything else we re-apply.
    const current = await api.get(calendarId, eventId);
    const writtenStart = links.get(key)?.writtenStart ?? null;
    const deleted = current.status === 'cancelled';
    const moved = !deleted && writtenStart !== null && current.start !== writtenStart;
    const personal = (deleted && deps.defer?.deletions) || (moved && deps.defer?.moves);
    if (personal && deps.defer?.allowed(key, current.etag)) {
      throw new ChangedInGoogle('moved or deleted in Google since our last write; the reverse sync decides');
    }
    record(calendarId, generation, await api.update(calendarId, eventId, d.body, current.etag));
  }

  switch (action.kind) {
    case 'insert':
      return insert(action.calendarId, action.generation);
    case 'update':
      return update(action.calendarId, action.eventId, action.etag, links.get(key)?.generation ?? 0);
    case 'delete': {
      await remove(action.calendarId, action.eventId);
      return removed(action.calendarId, action.eventId, links.get(key)?.generation ?? 0);
    }
    case 'move': {
      await remove(action.from.calendarId, action.from.eventId);
      removed(action.from.calendarId, action.from.eventId, action.generation);
      return insert(action.calendarId, action.generation);
    }
  }
}
