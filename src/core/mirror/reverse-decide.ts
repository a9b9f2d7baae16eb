// The reverse sync's rules (ARCHITECTURE.md, principle 6): what a change seen in a target means for the
// booking service, and when an observation is too old to act on. Pure: stored state and the
// observed event in, one action out. No I/O here.
import type { LinkState } from './link.ts';
import { outcomeUnknown, type Unsure } from './write-plan.ts';
import { isEcho } from './ours.ts';
import type { TargetEvent } from './target.ts';

export type OnDelete = 'recreate' | 'cancel' | 'ignore';

/** One event as a round saw it. */
export interface ObservedEvent extends TargetEvent {
  /** `change`: the target listed it (incremental, full, or a read); `missing`: only absent from a full listing. */
  source: 'change' | 'missing';
}

/** The appointment as stored from the booking service. */
export interface AppointmentState {
  start: number;
  end: number;
  /** False when cancelled, gone, outside `statuses` or mapped elsewhere: the writer removes its event anyway. */
  mirrored: boolean;
}

export interface DecideInput {
  event: ObservedEvent;
  link: Pick<LinkState, 'present' | 'etag' | 'writtenStart'> | undefined;
  appointment: AppointmentState | undefined;
  /** The etag of the last observation we already acted on for this appointment. */
  handledEtag?: string | null;
  /** Where our last completed reschedule put the appointment: its start is then our doing, not news. */
  lastRescheduledTo?: number | null;
  /** Where reschedules recorded and not yet settled would put it: one may have been sent, its answer lost to a crash. */
  pendingRescheduleTo?: readonly number[];
  onDelete: OnDelete;
}

export type NoneReason = 'not-mirrored' | 'echo' | 'handled' | 'agrees' | 'other-edit';

export type ReverseAction =
  | { kind: 'none'; reason: NoneReason }
  /** A person moved the event: reschedule at the booking service (after the slot check). */
  | { kind: 'reschedule'; start: number; end: number; fromStart: number }
  /** Put the event back to what the booking service says. */
  | { kind: 'restore'; reason: 'booking-changed' | 'not-a-time' }
  | { kind: 'recreate'; reason: 'policy' | 'booking-changed' }
  | { kind: 'cancel' }
  | { kind: 'ignore' }
  /** Absent from a full listing only: read it again before believing it is deleted. */
  | { kind: 'recheck' };

const none = (reason: NoneReason): ReverseAction => ({ kind: 'none', reason });

/** The booking side moved the appointment since we last wrote it (our own reschedules, done or perhaps in flight, excepted). */
function bookingMoved(link: Pick<LinkState, 'writtenStart'>, a: AppointmentState, input: DecideInput): boolean {
  if (link.writtenStart === null) return false;
  return a.start !== link.writtenStart && a.start !== input.lastRescheduledTo && !(input.pendingRescheduleTo ?? []).includes(a.start);
}

export function decideReverse(input: DecideInput): ReverseAction {
  const { event, link, appointment: a } = input;
  if (!link || !link.present) return none('not-mirrored');
  if (isEcho(event, link)) return none('echo');
  if (event.etag !== null && event.etag === input.handledEtag) return none('handled');
  if (!a || !a.mirrored) return none('not-mirrored');

  if (event.deleted) {
    if (event.source === 'missing') return { kind: 'recheck' };
    if (bookingMoved(link, a, input)) return { kind: 'recreate', reason: 'booking-changed' };
    if (input.onDelete === 'recreate') return { kind: 'recreate', reason: 'policy' };
    return input.onDelete === 'cancel' ? { kind: 'cancel' } : { kind: 'ignore' };
  }

  if (event.start === null) return { kind: 'restore', reason: 'not-a-time' };
  if (event.start === a.start) return none('agrees');
  if (event.start === link.writtenStart) return none('other-edit');
  if (bookingMoved(link, a, input)) return { kind: 'restore', reason: 'booking-changed' };
  // Duration stays the booking's, whatever the person did to the end.
  return { kind: 'reschedule', start: event.start, end: event.start + (a.end - a.start), fromStart: a.start };
}

/**
 * A person moved the event to where the booking service has it too (both moved it alike, or one
 * followed the other): nothing to send, but the link takes the event's state, so that a later move
 * of it is weighed against the time it shows rather than our older write (which would make it look
 * like a booking-side change, and set the person's move back). Not an event that carries the hash
 * the writer wants: that is our own write whose answer was lost, which the writer adopts whole.
 */
export function adoptsAgreement(
  action: ReverseAction,
  link: Pick<LinkState, 'writtenStart'> | undefined,
  event: TargetEvent,
  wantedHash: string | undefined,
): { etag: string; start: number; end: number } | null {
  if (action.kind !== 'none' || action.reason !== 'agrees' || !link || event.ourHash === wantedHash) return null;
  if (event.etag === null || event.start === null || event.end === null || event.start === link.writtenStart) return null;
  return { etag: event.etag, start: event.start, end: event.end };
}

type WeighedLink = Pick<LinkState, 'present' | 'etag' | 'writtenStart'>;

/**
 * The link as the reverse sync weighs an event. A live event that carries exactly the hash of what
 * the writer wants, for an appointment whose last write failed or was cut off by a crash, is that
 * write, landed with its answer lost: ours, written at the wanted time. So a person's move of it is
 * a move like any other, not taken for a booking-side change against the older time the link holds.
 */
export function weighedLink(
  link: WeighedLink & Unsure,
  event: TargetEvent,
  wanted: { hash: string; start: number } | undefined,
): WeighedLink {
  const landed = outcomeUnknown(link) && !event.deleted && wanted !== undefined && event.ourHash === wanted.hash;
  return landed ? { present: true, etag: link.present ? link.etag : null, writtenStart: wanted.start } : link;
}

/**
 * The writer changed this link after `since` (a listing's start, a decision's time): what was
 * observed before may be our own earlier write, not a person's change. A decision on it is made
 * again from a fresh read, or left for the next round with the cursor kept.
 */
export function writtenSince(link: Pick<LinkState, 'updatedAt'> | undefined, since: number): boolean {
  return (link?.updatedAt ?? 0) > since;
}

/** Read the event again before deciding: only missing from a full listing, or listed before our latest write. */
export function readAgain(action: ReverseAction, link: Pick<LinkState, 'updatedAt'> | undefined, listedAt: number): boolean {
  return action.kind === 'recheck' || writtenSince(link, listedAt);
}

/** The cursor moves on only when every change of the batch was acted on (none held, none overtaken). */
export function advancesCursor(round: { held: boolean; overtaken: boolean }): boolean {
  return !round.held && !round.overtaken;
}
