// Reverse sync decisions (design principle 6): what a change seen in Google means for the booking
// service. Pure: stored state and the observed event in, one action out. No I/O here.

export type OnDelete = 'recreate' | 'cancel' | 'ignore';
export type OnConflict = 'revert' | 'allow';

/** One event as the change feed saw it. */
export interface ObservedEvent {
  eventId: string;
  /** A tombstone (status cancelled), or absent from a full re-list (see `source`). */
  deleted: boolean;
  etag: string | null;
  /** Start and end instants (epoch ms); null when not a timed event (all-day) or missing. */
  start: number | null;
  end: number | null;
  /** `change`: Google listed it (incremental, full, or a GET); `missing`: only absent from a full re-list. */
  source: 'change' | 'missing';
}

/** What we last wrote to Google for this appointment (google_links). */
export interface LinkState {
  present: boolean;
  etag: string | null;
  writtenStart: number | null;
}

/** The appointment as stored from the booking service. */
export interface AppointmentState {
  start: number;
  end: number;
  /** False when cancelled, gone or outside `statuses`: the writer is removing its event anyway. */
  mirrored: boolean;
}

export interface DecideInput {
  event: ObservedEvent;
  link: LinkState | undefined;
  appointment: AppointmentState | undefined;
  /** The etag of the last observation we already acted on for this appointment. */
  handledEtag?: string | null;
  /** Where our last completed reschedule put the appointment: its start is then our doing, not news. */
  lastRescheduledTo?: number | null;
  onDelete: OnDelete;
}

export type NoneReason = 'not-mirrored' | 'echo' | 'handled' | 'agrees' | 'other-edit';

export type ReverseAction =
  | { kind: 'none'; reason: NoneReason }
  /** A person moved the event: reschedule at the booking service (after the slot check). */
  | { kind: 'reschedule'; start: number; end: number; fromStart: number }
  /** Put the Google event back to what the booking service says. */
  | { kind: 'restore'; reason: 'booking-changed' | 'not-a-time' }
  | { kind: 'recreate'; reason: 'policy' | 'booking-changed' }
  | { kind: 'cancel' }
  | { kind: 'ignore' }
  /** Absent from a full re-list only: read it again before believing it is deleted. */
  | { kind: 'recheck' };

const none = (reason: NoneReason): ReverseAction => ({ kind: 'none', reason });

/** The booking side moved the appointment since we last wrote it (our own reschedule excepted). */
function bookingMoved(link: LinkState, a: AppointmentState, lastRescheduledTo: number | null | undefined): boolean {
  if (link.writtenStart === null) return false;
  return a.start !== link.writtenStart && a.start !== lastRescheduledTo;
}

export function decideReverse(input: DecideInput): ReverseAction {
  const { event, link, appointment: a } = input;
  if (!link || !link.present) return none('not-mirrored');
  if (event.etag !== null && event.etag === link.etag) return none('echo');
  if (event.etag !== null && event.etag === input.handledEtag) return none('handled');
  if (!a || !a.mirrored) return none('not-mirrored');

  if (event.deleted) {
    if (event.source === 'missing') return { kind: 'recheck' };
    if (bookingMoved(link, a, input.lastRescheduledTo)) return { kind: 'recreate', reason: 'booking-changed' };
    if (input.onDelete === 'recreate') return { kind: 'recreate', reason: 'policy' };
    return input.onDelete === 'cancel' ? { kind: 'cancel' } : { kind: 'ignore' };
  }

  if (event.start === null) return { kind: 'restore', reason: 'not-a-time' };
  if (event.start === a.start) return none('agrees');
  if (event.start === link.writtenStart) return none('other-edit');
  if (bookingMoved(link, a, input.lastRescheduledTo)) return { kind: 'restore', reason: 'booking-changed' };
  // Duration stays the booking's, whatever the person did to the end.
  return { kind: 'reschedule', start: event.start, end: event.start + (a.end - a.start), fromStart: a.start };
}

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

/**
 * Breaker for deletions found by a full re-list (a lost sync token): acting on more than `share`
 * of the mirrored events at once is more likely a fault than a person's work.
 */
export function deletionsTripBreaker(deletions: number, mirrored: number, share: number): boolean {
  if (deletions <= 1) return false;
  return deletions > Math.max(1, share * mirrored);
}
