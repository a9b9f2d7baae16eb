import { describe, expect, it } from 'vitest';
import { decideReverse, readAgain, advancesCursor, withdrawsMove, type DecideInput, type ReverseAction } from './reverse-decide.ts';

const H = 3_600_000;
const T0 = Date.UTC(2026, 5, 20, 13, 0); // booking start we wrote
const T1 = T0 + 2 * H; // where a person moved it

const base: DecideInput = {
  event: { id: 'abcde12345', deleted: false, etag: '"person"', start: T1, end: T1 + H, ourHash: 'h', source: 'change' },
  link: { present: true, etag: '"ours"', writtenStart: T0 },
  appointment: { start: T0, end: T0 + H, mirrored: true },
  handledEtag: null,
  lastRescheduledTo: null,
  onDelete: 'recreate',
};

function input(patch: {
  event?: Partial<DecideInput['event']>;
  link?: Partial<NonNullable<DecideInput['link']>> | null;
  appointment?: Partial<NonNullable<DecideInput['appointment']>> | null;
  handledEtag?: string;
  lastRescheduledTo?: number;
  onDelete?: DecideInput['onDelete'];
}): DecideInput {
  return {
    ...base,
    event: { ...base.event, ...patch.event },
    link: patch.link === null ? undefined : { ...base.link!, ...patch.link },
    appointment: patch.appointment === null ? undefined : { ...base.appointment!, ...patch.appointment },
    handledEtag: patch.handledEtag ?? null,
    lastRescheduledTo: patch.lastRescheduledTo ?? null,
    onDelete: patch.onDelete ?? 'recreate',
  };
}

const deleted = { deleted: true, start: null, end: null } as const;

describe('decideReverse: a changed event', () => {
  const table: [string, Parameters<typeof input>[0], ReverseAction][] = [
    [
      'a person moved it: reschedule, keeping the booking duration',
      { event: { end: T1 + 5 * H } },
      { kind: 'reschedule', start: T1, end: T1 + H, fromStart: T0 },
    ],
    ['our own write coming back is an echo', { event: { etag: '"ours"' } }, { kind: 'none', reason: 'echo' }],
    ['an observation already acted on is not news', { handledEtag: '"person"' }, { kind: 'none', reason: 'handled' }],
    ['an event we do not mirror (no link)', { link: null }, { kind: 'none', reason: 'not-mirrored' }],
    ['an event we removed ourselves', { link: { present: false } }, { kind: 'none', reason: 'not-mirrored' }],
    ['an appointment cancelled at the booking service', { appointment: { mirrored: false } }, { kind: 'none', reason: 'not-mirrored' }],
    ['an appointment we never stored', { appointment: null }, { kind: 'none', reason: 'not-mirrored' }],
    ['title edited, start untouched', { event: { start: T0, end: T0 + H } }, { kind: 'none', reason: 'agrees' }],
    ['only the end dragged: left alone', { event: { start: T0, end: T0 + 3 * H } }, { kind: 'none', reason: 'agrees' }],
    [
      'Google already shows the booking start (our reschedule done, writer not yet)',
      { appointment: { start: T1, end: T1 + H } },
      { kind: 'none', reason: 'agrees' },
    ],
    [
      'booking moved it too, person edited only the title: the writer handles it',
      { event: { start: T0 }, appointment: { start: T0 + 5 * H } },
      { kind: 'none', reason: 'other-edit' },
    ],
    [
      'booking moved it since our write and a person moved it: booking wins',
      { appointment: { start: T0 + 5 * H, end: T0 + 6 * H } },
      { kind: 'restore', reason: 'booking-changed' },
    ],
    [
      'booking start is where our last reschedule put it: not a booking change',
      { event: { start: T1 + H }, appointment: { start: T1, end: T1 + H }, lastRescheduledTo: T1 },
      { kind: 'reschedule', start: T1 + H, end: T1 + 2 * H, fromStart: T1 },
    ],
    ['moved to the all-day row: put back', { event: { start: null, end: null } }, { kind: 'restore', reason: 'not-a-time' }],
    [
      'no etag on either side still compares starts',
      { event: { etag: null }, link: { etag: null } },
      { kind: 'reschedule', start: T1, end: T1 + H, fromStart: T0 },
    ],
  ];
  it.each(table)('%s', (_name, patch, expected) => {
    expect(decideReverse(input(patch))).toEqual(expected);
  });
});

describe('decideReverse: a deleted event', () => {
  const table: [string, Parameters<typeof input>[0], ReverseAction][] = [
    ['on_delete recreate (the default)', { event: deleted }, { kind: 'recreate', reason: 'policy' }],
    ['on_delete cancel', { event: deleted, onDelete: 'cancel' }, { kind: 'cancel' }],
    ['on_delete ignore', { event: deleted, onDelete: 'ignore' }, { kind: 'ignore' }],
    [
      'our own delete (appointment cancelled) is not news',
      { event: deleted, link: { present: false }, onDelete: 'cancel' },
      { kind: 'none', reason: 'not-mirrored' },
    ],
    [
      'the writer would remove it anyway: the link takes the deletion instead',
      { event: deleted, appointment: { mirrored: false }, onDelete: 'cancel' },
      { kind: 'none', reason: 'gone-too' },
    ],
    [
      'booking moved it meanwhile: booking wins, put back',
      { event: deleted, appointment: { start: T0 + H }, onDelete: 'cancel' },
      { kind: 'recreate', reason: 'booking-changed' },
    ],
    [
      'only missing from a full re-list: read it again first',
      { event: { ...deleted, source: 'missing' }, onDelete: 'cancel' },
      { kind: 'recheck' },
    ],
    ['a deletion already acted on', { event: deleted, handledEtag: '"person"', onDelete: 'cancel' }, { kind: 'none', reason: 'handled' }],
  ];
  it.each(table)('%s', (_name, patch, expected) => {
    expect(decideReverse(input(patch))).toEqual(expected);
  });
});

describe('readAgain and advancesCursor', () => {
  const reschedule: ReverseAction = { kind: 'reschedule', start: T1, end: T1 + H, fromStart: T0 };
  it.each([
    ['a decision on a listing made before our latest write: read again', reschedule, 200, 100, true],
    ['our latest write came before the listing: decide on it', reschedule, 100, 200, false],
    ['only missing from a full listing: read again', { kind: 'recheck' } as ReverseAction, 100, 200, true],
  ] as const)('%s', (_name, action, updatedAt, listedAt, expected) => {
    expect(readAgain(action, { updatedAt }, listedAt)).toBe(expected);
  });

  it.each([
    [{ held: false, overtaken: false }, true],
    [{ held: true, overtaken: false }, false],
    [{ held: false, overtaken: true }, false],
  ])('%o moves the cursor on: %s', (round, expected) => {
    expect(advancesCursor(round)).toBe(expected);
  });
});

describe('withdrawsMove: a waiting reschedule the person took back', () => {
  const agrees: ReverseAction = { kind: 'none', reason: 'agrees' };
  const back = { ...base.event, etag: '"back"', start: T0, end: T0 + H };
  const waiting = { eventId: base.event.id, observedEtag: '"person"' };
  it.each([
    ['moved back to the booked time, a later state than the move', agrees, back, waiting, true],
    [
      'moved back to the time we last wrote (the booking service moved it since)',
      { kind: 'none', reason: 'other-edit' } as ReverseAction,
      back,
      waiting,
      true,
    ],
    ['the very state the move was decided on', agrees, { ...back, etag: '"person"' }, waiting, false],
    [
      'moved again, elsewhere: a new move supersedes it instead',
      { kind: 'reschedule', start: T1 + H, end: T1 + 2 * H, fromStart: T0 } as ReverseAction,
      back,
      waiting,
      false,
    ],
    ['an echo of our own write', { kind: 'none', reason: 'echo' } as ReverseAction, back, waiting, false],
    ['another event of the appointment (another calendar)', agrees, { ...back, id: 'other12345' }, waiting, false],
    ['no move waiting', agrees, back, undefined, false],
  ] as const)('%s', (_name, action, event, w, expected) => {
    expect(withdrawsMove(action, event, w)).toBe(expected);
  });
});
