// The one action that brings a target from what we last wrote (the link) to the event an
// appointment should have (ARCHITECTURE.md, principle 1: level-triggered, only the difference is written).
import { eventIdFor } from '../event-id.ts';
import type { LinkState } from './link.ts';

export type WriteAction =
  | { kind: 'none' }
  | { kind: 'insert'; calendarId: string; eventId: string; generation: number }
  | { kind: 'update'; calendarId: string; eventId: string; etag: string | null }
  | { kind: 'delete'; calendarId: string; eventId: string }
  | { kind: 'move'; from: { calendarId: string; eventId: string }; calendarId: string; eventId: string; generation: number };

/** What the link cannot vouch for: failed attempts since the last recorded write, or one cut off by a crash. */
export type Unsure = Pick<LinkState, 'writeInFlight'> & {
  /** Failed attempts since the last recorded write. */
  attempts: number;
};

type PlanLink = Pick<LinkState, 'calendarId' | 'eventId' | 'generation' | 'present' | 'writtenHash' | 'etag'> & Unsure;

/**
 * The target may not hold what the link says we last wrote: a write since then failed (its answer
 * may have been lost after it was applied) or was under way when the process died.
 */
export function outcomeUnknown(link: Unsure): boolean {
  return link.attempts > 0 || link.writeInFlight;
}

/** A target's event id of an appointment in an id generation (Google's derived id by default). */
export type EventIdOf = (key: string, generation: number) => string;

export function planWrite(
  key: string,
  desired: { calendarId: string; hash: string } | null,
  link: PlanLink | undefined,
  idOf: EventIdOf = eventIdFor,
): WriteAction {
  if (!desired) {
    // A failed create (or revival) may have landed with its answer lost: with no event wanted now,
    // delete it to be sure (a 404 or 410 means it had not, which is done too).
    const mayExist = link !== undefined && (link.present || outcomeUnknown(link));
    return mayExist ? { kind: 'delete', calendarId: link.calendarId, eventId: link.eventId } : { kind: 'none' };
  }
  const generation = link?.generation ?? 0;
  const eventId = idOf(key, generation);
  if (!link?.present) return { kind: 'insert', calendarId: desired.calendarId, eventId, generation };
  if (link.calendarId !== desired.calendarId) {
    return {
      kind: 'move',
      from: { calendarId: link.calendarId, eventId: link.eventId },
      calendarId: desired.calendarId,
      eventId,
      generation,
    };
  }
  if (link.writtenHash === desired.hash) {
    // What we last wrote is what we want, but a later write (a delete, an update) may have landed
    // unseen: create if absent, else read the event and adopt it or write over it (mirror-apply).
    return outcomeUnknown(link) ? { kind: 'insert', calendarId: link.calendarId, eventId: link.eventId, generation } : { kind: 'none' };
  }
  return { kind: 'update', calendarId: link.calendarId, eventId: link.eventId, etag: link.etag };
}

/**
 * Nothing to write, but the link should note this revision: it was written for an older one (the
 * change is one the target does not show), or it still carries the failure of a write that is no
 * longer needed, which would otherwise stay in status for good.
 */
export function notesRevision(link: { writtenRevision: number | null; lastError: string | null } | undefined, revision: number): boolean {
  return link !== undefined && (link.writtenRevision !== revision || link.lastError !== null);
}

/**
 * The link's failure is of a create the appointment no longer wants: a delete to be sure is planned
 * instead (see planWrite). The failure leaves status; the delete, a change of what is wanted, is
 * due at once (retry-due.ts).
 */
export function failureSuperseded(link: { present: boolean; lastError: string | null } | undefined, action: WriteAction): boolean {
  return action.kind === 'delete' && link !== undefined && !link.present && link.lastError !== null;
}
