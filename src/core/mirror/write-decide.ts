// The writer's rules for each answer of a target (ARCHITECTURE.md, principle 6): what a 409 or a 412 means,
// when a person's change is left to the reverse sync and for how long, when an event is our own
// write, when a deleted id needs a new generation. Pure: the answer and stored state in, one
// decision out; sync/mirror-apply.ts carries it out.
import type { Deferral, LinkState } from './link.ts';
import { showsOurWrite, showsWhatWeWant, type WantedFacts } from './ours.ts';
import { showsWanted } from './shown.ts';
import type { GetResult, PutResult, RemoveResult, TargetErrorKind } from './target.ts';
import { outcomeUnknown, type Unsure } from './write-plan.ts';

/** How soon the writer looks again at an event it left to the reverse sync (which it wakes at once). */
export const LOOK_AGAIN_MS = 5_000;
/**
 * How long one state of an event is left to the reverse sync before the booking service's state is
 * written anyway: whatever the reverse sync does, neither side waits on the other forever.
 */
export const GRACE_MS = 60_000;
/** How many new id generations a create tries when the target keeps refusing to revive the id. */
export const MAX_GENERATION_STEPS = 3;

export interface Failure {
  kind: 'fail';
  error: TargetErrorKind;
  message: string;
}

const fail = (error: TargetErrorKind, message: string): Failure => ({ kind: 'fail', error, message });

const unexpected = (put: PutResult, what: string): Failure => {
  switch (put.kind) {
    case 'refused':
      return fail('forbidden', put.message);
    case 'changed':
      return fail('precondition_failed', `${what}: the event changed again while we wrote it; written on the next pass`);
    case 'missing':
      return fail('not_found', `${what}: the event vanished while we wrote it; written on the next pass`);
    case 'exists':
      return fail('conflict', `${what}: an event with this id exists`);
    case 'written':
      throw new Error('a written put is not a failure');
  }
};

/** A create (only if absent): done, or an event already holds the id and must be read. */
export function afterCreate(put: PutResult): { kind: 'written'; etag: string | null } | { kind: 'read' } | Failure {
  if (put.kind === 'written') return put;
  if (put.kind === 'exists') return { kind: 'read' };
  return unexpected(put, 'create');
}

/** Writing over an event we read: done; a target that will not revive a deleted id gets the next id generation. */
export function afterOverwrite(
  put: PutResult,
  tombstone: boolean,
): { kind: 'written'; etag: string | null } | { kind: 'next-generation' } | Failure {
  if (put.kind === 'written') return put;
  if (put.kind === 'refused' && tombstone) return { kind: 'next-generation' };
  return unexpected(put, 'overwrite');
}

/** An update on the etag we wrote: done, the event is gone (create it again), or someone changed it (read it). */
export function afterUpdate(put: PutResult): { kind: 'written'; etag: string | null } | { kind: 'create' } | { kind: 'read' } | Failure {
  if (put.kind === 'written') return put;
  if (put.kind === 'missing') return { kind: 'create' };
  if (put.kind === 'changed') return { kind: 'read' };
  return unexpected(put, 'update');
}

/** What the reverse sync takes over from the writer: null when it is off. */
export interface LeftToReverse {
  moves: boolean;
  /** False with on_delete: ignore, where our next write brings a deleted event back. */
  deletions: boolean;
}

/** The reverse sync's latest decision about this appointment: the state it saw, and whether it is carried out. */
export interface ReverseDecision {
  etag: string | null;
  /** Decided and sent: a reschedule still waiting to be sent would land after we set the move back. */
  settled: boolean;
  /** A reschedule's: the hash the writer wants once it is taken, when the person's edit shows all of it (reschedule-decide.ts, adoptOnAcceptance). */
  adoptHash?: string | null;
  /** When it was decided. */
  decidedAt?: number;
  /** The times the event showed in that state (null: deleted, or not known). */
  shown?: { start: number; end: number } | null;
}

/**
 * A person's move the booking service took (or is taking): the appointment as stored now wants
 * exactly what the person's edit shows (the hash recorded with the move). The link takes that edit
 * as it is, etag and all, and nothing is written: no PUT of the times the event already shows.
 * Only while the link still holds that edit, or nothing was written since the move was decided on
 * (a later write of ours means the event no longer shows the person's edit).
 */
export function takesPersonsEdit(
  link: Pick<LinkState, 'present' | 'etag' | 'updatedAt'> | undefined,
  decision: ReverseDecision | undefined,
  desiredHash: string,
): { etag: string } | null {
  if (!link?.present || !decision?.adoptHash || decision.etag === null || decision.adoptHash !== desiredHash) return null;
  const untouched = link.etag === decision.etag || (decision.decidedAt !== undefined && link.updatedAt <= decision.decidedAt);
  return untouched ? { etag: decision.etag } : null;
}

/** What the writer weighs before writing over a person's change: the reverse sync's part in it. */
export interface DeferralFacts {
  link: Pick<LinkState, 'writtenStart' | 'deferral'>;
  reverse: LeftToReverse | null;
  decision: ReverseDecision | undefined;
  now: number;
}

export interface ReadFacts extends DeferralFacts {
  /** The event as read after the 409 or 412. */
  read: GetResult;
  wanted: WantedFacts;
}

type Leave = { kind: 'leave'; deferral: Deferral; lookAgainAt: number };

/** The reverse sync has decided on this very state of the event and carried it out. */
function settledOn(decision: ReverseDecision | undefined, etag: string | null): boolean {
  return decision !== undefined && etag !== null && decision.etag === etag && decision.settled;
}

/** The reverse sync decided on this very state of the event and has not carried it out yet (a reschedule waiting to be sent). */
function awaitedOn(decision: ReverseDecision | undefined, etag: string | null): boolean {
  return decision !== undefined && etag !== null && decision.etag === etag && !decision.settled;
}

/**
 * A person's change is left to the reverse sync until it has settled on that exact state, and for
 * at most GRACE_MS from when the writer first met that state; then the booking service's is written.
 * A reschedule (or cancellation) recorded for that very state and not yet sent is waited for past
 * GRACE_MS while the booking service has not moved the appointment since (`bookingUnmoved`): the
 * person's move is put back only when the booking service does not take it (a taken slot, a refusal,
 * its own change meanwhile) or the reschedules job gives up, never while it is on its way, where
 * the put-back and then the move would both land (docs/reference/behaviour.md, "Moves made in a calendar").
 */
function leaveIfDue(etag: string | null, f: DeferralFacts, bookingUnmoved: boolean): Leave | null {
  if (settledOn(f.decision, etag)) return null;
  const seen = f.link.deferral;
  const deferral = seen && seen.etag === etag ? seen : { etag, since: f.now };
  const waits = (bookingUnmoved && awaitedOn(f.decision, etag)) || f.now - deferral.since < GRACE_MS;
  return waits ? { kind: 'leave', deferral, lookAgainAt: f.now + LOOK_AGAIN_MS } : null;
}

export type OnExisting =
  /** Our own earlier write of what we want (a lost answer, a crash before it was recorded): nothing written. */
  | { kind: 'adopt'; etag: string | null }
  /** Our own earlier write, moved by a person since: the reverse sync's, as on a 412. */
  | Leave
  /** Someone's event under our id, or a tombstone: written over, which revives a tombstone. */
  | { kind: 'overwrite'; etag: string | null; tombstone: boolean }
  | Failure;

export interface ExistingFacts extends ReadFacts {
  /** An earlier create of this event failed (its answer may have been lost): the reverse sync takes the event as ours. */
  failedBefore: boolean;
}

/**
 * A create met an event under our derived id (a 409). Adopted only when it shows our hash and our
 * times. With our hash at other times after a failed create, it is our write that landed unseen and
 * a person moved since: left to the reverse sync, which takes it as ours (see weighedLink). Anything
 * else (our hash on an event whose link was lost, someone's event, a tombstone) is written over.
 */
export function onExisting(f: ExistingFacts): OnExisting {
  if (f.read.kind === 'missing') return fail('not_found', 'create: the existing event vanished while we read it; written on the next pass');
  const event = f.read.event;
  // Someone's event that happens to look like ours is not adopted: it must carry our hash (of any write).
  if (showsOurWrite(event, f.wanted) || (event.ourHash !== null && showsWhatWeWant(event, f.wanted)))
    return { kind: 'adopt', etag: event.etag };
  const movedOurs = f.failedBefore && !event.deleted && event.ourHash === f.wanted.hash;
  // Our hash is the wanted one: the booking service has not changed the appointment since that write.
  const left = movedOurs && f.reverse?.moves === true ? leaveIfDue(event.etag, f, true) : null;
  return left ?? { kind: 'overwrite', etag: event.etag, tombstone: event.deleted };
}

export type OnChanged =
  /** It shows what we want (our own write whose answer was lost, a move the booking service took): adopted, never written again. */
  | { kind: 'adopt'; etag: string | null }
  /** A person's move or deletion: the reverse sync decides; store the deferral, look again later. */
  | Leave
  /** Anything else (or the reverse sync had its turn): the booking service's state is written. */
  | { kind: 'overwrite'; etag: string | null; tombstone: boolean }
  /** Gone without a tombstone and not left to anyone: create it again. */
  | { kind: 'create' };

/**
 * A 412 on our update: someone changed the event since our write. A new start or a deletion is a
 * person's move, the reverse sync's to send to the booking service (or to undo), within the
 * deferral rules above. An event that already shows what we want is adopted. Any other edit (a
 * title) is written over.
 */
export function onChanged(f: ReadFacts): OnChanged {
  const event = f.read.kind === 'found' ? f.read.event : null;
  // It already shows what we want (our write whose answer was lost, or a person's move the booking
  // service took): adopted, nothing written again.
  if (event && showsWhatWeWant(event, f.wanted)) return { kind: 'adopt', etag: event.etag };
  const deleted = event === null || event.deleted;
  const moved = !deleted && f.link.writtenStart !== null && event.start !== f.link.writtenStart;
  const personal = (deleted && f.reverse?.deletions === true) || (moved && f.reverse?.moves === true);
  const etag = event?.etag ?? null;
  const left = personal ? leaveIfDue(etag, f, f.link.writtenStart === f.wanted.start) : null;
  if (left) return left;
  if (event === null) return { kind: 'create' };
  return { kind: 'overwrite', etag, tombstone: event.deleted };
}

/**
 * Whether the writer reads the event before writing it. An earlier write of this appointment's
 * event failed or was cut off by a crash (write-plan.ts, outcomeUnknown), so the target may already
 * hold it, applied with its answer lost; or the writer left a person's change to the reverse sync
 * and is looking again; or the link holds a person's edit it took without knowing all it shows
 * (holdsUnknownEdit), or a person's state the booking service overtook before its put-back was
 * written (putBackOvertaken). The read then stands in for the answer a write would get: a create that
 * finds an event is decided by onExisting (no insert answered 409), an update that finds what we
 * want is adopted and one that finds another version is decided by onChanged (no PUT answered 412,
 * no PUT of what the event already shows), a delete that finds nothing is done (no DELETE answered
 * 404 or 410). One rule for every target: only what the read cannot settle is written.
 */
export function readsFirst(link: (Unsure & Pick<LinkState, 'deferral'>) | undefined, unknownEdit = false): boolean {
  return link !== undefined && (outcomeUnknown(link) || link.deferral !== null || unknownEdit);
}

/**
 * The link holds a person's edit, taken when the booking service accepted their move
 * (reschedule-decide.ts, adoptAfterReschedule: its etag and times, with the hash of an older write
 * of ours), and the booking service now wants exactly those times, but something other than what
 * the edit was known to show (its adoptHash): a change at the booking service since (a status, a
 * name), or a part of the edit that cannot flow back. Whether the event already shows what the
 * writer wants is known only from a read; a PUT on the edit's etag would land either way, writing
 * what the event may already show.
 */
export function holdsUnknownEdit(
  link: Pick<LinkState, 'present' | 'etag' | 'writtenHash' | 'writtenStart' | 'writtenEnd'>,
  decision: ReverseDecision | undefined,
  wanted: { hash: string; start: number; end: number },
): boolean {
  if (!link.present || link.etag === null || decision?.etag !== link.etag || link.writtenHash === null) return false;
  if (link.writtenHash === wanted.hash || decision.adoptHash === wanted.hash) return false;
  return link.writtenStart === wanted.start && link.writtenEnd === wanted.end;
}

/**
 * The link holds a state of the event that the reverse sync asked to put back (requestRewrite: its
 * etag, no hash of ours), and the booking service now wants the very times that state showed: it
 * moved the appointment there before the put-back was written (model seed 5572: dragged in Outlook
 * to 09:00 while the booking service moved it elsewhere, so to be put back; reception then moved
 * the appointment to 09:00).
 * A PUT on that etag would land, writing times the event already shows; a read tells whether it
 * shows all the writer wants (adopted, nothing written) or only the times.
 */
export function putBackOvertaken(
  link: Pick<LinkState, 'present' | 'etag' | 'writtenHash' | 'writtenStart' | 'writtenEnd'>,
  decision: ReverseDecision | undefined,
  wanted: { start: number; end: number },
): boolean {
  if (!link.present || link.etag === null || link.writtenHash !== null || decision?.etag !== link.etag) return false;
  const shown = decision.shown;
  // A put-back of a rename or of a length at our own times is written, with no read: it is needed.
  const moved = shown != null && (shown.start !== link.writtenStart || shown.end !== link.writtenEnd);
  return moved && shown.start === wanted.start && shown.end === wanted.end;
}

/** A create, after that read: an event under the id (live, or Google's tombstone) is decided as a 409 would be. */
export function createAfterRead(read: GetResult): 'create' | 'existing' {
  return read.kind === 'found' ? 'existing' : 'create';
}

/**
 * An update, after that read: an event that already shows what we want is adopted, its etag
 * recorded as ours and nothing written (our own write whose answer was lost, or a person's edit
 * that shows the booking service's state), whichever version it is; the version we know still
 * there otherwise means our earlier write never landed, and this one is made on it; another
 * version is decided as a 412 would be (onChanged); nothing there is created again.
 */
export function updateAfterRead(
  read: GetResult,
  etag: string | null,
  wanted: WantedFacts,
  personsState = false,
): 'adopt' | 'update' | 'changed' | 'create' {
  if (read.kind === 'missing') return 'create';
  // `personsState`: the version we know is a person's (putBackOvertaken). It keeps the hash of an
  // older write of ours whatever they changed (a rename too), so only what it shows counts.
  if (personsState ? showsWanted(read.event, wanted) : showsWhatWeWant(read.event, wanted)) return 'adopt';
  return etag !== null && read.event.etag === etag ? 'update' : 'changed';
}

/**
 * A delete, after that read: a missing or deleted event means the earlier delete went through (or
 * the create never landed), and nothing is written. Only an event that is there is deleted, on the
 * version the read found.
 */
export function afterSureRead(read: GetResult): 'remove' | 'nothing-there' {
  return read.kind === 'found' && !read.event.deleted ? 'remove' : 'nothing-there';
}

/** Removing the event of an appointment that should have none: the booking service's cancellation wins over any edit. */
export function afterRemove(result: RemoveResult): { kind: 'removed' } | { kind: 'remove-any-version' } {
  return result.kind === 'changed' ? { kind: 'remove-any-version' } : { kind: 'removed' };
}
