// Carries out one planned write on a calendar target and records what the target now holds. Every
// answer is decided by the mirror core (core/mirror/write-decide.ts); this only makes the calls and
// stores the outcome. Idempotent by construction: the event id is derived, so a repeated create
// meets our own event, which is adopted.
import type { Clock } from '../core/clock.ts';
import { eventIdFor } from '../core/event-id.ts';
import type { DesiredEvent } from '../core/mirror/desired-event.ts';
import type { CalendarTarget, GetResult, Precondition, TargetErrorKind } from '../core/mirror/target.ts';
import { outcomeUnknown, type EventIdOf, type WriteAction } from '../core/mirror/write-plan.ts';
import {
  afterCreate,
  afterOverwrite,
  afterRemove,
  afterSureRead,
  afterUpdate,
  createAfterRead,
  holdsUnknownEdit,
  MAX_GENERATION_STEPS,
  onChanged,
  onExisting,
  putBackOvertaken,
  readsFirst,
  updateAfterRead,
  type DeferralFacts,
  type LeftToReverse,
  type ReverseDecision,
} from '../core/mirror/write-decide.ts';
import type { Deferral } from '../core/mirror/link.ts';
import type { Link, LinkStore } from '../store/link-store.ts';

export interface WriteDeps<B> {
  target: CalendarTarget<B>;
  links: LinkStore;
  clock: Clock;
  /** What the reverse sync takes over (null when it is off), and its latest decision per appointment. */
  reverse: LeftToReverse | null;
  decision(key: string): ReverseDecision | undefined;
  /** The target's event id of an appointment (Google's derived id unless given). */
  idOf?: EventIdOf;
}

export interface WriteInput<B> {
  key: string;
  revision: number;
  action: Exclude<WriteAction, { kind: 'none' }>;
  desired: DesiredEvent<B> | null;
}

export type WriteOutcome =
  | { kind: 'written' }
  /** A person's change is the reverse sync's to decide; the writer looks again later. */
  | { kind: 'left' }
  | { kind: 'failed'; error: TargetErrorKind; message: string };

const WRITTEN: WriteOutcome = { kind: 'written' };
const ifEtag = (etag: string | null): Precondition => (etag === null ? { kind: 'none' } : { kind: 'etag', etag });

export async function applyWrite<B>(deps: WriteDeps<B>, input: WriteInput<B>): Promise<WriteOutcome> {
  const { target, links } = deps;
  const { key, revision, action } = input;
  const idOf = deps.idOf ?? eventIdFor;
  // Whether an earlier write's outcome is unknown, read before this write records its own intent:
  // then the event is read before anything is written (core/mirror/write-decide.ts, readsFirst).
  const before = links.get(key);
  const unsureBefore = before !== undefined && outcomeUnknown(before);
  // Only an update of a known event weighs the reverse sync's latest decision before writing.
  const updated = before !== undefined && action.kind === 'update' ? input.desired : null;
  const decision = updated !== null ? deps.decision(key) : undefined;
  const overtaken = before !== undefined && updated !== null && putBackOvertaken(before, decision, updated);
  const unknownEdit = overtaken || (before !== undefined && updated !== null && holdsUnknownEdit(before, decision, updated));
  const reads = readsFirst(before, unknownEdit);
  const readFirst = (calendarId: string, eventId: string): Promise<GetResult> | null => (reads ? target.get(calendarId, eventId) : null);
  links.recordIntent(
    key,
    action.kind === 'move'
      ? { ...action.from, generation: action.generation }
      : { ...action, generation: action.kind === 'insert' ? action.generation : (before?.generation ?? 0) },
  );

  const record = (calendarId: string, eventId: string, generation: number, etag: string | null, d: DesiredEvent<B>): WriteOutcome => {
    links.recordWrite(key, { calendarId, eventId, generation, present: true, hash: d.hash, etag, start: d.start, end: d.end, revision });
    return WRITTEN;
  };

  const deferralFacts = (link: Link | undefined): DeferralFacts => ({
    link: { writtenStart: link?.writtenStart ?? null, deferral: link?.deferral ?? null },
    reverse: deps.reverse,
    decision: deps.decision(key),
    now: deps.clock.now(),
  });

  const leave = (deferral: Deferral, lookAgainAt: number): WriteOutcome => {
    links.leaveToReverse(key, deferral, lookAgainAt);
    return { kind: 'left' };
  };

  /** `first`: the event as read before this write (readsFirst), which stands in for the answer of the create. */
  async function create(calendarId: string, generation: number, d: DesiredEvent<B>, first: GetResult | null = null): Promise<WriteOutcome> {
    for (let g = generation; g <= generation + MAX_GENERATION_STEPS; g++) {
      const eventId = idOf(key, g);
      let read = g === generation ? first : null;
      if (read === null || createAfterRead(read) === 'create') {
        const created = afterCreate(await target.put(calendarId, eventId, d.body, { kind: 'absent' }));
        if (created.kind === 'written') return record(calendarId, eventId, g, created.etag, d);
        if (created.kind === 'fail') return { kind: 'failed', error: created.error, message: created.message };
        read = await target.get(calendarId, eventId);
      }
      const link = links.get(key);
      const existing = onExisting({ read, wanted: d, failedBefore: unsureBefore, ...deferralFacts(link) });
      if (existing.kind === 'fail') return { kind: 'failed', error: existing.error, message: existing.message };
      if (existing.kind === 'adopt') return record(calendarId, eventId, g, existing.etag, d);
      if (existing.kind === 'leave') return leave(existing.deferral, existing.lookAgainAt);
      const over = afterOverwrite(await target.put(calendarId, eventId, d.body, ifEtag(existing.etag)), existing.tombstone);
      if (over.kind === 'written') return record(calendarId, eventId, g, over.etag, d);
      if (over.kind === 'fail') return { kind: 'failed', error: over.error, message: over.message };
      // The target will not revive this deleted id: remember the next generation before using it.
      links.bumpGeneration(key, calendarId, idOf(key, g + 1), g + 1);
    }
    return {
      kind: 'failed',
      error: 'forbidden',
      message: `the calendar refused ${MAX_GENERATION_STEPS} revivals of this appointment's event`,
    };
  }

  /** Someone changed the event since our write (a 412, or the read before an unsure update found another version). */
  async function changed(
    calendarId: string,
    eventId: string,
    generation: number,
    read: GetResult,
    d: DesiredEvent<B>,
  ): Promise<WriteOutcome> {
    const decided = onChanged({ read, wanted: d, ...deferralFacts(links.get(key)) });
    switch (decided.kind) {
      case 'adopt':
        return record(calendarId, eventId, generation, decided.etag, d);
      case 'leave':
        return leave(decided.deferral, decided.lookAgainAt);
      case 'create':
        return create(calendarId, generation, d);
      case 'overwrite': {
        const over = afterOverwrite(await target.put(calendarId, eventId, d.body, ifEtag(decided.etag)), decided.tombstone);
        if (over.kind === 'written') return record(calendarId, eventId, generation, over.etag, d);
        if (over.kind === 'fail') return { kind: 'failed', error: over.error, message: over.message };
        links.bumpGeneration(key, calendarId, idOf(key, generation + 1), generation + 1);
        return create(calendarId, generation + 1, d);
      }
    }
  }

  async function update(calendarId: string, eventId: string, etag: string | null, d: DesiredEvent<B>): Promise<WriteOutcome> {
    const generation = links.get(key)?.generation ?? 0;
    const first = await readFirst(calendarId, eventId);
    const step = first === null ? 'update' : updateAfterRead(first, etag, d, overtaken);
    if (step === 'adopt' && first?.kind === 'found') return record(calendarId, eventId, generation, first.event.etag, d);
    if (step === 'create') return create(calendarId, generation, d, first);
    if (step === 'changed' && first !== null) return changed(calendarId, eventId, generation, first, d);
    const updated = afterUpdate(await target.put(calendarId, eventId, d.body, ifEtag(etag)));
    if (updated.kind === 'written') return record(calendarId, eventId, generation, updated.etag, d);
    if (updated.kind === 'create') return create(calendarId, generation, d);
    if (updated.kind === 'fail') return { kind: 'failed', error: updated.error, message: updated.message };
    // 412: someone changed the event since our write.
    return changed(calendarId, eventId, generation, await target.get(calendarId, eventId), d);
  }

  async function remove(calendarId: string, eventId: string, generation: number): Promise<void> {
    let etag = links.get(key)?.etag ?? null;
    const first = await readFirst(calendarId, eventId);
    if (first?.kind === 'found') etag = first.event.etag;
    if (first === null || afterSureRead(first) === 'remove') {
      if (afterRemove(await target.remove(calendarId, eventId, etag)).kind === 'remove-any-version')
        await target.remove(calendarId, eventId, null);
    }
    links.recordWrite(key, { calendarId, eventId, generation, present: false, hash: null, etag: null, start: null, end: null, revision });
  }

  switch (action.kind) {
    case 'insert':
      return create(action.calendarId, action.generation, input.desired!, await readFirst(action.calendarId, action.eventId));
    case 'update':
      return update(action.calendarId, action.eventId, action.etag, input.desired!);
    case 'delete':
      await remove(action.calendarId, action.eventId, links.get(key)?.generation ?? 0);
      return WRITTEN;
    case 'move':
      await remove(action.from.calendarId, action.from.eventId, action.generation);
      return create(action.calendarId, action.generation, input.desired!, await readFirst(action.calendarId, action.eventId));
  }
}
