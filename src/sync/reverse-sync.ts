// One reverse-sync round: for each mapped calendar of a target, read what changed, decide (mirror
// core), and record every action together with the new cursor in one transaction. The booking
// service is called later, by the reschedules job, from what was recorded here. Written for any
// target (core/mirror/target.ts).
import type { Appointment } from '../core/appointment.ts';
import type { Clock } from '../core/clock.ts';
import { deletionsTripBreaker } from '../core/mirror/breakers.ts';
import { isDesired, type Desired } from '../core/mirror/desired-event.ts';
import {
  adoptsAgreement,
  adoptsDeletion,
  advancesCursor,
  decideReverse,
  readAgain,
  weighedLink,
  withdrawsMove,
  writtenSince,
  type ObservedEvent,
  type OnDelete,
  type ReverseAction,
} from '../core/mirror/reverse-decide.ts';
import { adoptOnAcceptance } from '../core/mirror/reschedule-decide.ts';
import { outcomeUnknown } from '../core/mirror/write-plan.ts';
import type { CalendarTarget } from '../core/mirror/target.ts';
import type { Logger } from '../log.ts';
import type { AppointmentStore } from '../store/appointment-store.ts';
import type { Atomic } from '../store/atomic.ts';
import type { LinkStore } from '../store/link-store.ts';
import type { KvStore } from '../store/kv-store.ts';
import type { RescheduleStore } from '../store/reschedule-store.ts';
import type { ReverseMetrics } from './reverse-metrics.ts';
import type { ActivityStore } from '../store/activity-store.ts';

export interface ReverseDeps<B> {
  target: CalendarTarget<B>;
  /** The event an appointment should have in this target (whether it is mirrored, and where). */
  desire: (a: Appointment, revision: number, gone: boolean) => Desired<B>;
  onDelete: OnDelete;
  breakerShare: number;
  atomic: Atomic;
  log: Logger;
  clock: Clock;
  cursors: KvStore;
  /** Where a calendar's cursor is kept (one name space per target). */
  cursorKey: (calendarId: string) => string;
  appointments: AppointmentStore;
  links: LinkStore;
  actions: RescheduleStore;
  metrics: ReverseMetrics;
  /** Wake the writer of this target (an event to put back) and the reschedules job (a move to send). */
  wakeWriter(): void;
  wakeReschedules(): void;
  activity?: Pick<ActivityStore, 'record'>;
}

export interface CalendarRound {
  calendarId: string;
  mode: 'incremental' | 'full';
  changes: number;
  acted: Partial<Record<ReverseAction['kind'], number>>;
  /** Deletions held back by the breaker (the cursor is then kept, so the next round sees them again). */
  held: number;
}

/** The target calendars a mapping writes to, each once. */
export function mappedCalendars(mapping: { calendars: readonly { calendar_id: string }[] }): string[] {
  return [...new Set(mapping.calendars.map((c) => c.calendar_id))];
}

interface Planned {
  key: string;
  event: ObservedEvent;
  action: ReverseAction;
  /** When it was decided: a write to the link after that makes the decision stale. */
  at: number;
  /** Nothing to do but take the event's state into the link (core adoptsAgreement). */
  adopt?: { etag: string; start: number; end: number; hash?: string } | null;
  /** A reschedule's: the hash the link takes once the booking service accepts it (core adoptOnAcceptance). */
  adoptHash?: string | null;
  /** Deleted, and no event wanted there: the link takes the deletion (core adoptsDeletion); the revision it is for. */
  adoptGone?: number | null;
  /** The waiting reschedule the person took back (core withdrawsMove): its row id and where it would have moved the appointment. */
  withdraw?: { id: number; to: number } | null;
}

function plan<B>(deps: ReverseDeps<B>, calendarId: string, event: ObservedEvent): Planned | undefined {
  const link = deps.links.byEvent(calendarId, event.id);
  if (!link) return undefined; // not one of ours
  const stored = deps.appointments.get(link.appointmentKey);
  const desired = stored && deps.desire(stored.appointment, stored.revision, stored.goneAt !== null);
  const wanted = desired !== undefined && isDesired(desired) ? desired : undefined;
  const latest = deps.actions.latest(link.appointmentKey);
  // What we would write for the appointment at the times the event shows: its hash there means our own write.
  const atShown =
    stored && event.start !== null && event.end !== null
      ? deps.desire({ ...stored.appointment, start: event.start, end: event.end }, stored.revision, false)
      : undefined;
  const action = decideReverse({
    event,
    link: { ...weighedLink(link, event, wanted), writtenHash: link.writtenHash },
    ...(wanted ? { wanted } : {}),
    appointment: stored && {
      start: stored.appointment.start,
      end: stored.appointment.end,
      mirrored: wanted !== undefined && wanted.calendarId === calendarId,
    },
    // An observation acted on is not news again, until the writer wrote the event since: a server
    // whose ETag is a hash of the content (Radicale) gives a person's repeat of the same edit the
    // same ETag, after our put-back of the first.
    handledEtag: latest?.eventId === event.id && !writtenSince(link, latest.updatedAt) ? latest.observedEtag : null,
    lastRescheduledTo: deps.actions.lastRescheduledTo(link.appointmentKey),
    pendingRescheduleTo: deps.actions.pendingTargets(link.appointmentKey),
    lastReschedule: deps.actions.lastReschedule(link.appointmentKey),
    ...(stored ? { bookingChangedAt: stored.changedAt } : {}),
    writeUnsure: outcomeUnknown(link),
    ...(atShown !== undefined && isDesired(atShown) ? { hashAtShownTimes: atShown.hash } : {}),
    onDelete: deps.onDelete,
  });
  let adoptHash: string | null = null;
  if (action.kind === 'reschedule' && stored) {
    // The appointment as it will be once the move is taken: what the writer will want then.
    const afterMove = deps.desire({ ...stored.appointment, start: action.start, end: action.end }, stored.revision, false);
    adoptHash = adoptOnAcceptance(event, isDesired(afterMove) ? afterMove : undefined);
  }
  const adoptGone = stored && adoptsDeletion(action, link) ? stored.revision : null;
  const waiting = deps.actions.waitingMove(link.appointmentKey);
  const withdraw = waiting && withdrawsMove(action, event, waiting) ? { id: waiting.id, to: waiting.newStart } : null;
  return {
    key: link.appointmentKey,
    event,
    action,
    at: deps.clock.now(),
    adopt: adoptsAgreement(action, link, event, wanted),
    adoptHash,
    adoptGone,
    withdraw,
  };
}

/** An event read again: what the target shows now, a missing one being a deletion. */
async function reread<B>(deps: ReverseDeps<B>, calendarId: string, eventId: string): Promise<ObservedEvent> {
  const read = await deps.target.get(calendarId, eventId);
  if (read.kind === 'found') return { ...read.event, source: 'change' };
  return { id: eventId, deleted: true, etag: null, start: null, end: null, ourHash: null, source: 'change' };
}

function record<B>(deps: ReverseDeps<B>, calendarId: string, p: Planned, wakes: Set<'writer' | 'reschedules'>): void {
  const a = deps.appointments.get(p.key)!.appointment;
  const base = {
    appointmentKey: p.key,
    observedEtag: p.event.etag,
    calendarId,
    eventId: p.event.id,
    newStart: a.start,
    newEnd: a.end,
    shownStart: p.event.deleted ? null : p.event.start,
    shownEnd: p.event.deleted ? null : p.event.end,
  };
  const { action } = p;
  deps.activity?.record({ kind: 'reverse', key: p.key, action, movedTo: p.event.start });
  switch (action.kind) {
    case 'reschedule':
      deps.actions.record({
        ...base,
        kind: 'reschedule',
        state: 'pending',
        newStart: action.start,
        newEnd: action.end,
        fromStart: action.fromStart,
        adoptHash: p.adoptHash ?? null,
      });
      deps.metrics.moves.inc();
      wakes.add('reschedules');
      return;
    case 'cancel':
      deps.actions.record({ ...base, kind: 'cancel', state: 'pending', fromStart: a.start });
      wakes.add('reschedules');
      return;
    case 'restore':
      deps.actions.record({ ...base, kind: 'restore', state: 'done', reason: action.reason });
      deps.links.requestRewrite(p.key, p.event.etag);
      deps.metrics.restores.inc({ reason: action.reason });
      wakes.add('writer');
      return;
    case 'recreate':
      deps.actions.record({ ...base, kind: 'recreate', state: 'done', reason: action.reason });
      deps.links.requestRecreate(p.key);
      deps.metrics.deletions.inc({ action: 'recreate' });
      wakes.add('writer');
      return;
    case 'ignore':
      deps.actions.record({ ...base, kind: 'ignore', state: 'done', reason: 'policy' });
      deps.metrics.deletions.inc({ action: 'ignore' });
      return;
    case 'none':
    case 'recheck':
      return;
  }
}

/** The person took the move back before it was sent: withdrawn, told in activity and the log once. */
function withdraw<B>(deps: ReverseDeps<B>, key: string, move: { id: number; to: number }): void {
  if (!deps.actions.withdraw(move.id)) return;
  deps.activity?.record({ kind: 'settled', key, action: 'reschedule', state: 'dropped', reason: 'taken-back', detail: null, to: move.to });
  deps.log.info({ key, kind: 'reschedule', state: 'dropped', reason: 'taken-back' }, 'reverse sync action settled');
}

export async function calendarRound<B>(deps: ReverseDeps<B>, calendarId: string): Promise<CalendarRound> {
  const tokenKey = deps.cursorKey(calendarId);
  const listedAt = deps.clock.now();
  const batch = await deps.target.changes(calendarId, deps.cursors.get<string>(tokenKey) ?? null);
  const observed: ObservedEvent[] = batch.events.map((e) => ({ ...e, source: 'change' }));
  const mirroredHere = deps.links.mirroredIn(calendarId);
  if (batch.mode === 'full') {
    // A full list shows no deletions: what we mirror and it lacks may have been deleted meanwhile.
    const seen = new Set(batch.events.filter((e) => !e.deleted).map((e) => e.id));
    for (const link of mirroredHere) {
      if (!seen.has(link.eventId))
        observed.push({ id: link.eventId, deleted: true, etag: null, start: null, end: null, ourHash: null, source: 'missing' });
    }
  }
  const planned: Planned[] = [];
  for (const event of observed) {
    let p = plan(deps, calendarId, event);
    if (p && readAgain(p.action, deps.links.get(p.key), listedAt, event))
      p = plan(deps, calendarId, await reread(deps, calendarId, event.id));
    if (p && (p.action.kind !== 'none' || p.adopt || p.adoptGone !== null || p.withdraw)) planned.push(p);
  }
  const cancels = planned.filter((p) => p.action.kind === 'cancel').length;
  const held = deletionsTripBreaker(cancels, mirroredHere.length, deps.breakerShare);
  const wakes = new Set<'writer' | 'reschedules'>();
  const acted: CalendarRound['acted'] = {};
  let overtaken = false;
  deps.atomic(() => {
    for (const p of planned) {
      if (held && p.action.kind === 'cancel') continue;
      // The writer wrote this event while we decided: skip it, and keep the cursor to see it again.
      if (writtenSince(deps.links.get(p.key), p.at)) {
        overtaken = true;
        continue;
      }
      if (p.withdraw) withdraw(deps, p.key, p.withdraw);
      if (p.adoptGone !== undefined && p.adoptGone !== null) {
        const link = deps.links.get(p.key);
        if (link)
          deps.links.recordWrite(p.key, {
            calendarId: link.calendarId,
            eventId: link.eventId,
            generation: link.generation,
            present: false,
            hash: null,
            etag: null,
            start: null,
            end: null,
            revision: p.adoptGone,
          });
        continue;
      }
      if (p.adopt) {
        const link = deps.links.get(p.key);
        if (link) deps.links.adoptEdit(p.key, p.adopt, link.updatedAt);
        wakes.add('writer');
        continue;
      }
      record(deps, calendarId, p, wakes);
      acted[p.action.kind] = (acted[p.action.kind] ?? 0) + 1;
    }
    // Kept when the breaker trips, so the held deletions are seen (and reported) again.
    if (advancesCursor({ held, overtaken })) deps.cursors.set(tokenKey, batch.cursor);
  });
  if (held) {
    deps.metrics.breaker.inc();
    deps.log.warn(
      { calendarId, cancels, mirrored: mirroredHere.length },
      'reverse sync: too many deletions at once; none cancelled at the booking service',
    );
  }
  deps.metrics.rounds.inc({ mode: batch.mode, outcome: held ? 'held' : 'ok' });
  if (wakes.has('reschedules')) deps.wakeReschedules();
  if (wakes.has('writer')) deps.wakeWriter();
  return { calendarId, mode: batch.mode, changes: batch.events.length, acted, held: held ? cancels : 0 };
}
