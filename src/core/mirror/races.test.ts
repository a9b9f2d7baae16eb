// The races between the writer, the reverse sync and the booking service, one named row each, with
// the decision the mirror core must make. Each row is a race that once lost a person's move, wrote
// an event twice, or made one side wait on the other forever; removing its rule fails its row.
import { describe, expect, it } from 'vitest';
import { adoptAfterReschedule, adoptOnAcceptance, alreadyPutBack, beforeReschedule, type AcceptedMove } from './reschedule-decide.ts';
import {
  adoptsAgreement,
  advancesCursor,
  decideReverse,
  readAgain,
  weighedLink,
  writtenSince,
  type DecideInput,
} from './reverse-decide.ts';
import type { GetResult, PutResult, TargetEvent } from './target.ts';
import {
  afterOverwrite,
  afterRemove,
  afterSureRead,
  afterUpdate,
  createAfterRead,
  GRACE_MS,
  holdsUnknownEdit,
  putBackOvertaken,
  LOOK_AGAIN_MS,
  onChanged,
  onExisting,
  readsFirst,
  takesPersonsEdit,
  updateAfterRead,
  type ExistingFacts,
  type ReadFacts,
  type ReverseDecision,
} from './write-decide.ts';
import { failureSuperseded, notesRevision, planWrite } from './write-plan.ts';

const H = 3_600_000;
const NOW = Date.UTC(2026, 5, 20, 12, 0);
const T0 = Date.UTC(2026, 5, 21, 13, 0); // the booking's start, as we last wrote it
const T1 = T0 + 2 * H; // where a person moved it
const LOOKS = { title: 'Haircut: Ann', description: 'Booked online', status: 'confirmed' };
const OURS = { hash: 'hash-now', start: T0, end: T0 + H, looks: LOOKS }; // what the writer wants now
/** How an event shows LOOKS, as a target reports it. */
const SHOWN = { title: LOOKS.title, description: LOOKS.description, status: LOOKS.status };

const event = (over: Partial<TargetEvent> = {}): TargetEvent => ({
  id: 'evt1',
  etag: '"person-1"',
  deleted: false,
  start: T1,
  end: T1 + H,
  ourHash: 'hash-before',
  ...over,
});
const found = (over: Partial<TargetEvent> = {}): GetResult => ({ kind: 'found', event: event(over) });
const tombstone = found({ deleted: true, start: null, end: null, etag: '"deleted-1"' });

describe('the writer meets a 412 on its update (someone changed the event since our write)', () => {
  const base: ReadFacts = {
    read: found(),
    wanted: OURS,
    link: { writtenStart: T0, deferral: null },
    reverse: { moves: true, deletions: true },
    decision: undefined,
    now: NOW,
  };
  const facts = (over: Partial<ReadFacts>): ReadFacts => ({ ...base, ...over, link: { ...base.link, ...over.link } });
  const leave = (etag: string | null, since = NOW) => ({ kind: 'leave', deferral: { etag, since }, lookAgainAt: NOW + LOOK_AGAIN_MS });

  it.each<[string, Partial<ReadFacts>, unknown]>([
    [
      "a person's move, met because the booking service renamed the appointment first, is left to the reverse sync, not written over",
      {},
      leave('"person-1"'),
    ],
    ["a person's deletion is left to the reverse sync", { read: tombstone }, leave('"deleted-1"')],
    [
      'with on_delete: ignore, a deletion is written over (our write revives it)',
      { read: tombstone, reverse: { moves: true, deletions: false } },
      { kind: 'overwrite', etag: '"deleted-1"', tombstone: true },
    ],
    [
      "with the reverse sync off, a person's move is written over",
      { reverse: null },
      { kind: 'overwrite', etag: '"person-1"', tombstone: false },
    ],
    [
      "a title a person edited (start untouched) is written over: only moves and deletions are the reverse sync's",
      { read: found({ start: T0, end: T0 + H, ...SHOWN, title: 'Ann (VIP)' }) },
      { kind: 'overwrite', etag: '"person-1"', tombstone: false },
    ],
    [
      'grace period: a state met 59 s ago is still left',
      { link: { writtenStart: T0, deferral: { etag: '"person-1"', since: NOW - GRACE_MS + 1_000 } } },
      leave('"person-1"', NOW - GRACE_MS + 1_000),
    ],
    [
      "grace period: after a minute the booking service's state is written, whatever the reverse sync does",
      { link: { writtenStart: T0, deferral: { etag: '"person-1"', since: NOW - GRACE_MS } } },
      { kind: 'overwrite', etag: '"person-1"', tombstone: false },
    ],
    [
      'grace period: a newer edit of the person starts its own',
      { link: { writtenStart: T0, deferral: { etag: '"person-0"', since: NOW - 10 * GRACE_MS } } },
      leave('"person-1"'),
    ],
    [
      'decided on this exact state: once the reverse sync has settled it, the writer writes at once',
      { decision: { etag: '"person-1"', settled: true } },
      { kind: 'overwrite', etag: '"person-1"', tombstone: false },
    ],
    ['decided on an older state: the newer edit is left again', { decision: { etag: '"person-0"', settled: true } }, leave('"person-1"')],
    [
      'a reschedule of this move still waiting to be sent: the move is not set back',
      { decision: { etag: '"person-1"', settled: false } },
      leave('"person-1"'),
    ],
    [
      '...not even past the grace period (the booking service busy): the put-back and then the move would both land',
      {
        decision: { etag: '"person-1"', settled: false },
        link: { writtenStart: T0, deferral: { etag: '"person-1"', since: NOW - 10 * GRACE_MS } },
      },
      leave('"person-1"', NOW - 10 * GRACE_MS),
    ],
    [
      '...unless the booking service moved the appointment since: it wins once the grace period is over',
      {
        decision: { etag: '"person-1"', settled: false },
        wanted: { ...OURS, start: T0 + 5 * H, end: T0 + 6 * H },
        link: { writtenStart: T0, deferral: { etag: '"person-1"', since: NOW - GRACE_MS } },
      },
      { kind: 'overwrite', etag: '"person-1"', tombstone: false },
    ],
    [
      "our own write whose answer was lost, met by its retry, is adopted, not taken for a person's move",
      { read: found({ etag: '"ours-lost"', ourHash: OURS.hash, start: T0, end: T0 + H }), link: { writtenStart: T0 - H, deferral: null } },
      { kind: 'adopt', etag: '"ours-lost"' },
    ],
    [
      "our hash with other times is a person's move after our write, not our write",
      { read: found({ ourHash: OURS.hash }) },
      leave('"person-1"'),
    ],
    [
      'a deletion a target shows as a missing event (no tombstones) is left to the reverse sync',
      { read: { kind: 'missing' } },
      leave(null),
    ],
    ['a missing event the reverse sync does not take is created again', { read: { kind: 'missing' }, reverse: null }, { kind: 'create' }],
    [
      'a missing event is never "decided": a settled decision on another deletion does not match it',
      { read: { kind: 'missing' }, decision: { etag: null, settled: true } },
      leave(null),
    ],
    [
      "a PUT on a stale etag met a person's move the booking service took: the read shows what we want (our older hash), adopted, no second PUT",
      {
        read: found({ etag: '"person-1"', start: T0, end: T0 + H, ourHash: 'hash-before', ...SHOWN }),
        link: { writtenStart: T0 - H, deferral: null },
      },
      { kind: 'adopt', etag: '"person-1"' },
    ],
    [
      "...even with the app's own line ends in the description",
      { read: found({ etag: '"person-1"', start: T0, end: T0 + H, ...SHOWN, description: `${LOOKS.description}\r\n` }) },
      { kind: 'adopt', etag: '"person-1"' },
    ],
    [
      '...nor when the length differs: written over',
      { read: found({ start: T0, end: T0 + 2 * H, ...SHOWN }) },
      { kind: 'overwrite', etag: '"person-1"', tombstone: false },
    ],
  ])('%s', (_race, over, expected) => {
    expect(onChanged(facts(over))).toEqual(expected);
  });
});

describe('a create meets an event under our derived id (a 409)', () => {
  const base: ExistingFacts = {
    read: found(),
    wanted: OURS,
    failedBefore: false,
    link: { writtenStart: null, deferral: null },
    reverse: { moves: true, deletions: true },
    decision: undefined,
    now: NOW,
  };
  const moved = found({ ourHash: OURS.hash });
  it.each<[string, Partial<ExistingFacts>, unknown]>([
    [
      'our lost insert (our hash, our times) is adopted: nothing written again',
      { read: found({ etag: '"ours"', ourHash: OURS.hash, start: T0, end: T0 + H }) },
      { kind: 'adopt', etag: '"ours"' },
    ],
    [
      '409 adoption checks the times: our hash on an event a person moved, whose link was lost, is written over',
      { read: moved },
      { kind: 'overwrite', etag: '"person-1"', tombstone: false },
    ],
    [
      'our failed insert that landed unseen and a person moved since: left to the reverse sync, which takes it as ours',
      { read: moved, failedBefore: true },
      { kind: 'leave', deferral: { etag: '"person-1"', since: NOW }, lookAgainAt: NOW + LOOK_AGAIN_MS },
    ],
    [
      '...and written over once the reverse sync has settled on that state',
      { read: moved, failedBefore: true, decision: { etag: '"person-1"', settled: true } },
      { kind: 'overwrite', etag: '"person-1"', tombstone: false },
    ],
    [
      '...and written over with the reverse sync off',
      { read: moved, failedBefore: true, reverse: null },
      { kind: 'overwrite', etag: '"person-1"', tombstone: false },
    ],
    [
      'a tombstone under our id is written over, which revives it',
      { read: tombstone, failedBefore: true },
      { kind: 'overwrite', etag: '"deleted-1"', tombstone: true },
    ],
    [
      'an event without our hash under our id is written over',
      { read: found({ ourHash: null, start: T0, end: T0 + H }), failedBefore: true },
      { kind: 'overwrite', etag: '"person-1"', tombstone: false },
    ],
    [
      'the event vanished between the 409 and the read: tried again on the next pass',
      { read: { kind: 'missing' } },
      { kind: 'fail', error: 'not_found', message: expect.any(String) },
    ],
    [
      'our event (an older hash of ours) that already shows what we want is adopted, not written again',
      { read: found({ etag: '"ours-old"', ourHash: 'hash-before', start: T0, end: T0 + H, ...SHOWN }) },
      { kind: 'adopt', etag: '"ours-old"' },
    ],
    [
      "someone's event that merely looks like ours (no hash of ours) is written over",
      { read: found({ ourHash: null, start: T0, end: T0 + H, ...SHOWN }) },
      { kind: 'overwrite', etag: '"person-1"', tombstone: false },
    ],
  ])('%s', (_race, over, expected) => {
    expect(onExisting({ ...base, ...over })).toEqual(expected);
  });

  it.each<[string, PutResult, boolean, unknown]>([
    [
      'the target refuses to revive a deleted id: the next id generation',
      { kind: 'refused', message: 'forbidden' },
      true,
      { kind: 'next-generation' },
    ],
    [
      'a refusal to write a live event is a failure, never a new id',
      { kind: 'refused', message: 'Google answered 403' },
      false,
      { kind: 'fail', error: 'forbidden', message: 'Google answered 403' },
    ],
    [
      'changed again while we wrote over it: a failure, written on the next pass',
      { kind: 'changed' },
      false,
      { kind: 'fail', error: 'precondition_failed', message: expect.any(String) },
    ],
  ])('%s', (_race, put, wasTombstone, expected) => {
    expect(afterOverwrite(put, wasTombstone)).toEqual(expected);
  });
});

describe('updates and removals', () => {
  it.each<[string, PutResult, string]>([
    ['an update of an event the target no longer has creates it again (same id)', { kind: 'missing' }, 'create'],
    ['a 412 on an update is read before anything is decided', { kind: 'changed' }, 'read'],
  ])('%s', (_race, put, kind) => {
    expect(afterUpdate(put).kind).toBe(kind);
  });

  it("a removal that meets a person's edit removes it anyway: the booking service's cancellation wins", () => {
    expect(afterRemove({ kind: 'changed' })).toEqual({ kind: 'remove-any-version' });
    expect(afterRemove({ kind: 'missing' })).toEqual({ kind: 'removed' });
  });

  it('a create whose answer was lost, then the appointment cancelled: its event is deleted, not left for good', () => {
    const failedCreate = {
      calendarId: 'primary',
      eventId: 'evt1',
      generation: 0,
      present: false,
      writtenHash: null,
      etag: null,
      attempts: 1,
      writeInFlight: false,
    };
    expect(planWrite('k-1', null, failedCreate)).toEqual({ kind: 'delete', calendarId: 'primary', eventId: 'evt1' });
    expect(planWrite('k-1', null, { ...failedCreate, attempts: 0 })).toEqual({ kind: 'none' });
  });

  it("killed while an insert's answer was held, then the appointment removed: the event is deleted, not left in the calendar", () => {
    const cutOff = {
      calendarId: 'primary',
      eventId: 'evt1',
      generation: 0,
      present: false,
      writtenHash: null,
      etag: null,
      attempts: 0,
      writeInFlight: true,
    };
    expect(planWrite('k-1', null, cutOff)).toEqual({ kind: 'delete', calendarId: 'primary', eventId: 'evt1' });
  });

  it.each([
    ['failed', { attempts: 1, writeInFlight: false }],
    ['cut off by a crash', { attempts: 0, writeInFlight: true }],
  ])(
    'a delete that was %s, then the appointment active again as before: the event is read (create if absent), not taken as still there',
    (_how, unsure) => {
      const deleting = {
        calendarId: 'primary',
        eventId: 'evt1',
        generation: 0,
        present: true,
        writtenHash: OURS.hash,
        etag: '"ours"',
        ...unsure,
      };
      expect(planWrite('k-1', { calendarId: 'primary', hash: OURS.hash }, deleting)).toEqual({
        kind: 'insert',
        calendarId: 'primary',
        eventId: 'evt1',
        generation: 0,
      });
      expect(
        planWrite('k-1', { calendarId: 'primary', hash: OURS.hash }, { ...deleting, attempts: 0, writeInFlight: false }),
        'every write answered: nothing to do',
      ).toEqual({ kind: 'none' });
    },
  );

  it('stale failures: a failed write the appointment no longer needs leaves status', () => {
    expect(notesRevision({ writtenRevision: 4, lastError: 'quota exceeded' }, 4)).toBe(true);
    const deleteToBeSure = { kind: 'delete', calendarId: 'primary', eventId: 'evt1' } as const;
    expect(
      failureSuperseded({ present: false, lastError: 'quota exceeded' }, deleteToBeSure),
      "a failed create's error, once a delete is planned instead",
    ).toBe(true);
    expect(failureSuperseded({ present: true, lastError: 'delete failed' }, deleteToBeSure), "a failed delete's own error stays").toBe(
      false,
    );
  });
});

describe('the reverse sync decides on a change it listed', () => {
  const base: DecideInput = {
    event: { ...event(), source: 'change' },
    link: { present: true, etag: '"ours"', writtenStart: T0 },
    appointment: { start: T0, end: T0 + H, mirrored: true },
    handledEtag: null,
    lastRescheduledTo: null,
    onDelete: 'cancel',
  };
  const input = (over: Partial<DecideInput> & { ev?: Partial<TargetEvent> }): DecideInput => ({
    ...base,
    ...over,
    event: { ...base.event, ...over.ev },
  });
  /** The writer's last write is of what it wants now: a difference is someone's edit. */
  const holds: Partial<DecideInput> = { link: { present: true, etag: '"ours"', writtenStart: T0, writtenHash: OURS.hash }, wanted: OURS };

  it.each<[string, Partial<DecideInput> & { ev?: Partial<TargetEvent> }, unknown]>([
    ['our own echo after a round (the state of our last write) is not news', { ev: { etag: '"ours"' } }, { kind: 'none', reason: 'echo' }],
    [
      'the echo of our put-back, whose etag the writer stored, is not news',
      { ev: { etag: '"ours"', start: T0 } },
      { kind: 'none', reason: 'echo' },
    ],
    ['an observation already acted on is not news when listed again', { handledEtag: '"person-1"' }, { kind: 'none', reason: 'handled' }],
    [
      "a person's move stays a move when the booking service changed only another field",
      {},
      { kind: 'reschedule', start: T1, end: T1 + H, fromStart: T0 },
    ],
    [
      'the booking start where our own reschedule put it is not a booking-side change: a second move is a move',
      { appointment: { start: T1, end: T1 + H, mirrored: true }, lastRescheduledTo: T1, ev: { start: T1 + H, end: T1 + 2 * H } },
      { kind: 'reschedule', start: T1 + H, end: T1 + 2 * H, fromStart: T1 },
    ],
    [
      "killed after our reschedule went through and before its answer came: the booking start it set is not a booking-side change, a person's next move is a move",
      { appointment: { start: T1, end: T1 + H, mirrored: true }, pendingRescheduleTo: [T1], ev: { start: T1 + H, end: T1 + 2 * H } },
      { kind: 'reschedule', start: T1 + H, end: T1 + 2 * H, fromStart: T1 },
    ],
    [
      'the booking service moved it too since our write: it wins, the event is put back',
      { appointment: { start: T0 + 5 * H, end: T0 + 6 * H, mirrored: true } },
      { kind: 'restore', reason: 'booking-changed' },
    ],
    [
      'deleted by a person after the booking service cancelled it: the calendar already shows no event, the link takes the deletion (no DELETE answered 410)',
      { ev: { deleted: true, start: null, end: null }, appointment: { start: T0, end: T0 + H, mirrored: false } },
      { kind: 'none', reason: 'gone-too' },
    ],
    [
      'deleted by a person while the booking service moved it: put back, not cancelled',
      { ev: { deleted: true, start: null, end: null }, appointment: { start: T0 + H, end: T0 + 2 * H, mirrored: true } },
      { kind: 'recreate', reason: 'booking-changed' },
    ],
    [
      'only the end changed (a person dragged the bottom edge): the booking service cannot take a length, so it is put back',
      { ev: { start: T0, end: T0 + 2 * H, ...SHOWN }, ...holds },
      { kind: 'restore', reason: 'length' },
    ],
    [
      'only the title changed: put back',
      { ev: { start: T0, end: T0 + H, ...SHOWN, title: 'Ann (VIP)' }, ...holds },
      { kind: 'restore', reason: 'title' },
    ],
    [
      'only the status changed: put back',
      { ev: { start: T0, end: T0 + H, ...SHOWN, status: 'tentative' }, ...holds },
      { kind: 'restore', reason: 'status' },
    ],
    [
      'made to repeat (the target reports no single time): put back',
      { ev: { start: null, end: null, ...SHOWN }, ...holds },
      { kind: 'restore', reason: 'not-a-time' },
    ],
    [
      'an app saved it again unchanged: nothing to send or put back',
      { ev: { start: T0, end: T0 + H, ...SHOWN }, ...holds },
      { kind: 'none', reason: 'agrees' },
    ],
    [
      "the end differs while the writer's own write is still to come (the booking service changed): no put-back of ours, its write does it",
      {
        ev: { start: T0, end: T0 + 2 * H, ...SHOWN },
        ...holds,
        link: { present: true, etag: '"ours"', writtenStart: T0, writtenHash: 'hash-before' },
      },
      { kind: 'none', reason: 'agrees' },
    ],
    [
      "the move we carried, listed again under another version before the booking service's answer reached the store, is not a second reschedule",
      { ev: { etag: '"person-2"' }, lastReschedule: { to: T1, settledAt: NOW }, bookingChangedAt: NOW - 1_000 },
      { kind: 'none', reason: 'moved-already' },
    ],
    [
      "...but once the booking service moved it since and we wrote that, a person's new move to that slot is a move",
      { ev: { etag: '"person-2"' }, lastReschedule: { to: T1, settledAt: NOW }, bookingChangedAt: NOW + 1_000, writeUnsure: false },
      { kind: 'reschedule', start: T1, end: T1 + H, fromStart: T0 },
    ],
    [
      'the booking service moved it since our reschedule and our write of that was lost: the event at the rescheduled time is ours, not a second move; the booking wins',
      { ev: { etag: '"ours-lost"' }, lastReschedule: { to: T1, settledAt: NOW }, bookingChangedAt: NOW + 1_000, writeUnsure: true },
      { kind: 'restore', reason: 'earlier-write' },
    ],
    [
      "our write of the booking's earlier time, its answer lost, seen after the booking service went back (it carries the hash of the appointment at the times it shows): not a move; the booking wins",
      { ev: { etag: '"ours-lost"', ourHash: 'hash-at-T1' }, hashAtShownTimes: 'hash-at-T1', writeUnsure: true },
      { kind: 'restore', reason: 'earlier-write' },
    ],
    [
      "...a person's drag keeps the hash of the times the event had: a move, lost answer or not",
      { ev: { ourHash: 'hash-at-T0' }, hashAtShownTimes: 'hash-at-T1', writeUnsure: true },
      { kind: 'reschedule', start: T1, end: T1 + H, fromStart: T0 },
    ],
    [
      '...and with every write of ours answered, a version we did not record is not ours',
      { ev: { ourHash: 'hash-at-T1' }, hashAtShownTimes: 'hash-at-T1', writeUnsure: false },
      { kind: 'reschedule', start: T1, end: T1 + H, fromStart: T0 },
    ],
  ])('%s', (_race, over, expected) => {
    expect(decideReverse(input(over))).toEqual(expected);
  });

  it("a person's move of our create that landed unseen (its answer lost, a failure recorded) is a move", () => {
    const failedCreate = { present: false, etag: null, writtenStart: null, attempts: 1, writeInFlight: false };
    const moved = { ...event({ ourHash: OURS.hash }), source: 'change' as const };
    const link = weighedLink(failedCreate, moved, OURS);
    expect(decideReverse({ ...base, event: moved, link })).toEqual({ kind: 'reschedule', start: T1, end: T1 + H, fromStart: T0 });
    expect(weighedLink({ ...failedCreate, attempts: 0 }, moved, OURS), 'no failed create: not taken as ours').toMatchObject({
      present: false,
    });
    expect(weighedLink(failedCreate, { ...moved, ourHash: 'other' }, OURS), 'another hash: not ours').toMatchObject({ present: false });
    expect(
      weighedLink({ ...failedCreate, attempts: 0, writeInFlight: true }, moved, OURS),
      'a create cut off by a crash: ours too',
    ).toMatchObject({ present: true, writtenStart: T0 });
  });

  it("a person's move of our update that landed unseen (its answer lost) is a move, not a booking-side change against the link's older time", () => {
    // We wrote T0 over an event the link still records at T0 - H; the answer was lost. A person moved it to T1.
    const failedUpdate = { present: true, etag: '"before"', writtenStart: T0 - H, attempts: 1, writeInFlight: false };
    const moved = { ...event({ ourHash: OURS.hash }), source: 'change' as const };
    expect(decideReverse({ ...base, event: moved, link: weighedLink(failedUpdate, moved, OURS) })).toEqual({
      kind: 'reschedule',
      start: T1,
      end: T1 + H,
      fromStart: T0,
    });
    expect(weighedLink({ ...failedUpdate, attempts: 0 }, moved, OURS), 'every write answered: the link as it is').toEqual({
      ...failedUpdate,
      attempts: 0,
    });
  });

  it("a person moved the event where the booking service moved it too: the link takes that state, so the person's next move is a move", () => {
    const both = { ...event({ start: T1, end: T1 + H }), source: 'change' as const };
    const agrees = decideReverse({ ...base, event: both, appointment: { start: T1, end: T1 + H, mirrored: true } });
    expect(agrees).toEqual({ kind: 'none', reason: 'agrees' });
    const adopted = adoptsAgreement(agrees, { writtenStart: T0 }, both, OURS);
    expect(adopted).toEqual({ etag: '"person-1"', start: T1, end: T1 + H });
    const next = { ...event({ etag: '"person-2"', start: T1 + H, end: T1 + 2 * H }), source: 'change' as const };
    const link = { present: true, etag: adopted!.etag, writtenStart: adopted!.start };
    expect(decideReverse({ ...base, event: next, link, appointment: { start: T1, end: T1 + H, mirrored: true } })).toEqual({
      kind: 'reschedule',
      start: T1 + H,
      end: T1 + 2 * H,
      fromStart: T1,
    });
    expect(adoptsAgreement(agrees, { writtenStart: T1 }, both, OURS), 'the link already holds that time: nothing to take').toBeNull();
    expect(adoptsAgreement({ kind: 'none', reason: 'echo' }, { writtenStart: T0 }, both, OURS), 'our own echo: nothing to take').toBeNull();
    expect(
      adoptsAgreement(agrees, { writtenStart: T0 }, { ...both, ourHash: OURS.hash }, OURS),
      'our own write, its answer lost: the writer adopts it whole (taking only its etag would write it again)',
    ).toBeNull();
  });

  it('an event that agrees and shows all the writer wants is adopted whole: the link takes its etag and our hash, the writer writes nothing', () => {
    const resaved = { ...event({ etag: '"app-2"', start: T0, end: T0 + H, ourHash: 'hash-before', ...SHOWN }), source: 'change' as const };
    const agrees = decideReverse({ ...base, ...holds, event: resaved });
    expect(agrees).toEqual({ kind: 'none', reason: 'agrees' });
    expect(adoptsAgreement(agrees, { writtenStart: T0 - H, etag: '"ours"', writtenHash: 'hash-before' }, resaved, OURS)).toEqual({
      etag: '"app-2"',
      start: T0,
      end: T0 + H,
      hash: OURS.hash,
    });
    expect(
      adoptsAgreement(agrees, { writtenStart: T0, etag: '"app-2"', writtenHash: OURS.hash }, resaved, OURS),
      'the link holds it already',
    ).toBeNull();
    expect(
      planWrite(
        'k-1',
        { calendarId: 'primary', hash: OURS.hash },
        {
          calendarId: 'primary',
          eventId: 'evt1',
          generation: 0,
          present: true,
          writtenHash: OURS.hash,
          etag: '"app-2"',
          attempts: 0,
          writeInFlight: false,
        },
      ),
      'once adopted: nothing to write',
    ).toEqual({ kind: 'none' });
  });

  it('only missing from a full listing: read again first, never cancelled on an absence', () => {
    expect(
      decideReverse({ ...base, event: { ...event({ deleted: true, start: null, end: null, etag: null }), source: 'missing' } }),
    ).toEqual({ kind: 'recheck' });
  });
});

describe('a write whose earlier attempt may have landed unseen is read first: the read stands in for its answer', () => {
  it.each<[string, Parameters<typeof readsFirst>[0], boolean]>([
    [
      'an earlier attempt failed (its answer may have been lost after it was applied)',
      { attempts: 1, writeInFlight: false, deferral: null },
      true,
    ],
    ['killed while a write was under way', { attempts: 0, writeInFlight: true, deferral: null }, true],
    [
      "a person's change left to the reverse sync, looked at again: read, no PUT answered 412 each time",
      { attempts: 0, writeInFlight: false, deferral: { etag: '"person-1"', since: NOW } },
      true,
    ],
    ['the last write was answered and recorded: no read, the write is made', { attempts: 0, writeInFlight: false, deferral: null }, false],
    ['a new appointment: no read', undefined, false],
  ])('%s', (_race, link, expected) => {
    expect(readsFirst(link)).toBe(expected);
  });

  it("a person's edit the link took on acceptance, whose looks are not known to be ours: read first", () => {
    expect(readsFirst({ attempts: 0, writeInFlight: false, deferral: null }, true)).toBe(true);
  });

  describe("the link holds a person's edit it took when the booking service accepted the move, and the booking service changed something since", () => {
    // Outlook: moved 09:00 -> 10:30 while the appointment was pending; the event still showed busy,
    // so the edit was not known to show what the writer wanted then (adoptHash null). The booking
    // service confirmed it again: the writer wants busy at 10:30, which the event may well show.
    const taken: Parameters<typeof holdsUnknownEdit>[0] = {
      present: true,
      etag: '"person-1"',
      writtenHash: 'hash-before',
      writtenStart: T1,
      writtenEnd: T1 + H,
    };
    const decision: ReverseDecision = { etag: '"person-1"', settled: true, adoptHash: null, decidedAt: NOW };
    const wanted = { hash: 'hash-now', start: T1, end: T1 + H };
    it.each<[string, Partial<typeof taken>, Partial<typeof decision> | null, Partial<typeof wanted>, boolean]>([
      ['the booking service wants the times the edit shows: read before writing, never a PATCH of what it shows', {}, {}, {}, true],
      ['the edit was known to show what is wanted: taken without a call (takesPersonsEdit)', {}, { adoptHash: 'hash-now' }, {}, false],
      ['the writer wrote since (the link holds our etag): the write is made', { etag: '"ours-2"' }, {}, {}, false],
      ['a put-back asked for (no hash): the write is made', { writtenHash: null }, {}, {}, false],
      ['the booking service moved it since: the write is made', {}, {}, { start: T0, end: T0 + H }, false],
      ['no decision of the reverse sync: the write is made', {}, null, {}, false],
    ])('%s', (_race, link, d, want, expected) => {
      const facts = d === null ? undefined : { ...decision, ...d };
      expect(holdsUnknownEdit({ ...taken, ...link }, facts, { ...wanted, ...want })).toBe(expected);
    });
  });

  describe('a put-back asked for and not yet written, and the booking service then moved the appointment to the times the event shows', () => {
    // A person dragged the event to 09:00; the booking service moved it elsewhere meanwhile, so the
    // reverse sync asked for a put-back (the link took the person's etag, no hash). Before it was
    // written, reception moved the appointment to 09:00: the event may already show all we want.
    const putBack: Parameters<typeof putBackOvertaken>[0] = {
      present: true,
      etag: '"person-1"',
      writtenHash: null,
      writtenStart: T0,
      writtenEnd: T0 + H,
    };
    const decision: ReverseDecision = { etag: '"person-1"', settled: true, shown: { start: T1, end: T1 + H } };
    it.each<[string, Partial<typeof putBack>, Partial<ReverseDecision> | null, { start: number; end: number }, boolean]>([
      [
        'the booking service wants the times the event showed: read first, never a PUT of what it shows',
        {},
        {},
        { start: T1, end: T1 + H },
        true,
      ],
      ['the booking service wants other times: the put-back is written', {}, {}, { start: T0, end: T0 + H }, false],
      ['the same start, another length: the put-back is written', {}, {}, { start: T1, end: T1 + 2 * H }, false],
      [
        'the writer wrote since (our hash and etag): the write is made',
        { etag: '"ours-2"', writtenHash: 'h' },
        {},
        { start: T1, end: T1 + H },
        false,
      ],
      [
        'a later state of the event than the one decided on: the write is made (a 412 tells)',
        {},
        { etag: '"person-2"' },
        { start: T1, end: T1 + H },
        false,
      ],
      [
        'a decision recorded before its times were noted: the write is made, as before',
        {},
        { shown: null },
        { start: T1, end: T1 + H },
        false,
      ],
      [
        'a rename put back at the times we wrote: written with no read (the put-back is needed)',
        {},
        { shown: { start: T0, end: T0 + H } },
        { start: T0, end: T0 + H },
        false,
      ],
      ['no decision of the reverse sync: the write is made', {}, null, { start: T1, end: T1 + H }, false],
    ])('%s', (_race, link, d, want, expected) => {
      const facts = d === null ? undefined : { ...decision, ...d };
      expect(putBackOvertaken({ ...putBack, ...link }, facts, want)).toBe(expected);
    });
  });

  it.each<[string, GetResult, string]>([
    [
      'a create whose event is there is decided as a 409 would be, without an insert answered 409',
      found({ ourHash: OURS.hash }),
      'existing',
    ],
    ["a create that finds Google's tombstone: decided as a 409 (written over, which revives it)", tombstone, 'existing'],
    ['a create that finds nothing is made', { kind: 'missing' }, 'create'],
  ])('%s', (_race, read, expected) => {
    expect(createAfterRead(read)).toBe(expected);
  });

  it.each<[string, GetResult, string | null, string]>([
    [
      'an update whose earlier attempt landed (another version there) is decided as a 412, without a PUT answered 412',
      found({ etag: '"ours-2"' }),
      '"ours-1"',
      'changed',
    ],
    ['an update whose earlier attempt never landed (our version there) is made on it', found({ etag: '"ours-1"' }), '"ours-1"', 'update'],
    ['a target that gave no version: decided by what the event shows', found({ etag: '"v"' }), null, 'changed'],
    ['an update of an event that is gone: created again', { kind: 'missing' }, '"ours-1"', 'create'],
    [
      'the version we know already shows what we want (our write landed, then a put-back was asked for meanwhile): adopted, no PUT of what it shows',
      found({ etag: '"ours-1"', ourHash: OURS.hash, start: T0, end: T0 + H }),
      '"ours-1"',
      'adopt',
    ],
    [
      "a person's edit the link took on acceptance, showing everything we want under our older hash: adopted, no PATCH of what it shows",
      found({ etag: '"person-1"', ourHash: 'hash-before', start: T0, end: T0 + H, ...SHOWN }),
      '"person-1"',
      'adopt',
    ],
    [
      '...not when it shows another status: the write is made on it',
      found({ etag: '"person-1"', ourHash: 'hash-before', start: T0, end: T0 + H, ...SHOWN, status: 'tentative' }),
      '"person-1"',
      'update',
    ],
    ['another version that shows what we want is adopted too', found({ etag: '"v2"', start: T0, end: T0 + H, ...SHOWN }), '"v1"', 'adopt'],
  ])('%s', (_race, read, etag, expected) => {
    expect(updateAfterRead(read, etag, OURS)).toBe(expected);
  });

  it.each<[string, GetResult, string]>([
    [
      "a person's state to be put back, which the booking service now wants all of: adopted, no PUT of what it shows",
      found({ etag: '"person-1"', ourHash: 'hash-before', start: T0, end: T0 + H, ...SHOWN }),
      'adopt',
    ],
    [
      "...one with our very hash and times but the person's title: written (their rename kept our hash)",
      found({ etag: '"person-1"', ourHash: OURS.hash, start: T0, end: T0 + H, ...SHOWN, title: 'Call back first!' }),
      'update',
    ],
  ])('%s', (_race, read, expected) => {
    expect(updateAfterRead(read, '"person-1"', OURS, true)).toBe(expected);
  });

  it.each<[string, GetResult, string]>([
    [
      'a delete whose earlier attempt went through (nothing there): nothing is written, not even a DELETE answered 410',
      { kind: 'missing' },
      'nothing-there',
    ],
    ['only a tombstone there: nothing written', tombstone, 'nothing-there'],
    ['a create whose outcome is unknown that landed: deleted', found({ ourHash: OURS.hash }), 'remove'],
  ])('%s', (_race, read, expected) => {
    expect(afterSureRead(read)).toBe(expected);
  });
});

describe('a round that overlaps a write', () => {
  const reschedule = { kind: 'reschedule', start: T1, end: T1 + H, fromStart: T0 } as const;
  it('a decision on a listing older than our latest write is read again', () => {
    expect(readAgain(reschedule, { updatedAt: NOW + 1 }, NOW)).toBe(true);
    expect(readAgain(reschedule, { updatedAt: NOW - 1 }, NOW)).toBe(false);
  });

  it("a put-back for a booking-side change or a move, while our last write's outcome is unknown and the listing carried no hash, is read again first", () => {
    const restore = { kind: 'restore', reason: 'booking-changed' } as const;
    const unsure = { updatedAt: NOW - 1, attempts: 1, writeInFlight: false };
    // Graph's delta: a person's move of our write that landed unseen shows no hash until read.
    expect(readAgain(restore, unsure, NOW, { ourHash: null, deleted: false })).toBe(true);
    expect(
      readAgain({ kind: 'restore', reason: 'earlier-write' }, unsure, NOW, { ourHash: null, deleted: false }),
      'our own write, as we took it',
    ).toBe(true);
    expect(readAgain(restore, unsure, NOW, { ourHash: 'h', deleted: false }), 'the hash is there: decided on it').toBe(false);
    expect(readAgain(restore, { ...unsure, attempts: 0 }, NOW, { ourHash: null, deleted: false }), 'our write is known').toBe(false);
    expect(readAgain(reschedule, unsure, NOW, { ourHash: null, deleted: false }), 'a move too: it may be that write').toBe(true);
    expect(readAgain(reschedule, unsure, NOW, { ourHash: 'h', deleted: false }), 'a move with the hash: decided on it').toBe(false);
    expect(readAgain({ kind: 'none', reason: 'agrees' }, unsure, NOW, { ourHash: null, deleted: false }), 'nothing to do').toBe(false);
  });

  it('the writer wrote the event while the round decided: the decision is skipped and the cursor kept', () => {
    expect(writtenSince({ updatedAt: NOW + 1 }, NOW)).toBe(true);
    expect(advancesCursor({ held: false, overtaken: true })).toBe(false);
  });

  it('deletions held by the breaker keep the cursor, so they are seen (and reported) again', () => {
    expect(advancesCursor({ held: true, overtaken: false })).toBe(false);
  });
});

describe("carrying a person's move to the booking service", () => {
  const move: AcceptedMove = { etag: '"person-1"', fromStart: T0, start: T1, end: T1 + H, decidedAt: NOW };
  it.each<[string, Parameters<typeof adoptAfterReschedule>[0], unknown]>([
    [
      "after a reschedule, the link takes the person's times with their etag: the next move lands without a 412",
      { present: true, writtenStart: T0, updatedAt: NOW - 1 },
      { etag: '"person-1"', start: T1, end: T1 + H },
    ],
    ['not when the writer wrote the event after the move was decided', { present: true, writtenStart: T0, updatedAt: NOW + 1 }, null],
    [
      'not when the link no longer holds the start the move was made from',
      { present: true, writtenStart: T0 + H, updatedAt: NOW - 1 },
      null,
    ],
    ['not when our event is gone', { present: false, writtenStart: T0, updatedAt: NOW - 1 }, null],
  ])('%s', (_race, link, expected) => {
    expect(adoptAfterReschedule(link, move)).toEqual(expected);
  });

  describe('after a move the booking service accepted, the link takes the event as it is: no PUT of the times it shows', () => {
    const after = { hash: 'hash-after', start: T1, end: T1 + H, looks: LOOKS };
    const moved = event({ start: T1, end: T1 + H, ...SHOWN });
    it('recorded with the move: the hash the writer will want, when the event shows all of it', () => {
      expect(adoptOnAcceptance(moved, after)).toBe('hash-after');
      expect(adoptOnAcceptance({ ...moved, end: T1 + 2 * H }, after), 'the length changed too: it is put back by the write').toBeNull();
      expect(adoptOnAcceptance({ ...moved, title: 'Ann (VIP)' }, after), 'the title changed too: put back by the write').toBeNull();
    });

    const decision = { etag: '"person-1"', settled: true, adoptHash: 'hash-after', decidedAt: NOW };
    it.each<[string, Parameters<typeof takesPersonsEdit>[0], Parameters<typeof takesPersonsEdit>[1], string, unknown]>([
      [
        'the stored appointment now wants what the edit shows: the writer takes it, nothing written',
        { present: true, etag: '"ours"', updatedAt: NOW - 1 },
        decision,
        'hash-after',
        { etag: '"person-1"' },
      ],
      [
        '...also while the reschedule is still being settled (the webhook of the accepted move came first)',
        { present: true, etag: '"ours"', updatedAt: NOW - 1 },
        { ...decision, settled: false },
        'hash-after',
        { etag: '"person-1"' },
      ],
      [
        '...and once the link took the edit on acceptance',
        { present: true, etag: '"person-1"', updatedAt: NOW + 9 },
        decision,
        'hash-after',
        { etag: '"person-1"' },
      ],
      [
        'not when the booking service holds something else (refused, or changed since)',
        { present: true, etag: '"ours"', updatedAt: NOW - 1 },
        decision,
        'hash-other',
        null,
      ],
      [
        'not when we wrote the event since the move (it no longer shows the edit)',
        { present: true, etag: '"ours-2"', updatedAt: NOW + 1 },
        decision,
        'hash-after',
        null,
      ],
      [
        'not when the edit showed more than a move (a length, a title): the write puts that back',
        { present: true, etag: '"ours"', updatedAt: NOW - 1 },
        { ...decision, adoptHash: null },
        'hash-after',
        null,
      ],
    ])('%s', (_race, link, d, desiredHash, expected) => {
      expect(takesPersonsEdit(link, d, desiredHash)).toEqual(expected);
    });
  });

  it.each<[string, Parameters<typeof alreadyPutBack>[0], boolean]>([
    [
      "a move put back after the writer already wrote the booking's state over it (its grace ran out): not asked again, no PUT on the person's stale etag",
      { present: true, etag: '"ours-2"', writtenHash: 'h', updatedAt: NOW + 5, attempts: 0, writeInFlight: false },
      true,
    ],
    [
      'the writer has not written since the move was decided on: put back',
      { present: true, etag: '"ours-1"', writtenHash: 'h', updatedAt: NOW - 5, attempts: 0, writeInFlight: false },
      false,
    ],
    [
      'its write since is unconfirmed (failed, or cut off): put back',
      { present: true, etag: '"ours-2"', writtenHash: 'h', updatedAt: NOW + 5, attempts: 1, writeInFlight: false },
      false,
    ],
    [
      "the link holds the person's edit itself: put back",
      { present: true, etag: '"person-1"', writtenHash: 'h', updatedAt: NOW + 5, attempts: 0, writeInFlight: false },
      false,
    ],
    [
      'a put-back is already asked for (no hash): asked again, harmless',
      { present: true, etag: '"ours-2"', writtenHash: null, updatedAt: NOW + 5, attempts: 0, writeInFlight: false },
      false,
    ],
  ])('%s', (_race, link, expected) => {
    expect(alreadyPutBack(link, { observedEtag: '"person-1"', decidedAt: NOW })).toBe(expected);
  });

  it.each([
    [
      'the booking service moved it between the decision and the PATCH: it wins, the move is put back',
      T0 + 7 * H,
      { kind: 'revert', reason: 'booking-changed' },
    ],
    ['where our own earlier, superseded reschedule (perhaps in flight) put it is not a booking change', T0 + 9 * H, { kind: 'check-slot' }],
    ['a PATCH that went through before a crash is not sent again', T1, { kind: 'done', reason: 'already-there' }],
  ])('%s', (_race, bookingStart, expected) => {
    expect(beforeReschedule({ found: true, start: bookingStart, cancelled: false }, T1, [T0, T0 + 9 * H])).toEqual(expected);
  });

  it.each<[string, number, unknown]>([
    [
      'a move the writer already put back is not sent after it: the calendar shows the booked time again',
      T0,
      { kind: 'drop', reason: 'put-back' },
    ],
    ['...unless the booking service holds the new time already (our PATCH went through)', T1, { kind: 'done', reason: 'already-there' }],
    ['...and a booking-side move meanwhile still reads as one', T0 + 3 * H, { kind: 'revert', reason: 'booking-changed' }],
  ])('%s', (_race, bookingStart, expected) => {
    expect(beforeReschedule({ found: true, start: bookingStart, cancelled: false }, T1, [T0], true)).toEqual(expected);
  });
});
