// The reverse sync's rules (ARCHITECTURE.md, principle 6): what a change seen in a target means for the
// booking service, and when an observation is too old to act on. Pure: stored state and the
// observed event in, one action out. No I/O here.
import type { LinkState } from './link.ts';
import { outcomeUnknown, type Unsure } from './write-plan.ts';
import { isEcho, showsWhatWeWant, type WantedFacts } from './ours.ts';
import { unreturnable, type Unreturnable } from './shown.ts';
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
  link: (Pick<LinkState, 'present' | 'etag' | 'writtenStart'> & Partial<Pick<LinkState, 'writtenHash'>>) | undefined;
  appointment: AppointmentState | undefined;
  /** What the writer wants the event to show now (undefined: nothing, or not known). */
  wanted?: WantedFacts;
  /** The etag of the last observation we already acted on for this appointment. */
  handledEtag?: string | null;
  /** Where our last completed reschedule put the appointment: its start is then our doing, not news. */
  lastRescheduledTo?: number | null;
  /** Where reschedules recorded and not yet settled would put it: one may have been sent, its answer lost to a crash. */
  pendingRescheduleTo?: readonly number[];
  /** Our latest completed reschedule of it: where to, and when it settled. */
  lastReschedule?: { to: number; settledAt: number } | null;
  /** When the stored appointment last changed (its booking-service record, as we hold it). */
  bookingChangedAt?: number;
  /** A write of ours since the last recorded one failed or was cut off: the target may show it unseen. */
  writeUnsure?: boolean;
  /** The hash we would write for the appointment at the times the event shows (unsureWriteShown). */
  hashAtShownTimes?: string;
  onDelete: OnDelete;
}

export type NoneReason = 'not-mirrored' | 'echo' | 'handled' | 'agrees' | 'other-edit' | 'moved-already' | 'gone-too';

/**
 * Why an event is put back: the booking service moved it meanwhile; the event shows an earlier
 * write of ours whose answer never came, not a person's move (`earlier-write`); or the person
 * changed what the booking service cannot take.
 */
export type RestoreReason = 'booking-changed' | 'earlier-write' | Unreturnable;

export type ReverseAction =
  | { kind: 'none'; reason: NoneReason }
  /** A person moved the event: reschedule at the booking service (after the slot check). */
  | { kind: 'reschedule'; start: number; end: number; fromStart: number }
  /** Put the event back to what the booking service says. */
  | { kind: 'restore'; reason: RestoreReason }
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

/**
 * What a person changed that the booking service cannot take (the length, a title, a description,
 * the status), to be put back to the booking's. Only while the writer holds what it wants (its last
 * write is of the wanted hash): otherwise its coming write puts the event back anyway, and the
 * difference may be the booking service's own change, not the person's.
 */
function cannotFlowBack(link: { writtenHash?: string | null }, event: TargetEvent, wanted: WantedFacts | undefined): Unreturnable | null {
  if (!wanted || link.writtenHash !== wanted.hash) return null;
  return unreturnable(event, wanted)[0] ?? null;
}

/**
 * The event stands where our latest reschedule put it: that is the move we carried (or our own
 * write of it, its answer lost), not a new one to reschedule and settle a second time. `same`: the
 * booking service's answer has not reached the stored appointment yet. `overtaken`: the booking
 * service moved it since, and the event may be our own unrecorded write of the old time; the
 * booking wins. A person's new move there after a recorded write of ours is a move (null).
 */
function ourMove(input: DecideInput, start: number): 'same' | 'overtaken' | null {
  const last = input.lastReschedule;
  if (last === undefined || last === null || last.to !== start || input.bookingChangedAt === undefined) return null;
  if (input.bookingChangedAt <= last.settledAt) return 'same';
  return input.writeUnsure === true ? 'overtaken' : null;
}

/**
 * The event is a write of ours exactly as we made it, whose answer never came: it carries the hash of
 * the appointment at the very times it shows (a person's drag keeps the hash of the times it had).
 * So it is the booking service's earlier time, written unseen, not a person's move: the booking
 * service has moved on since, and wins (model seed 5078: an Outlook write of 14:00 lost its answer,
 * the booking went back to 10:00, and 14:00 was sent as a move).
 */
function unsureWriteShown(input: DecideInput): boolean {
  const { event, hashAtShownTimes } = input;
  return input.writeUnsure === true && hashAtShownTimes !== undefined && event.ourHash !== null && event.ourHash === hashAtShownTimes;
}

export function decideReverse(input: DecideInput): ReverseAction {
  const { event, link, appointment: a } = input;
  if (!link?.present) return none('not-mirrored');
  if (isEcho(event, link)) return none('echo');
  if (event.etag !== null && event.etag === input.handledEtag) return none('handled');
  // Deleted here while the booking service wants no event here either: the calendar already shows
  // what the writer would make it show; the link takes the deletion (adoptsDeletion), nothing is deleted.
  if (!a?.mirrored) return none(a && event.deleted && event.source === 'change' ? 'gone-too' : 'not-mirrored');

  if (event.deleted) {
    if (event.source === 'missing') return { kind: 'recheck' };
    if (bookingMoved(link, a, input)) return { kind: 'recreate', reason: 'booking-changed' };
    if (input.onDelete === 'recreate') return { kind: 'recreate', reason: 'policy' };
    return input.onDelete === 'cancel' ? { kind: 'cancel' } : { kind: 'ignore' };
  }

  if (event.start === null) return { kind: 'restore', reason: 'not-a-time' };
  if (event.start === a.start || event.start === link.writtenStart) {
    // The start is not news. Only the start flows back: anything else a person changed is put back.
    const kept = cannotFlowBack(link, event, input.wanted);
    if (kept) return { kind: 'restore', reason: kept };
    return none(event.start === a.start ? 'agrees' : 'other-edit');
  }
  const ours = ourMove(input, event.start);
  if (ours === 'same') return none('moved-already');
  // No person moved it: told as such in activity, not as a person's move set back.
  if (ours === 'overtaken' || unsureWriteShown(input)) return { kind: 'restore', reason: 'earlier-write' };
  if (bookingMoved(link, a, input)) return { kind: 'restore', reason: 'booking-changed' };
  // Duration stays the booking's, whatever the person did to the end.
  return { kind: 'reschedule', start: event.start, end: event.start + (a.end - a.start), fromStart: a.start };
}

/** A reschedule recorded and not sent yet: the event and the state of it the move was decided on. */
export interface WaitingMove {
  eventId: string | null;
  observedEtag: string | null;
}

/**
 * The person took their move back before it was sent: the event, in a later state than the one the
 * waiting reschedule was decided on, shows the booking service's time again (or the time we last
 * wrote). That later state is what they want, so the waiting move is withdrawn, not sent: sent, it
 * would move the appointment the person put back, and the writer would then take the event as it
 * stood when the move was made.
 */
export function withdrawsMove(action: ReverseAction, event: TargetEvent, waiting: WaitingMove | undefined): boolean {
  if (action.kind !== 'none' || (action.reason !== 'agrees' && action.reason !== 'other-edit')) return false;
  if (!waiting || waiting.eventId !== event.id || event.etag === null) return false;
  return waiting.observedEtag !== event.etag;
}

/**
 * The event agrees with the booking service, in a state the link does not hold: nothing to send,
 * and the link takes the event as it is. When it shows everything the writer wants (our own write
 * whose answer was lost, a person's move to where the booking service has it too, an app that
 * saved it again unchanged), with our hash as well, so the writer has nothing left to write.
 * Otherwise only its state and times, so that a later move of it is weighed against the time it
 * shows rather than our older write (which would make it look like a booking-side change, and set
 * the person's move back), and the writer's coming write needs no 412 round trip.
 */
export function adoptsAgreement(
  action: ReverseAction,
  link: (Pick<LinkState, 'writtenStart'> & Partial<Pick<LinkState, 'etag' | 'writtenHash'>>) | undefined,
  event: TargetEvent,
  wanted: WantedFacts | undefined,
): { etag: string; start: number; end: number; hash?: string } | null {
  if (action.kind !== 'none' || action.reason !== 'agrees' || !link) return null;
  if (event.etag === null || event.start === null || event.end === null) return null;
  const times = { etag: event.etag, start: event.start, end: event.end };
  if (wanted && showsWhatWeWant(event, wanted))
    return link.writtenHash === wanted.hash && link.etag === event.etag ? null : { ...times, hash: wanted.hash };
  // Our hash at other times: our write landed unseen and was moved; the writer's read settles it.
  if (event.start === link.writtenStart || (wanted !== undefined && event.ourHash === wanted.hash)) return null;
  return times;
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

/**
 * Read the event again before deciding: only missing from a full listing, listed before our latest
 * write, or about to be put back as a booking-side change or sent as a move while our last write's
 * outcome is unknown and the listing carried no hash (Graph's delta carries no extended properties):
 * a read shows whether that write landed unseen (weighedLink, unsureWriteShown), and a person's move
 * of it is then a move.
 */
export function readAgain(
  action: ReverseAction,
  link: (Pick<LinkState, 'updatedAt'> & Partial<Unsure>) | undefined,
  listedAt: number,
  event?: Pick<TargetEvent, 'ourHash' | 'deleted'>,
): boolean {
  const unsureUnhashed =
    ((action.kind === 'restore' && (action.reason === 'booking-changed' || action.reason === 'earlier-write')) ||
      action.kind === 'reschedule') &&
    link !== undefined &&
    outcomeUnknown({ attempts: link.attempts ?? 0, writeInFlight: link.writeInFlight ?? false }) &&
    event !== undefined &&
    !event.deleted &&
    event.ourHash === null;
  return action.kind === 'recheck' || writtenSince(link, listedAt) || unsureUnhashed;
}

/** The cursor moves on only when every change of the batch was acted on (none held, none overtaken). */
export function advancesCursor(round: { held: boolean; overtaken: boolean }): boolean {
  return !round.held && !round.overtaken;
}

/** The event is deleted and no event is wanted there: the link takes the deletion, so the writer deletes nothing (a DELETE answered 410). */
export function adoptsDeletion(action: ReverseAction, link: Pick<LinkState, 'present'> | undefined): boolean {
  return action.kind === 'none' && action.reason === 'gone-too' && link?.present === true;
}
