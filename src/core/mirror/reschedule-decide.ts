// Carrying a person's move to the booking service: what to do with the appointment as re-read just
// before the PATCH, the slot check, and what the link may take from the person's edit afterwards.
import type { LinkState } from './link.ts';
import { showsWhatWeWant, type WantedFacts } from './ours.ts';
import type { TargetEvent } from './target.ts';

export type OnConflict = 'revert' | 'allow';

/** Does [aStart, aEnd) overlap [bStart, bEnd)? Touching ends do not overlap. */
export function overlaps(aStart: number, aEnd: number, bStart: number, bEnd: number): boolean {
  return aStart < bEnd && bStart < aEnd;
}

/** The booking service's current view of the appointment just before we act. */
export type FreshState = { found: false } | { found: true; start: number; cancelled: boolean };

export type RescheduleStep =
  | { kind: 'drop'; reason: 'gone' | 'cancelled' }
  | { kind: 'done'; reason: 'already-there' }
  | { kind: 'revert'; reason: 'booking-changed' }
  | { kind: 'check-slot' };

/**
 * Before a reschedule PATCH, with the appointment re-read: nothing to do, booking wins, or go on.
 * `expected` holds the starts that are not a booking-side change: the one the person's move started
 * from, and where our own earlier reschedules of it (perhaps still in flight) put it.
 */
export function beforeReschedule(fresh: FreshState, target: number, expected: readonly number[]): RescheduleStep {
  if (!fresh.found) return { kind: 'drop', reason: 'gone' };
  if (fresh.cancelled) return { kind: 'drop', reason: 'cancelled' };
  if (fresh.start === target) return { kind: 'done', reason: 'already-there' };
  if (!expected.includes(fresh.start)) return { kind: 'revert', reason: 'booking-changed' };
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
  /** The hash the writer wants once the move is taken, when the person's event shows all of it (adoptOnAcceptance). */
  hash: string | null;
}

/**
 * When a person's move is recorded: the hash the link takes once the booking service accepts it,
 * if the event as the person left it shows everything the writer will then want (`afterMove`: the
 * desired event of the appointment at the new times). Then nothing is written after the move; a
 * change the booking service cannot take (the length, a title) is put back by that write instead.
 */
export function adoptOnAcceptance(event: TargetEvent, afterMove: WantedFacts | undefined): string | null {
  return afterMove !== undefined && showsWhatWeWant(event, afterMove) ? afterMove.hash : null;
}

/**
 * After a reschedule the booking agrees with what the person left in the target: that edit (its
 * etag, its times) is what the event holds, so a second move is compared with the times the event
 * really shows. When the booking service's record, read back, stands at the new start and the edit
 * shows all the writer wants (`move.hash`), the link takes that hash too: the writer then has
 * nothing to write (no PUT of the times the event already shows). Otherwise its coming write needs
 * no 412 round trip. Only when nothing touched the link since the move was decided on and it still
 * holds the start the move was made from.
 */
export function adoptAfterReschedule(
  link: Pick<LinkState, 'present' | 'writtenStart' | 'updatedAt'> | undefined,
  move: AcceptedMove,
  readBack: { start: number } | null,
): { etag: string; start: number; end: number; hash?: string } | null {
  if (move.etag === null || move.fromStart === null || !link?.present) return null;
  if (link.writtenStart !== move.fromStart || link.updatedAt > move.decidedAt) return null;
  const edit = { etag: move.etag, start: move.start, end: move.end };
  return move.hash !== null && readBack?.start === move.start ? { ...edit, hash: move.hash } : edit;
}
