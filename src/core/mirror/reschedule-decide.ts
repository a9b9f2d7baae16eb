// Carrying a person's move to the booking service: what to do with the appointment as re-read just
// before the PATCH, the slot check, and what the link may take from the person's edit afterwards.
import type { LinkState } from './link.ts';
import { showsWhatWeWant, type WantedFacts } from './ours.ts';
import { outcomeUnknown, type Unsure } from './write-plan.ts';
import type { TargetEvent } from './target.ts';

export type OnConflict = 'revert' | 'allow';

/** Does [aStart, aEnd) overlap [bStart, bEnd)? Touching ends do not overlap. */
export function overlaps(aStart: number, aEnd: number, bStart: number, bEnd: number): boolean {
  return aStart < bEnd && bStart < aEnd;
}

/** The booking service's current view of the appointment just before we act. */
export type FreshState = { found: false } | { found: true; start: number; cancelled: boolean };

export type RescheduleStep =
  | { kind: 'drop'; reason: 'gone' | 'cancelled' | 'put-back' }
  | { kind: 'done'; reason: 'already-there' }
  | { kind: 'revert'; reason: 'booking-changed' }
  | { kind: 'check-slot' };

/**
 * Before a reschedule PATCH, with the appointment re-read: nothing to do, booking wins, or go on.
 * `expected` holds the starts that are not a booking-side change: the one the person's move started
 * from, and where our own earlier reschedules of it (perhaps still in flight) put it. `putBack`: the
 * writer already put the move back (alreadyPutBack); the calendar shows the booking's time again, so
 * the move is not sent after it (the event would be moved a second time, by us).
 */
export function beforeReschedule(fresh: FreshState, target: number, expected: readonly number[], putBack = false): RescheduleStep {
  if (!fresh.found) return { kind: 'drop', reason: 'gone' };
  if (fresh.cancelled) return { kind: 'drop', reason: 'cancelled' };
  if (fresh.start === target) return { kind: 'done', reason: 'already-there' };
  if (!expected.includes(fresh.start)) return { kind: 'revert', reason: 'booking-changed' };
  if (putBack) return { kind: 'drop', reason: 'put-back' };
  return { kind: 'check-slot' };
}

export interface SlotOccupant {
  key: string;
  start: number;
  end: number;
  cancelled: boolean;
}

/** The other, non-cancelled appointments that overlap the new slot. */
export function slotConflicts(key: string, start: number, end: number, occupants: SlotOccupant[]): SlotOccupant[] {
  return occupants.filter((o) => o.key !== key && !o.cancelled && overlaps(start, end, o.start, o.end));
}

export function afterSlotCheck(conflicts: number, onConflict: OnConflict): 'patch' | 'revert' {
  return conflicts > 0 && onConflict === 'revert' ? 'revert' : 'patch';
}

/** A reschedule the booking service accepted: the person's edit as the reverse sync recorded it. */
export interface AcceptedMove {
  etag: string | null;
  fromStart: number | null;
  start: number;
  end: number;
  decidedAt: number;
}

/**
 * When a person's move is recorded: the hash the writer will want once the booking service takes
 * it, if the event as the person left it shows all of that (`afterMove`: the desired event of the
 * appointment at the new times). The writer then takes the edit as it is (write-decide.ts,
 * takesPersonsEdit) instead of writing the times it shows; a change the booking service cannot
 * take (the length, a title) is put back by the writer's write instead.
 */
export function adoptOnAcceptance(event: TargetEvent, afterMove: WantedFacts | undefined): string | null {
  return afterMove !== undefined && showsWhatWeWant(event, afterMove) ? afterMove.hash : null;
}

/**
 * After a reschedule the booking agrees with what the person left in the target: that edit (its
 * etag, its times) is what the event holds, so the writer's coming update needs no 412 round trip,
 * and a second move is compared with the times the event really shows. Only when nothing touched
 * the link since the move was decided on and it still holds the start the move was made from.
 */
export function adoptAfterReschedule(
  link: Pick<LinkState, 'present' | 'writtenStart' | 'updatedAt'> | undefined,
  move: AcceptedMove,
): { etag: string; start: number; end: number } | null {
  if (move.etag === null || move.fromStart === null || !link?.present) return null;
  if (link.writtenStart !== move.fromStart || link.updatedAt > move.decidedAt) return null;
  return { etag: move.etag, start: move.start, end: move.end };
}

/**
 * A move that did not go through (a taken slot, a refusal, the booking service moved it first) is
 * put back, unless the writer already did: a write of ours, confirmed and recorded after the move
 * was decided on, replaced the person's edit (a conditional write cannot land on a version it did
 * not see). Asking again would send the same write on the stale etag of the person's edit, for a
 * 412 and nothing else.
 */
export function alreadyPutBack(
  link: (Pick<LinkState, 'present' | 'etag' | 'writtenHash' | 'updatedAt'> & Unsure) | undefined,
  move: { observedEtag: string | null; decidedAt: number },
): boolean {
  if (!link?.present || outcomeUnknown(link) || link.writtenHash === null || link.etag === null) return false;
  return link.etag !== move.observedEtag && link.updatedAt > move.decidedAt;
}
