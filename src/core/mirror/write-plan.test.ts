import { describe, expect, it } from 'vitest';
import { notesRevision, planWrite } from './write-plan.ts';
import type { LinkState } from './link.ts';

const desired = { calendarId: 'primary', hash: 'h1' };
const link = (over: Partial<LinkState & { attempts: number }> = {}): LinkState & { attempts: number } => ({
  calendarId: 'primary',
  eventId: 'evt00001',
  generation: 0,
  present: true,
  writtenHash: desired.hash,
  etag: '"1"',
  writtenStart: 0,
  writtenEnd: 0,
  deferral: null,
  updatedAt: 0,
  writeInFlight: false,
  attempts: 0,
  ...over,
});

describe('planWrite', () => {
  it.each<[string, typeof desired | null, ReturnType<typeof link> | undefined, string]>([
    ['new appointment', desired, undefined, 'insert'],
    ['deleted before, wanted again', desired, link({ present: false }), 'insert'],
    ['unchanged', desired, link(), 'none'],
    ['changed', desired, link({ writtenHash: 'old' }), 'update'],
    ['moved to another calendar', desired, link({ calendarId: 'b@group' }), 'move'],
    ['cancelled while mirrored', null, link(), 'delete'],
    ['cancelled, never mirrored', null, undefined, 'none'],
    ['cancelled, already deleted', null, link({ present: false }), 'none'],
  ])('%s => %s', (_name, d, l, kind) => {
    expect(planWrite('k-1', d, l).kind).toBe(kind);
  });

  it('inserts with the recorded id generation', () => {
    const a = planWrite('k-1', desired, link({ present: false, generation: 2 }));
    expect(a).toMatchObject({ kind: 'insert', generation: 2 });
    const b = planWrite('k-1', desired, undefined);
    expect(a.kind === 'insert' && b.kind === 'insert' && a.eventId !== b.eventId).toBe(true);
  });

  it('updates with the stored etag', () => {
    expect(planWrite('k-1', desired, link({ writtenHash: 'x', etag: '"9"' }))).toMatchObject({ kind: 'update', etag: '"9"' });
  });
});

describe('notesRevision (nothing to write)', () => {
  it.each([
    ['written for this revision, no failure: nothing to note', { writtenRevision: 3, lastError: null }, false],
    ['a revision the target does not show: noted, so it is not planned again', { writtenRevision: 2, lastError: null }, true],
    ['an old failure no longer needed: cleared from status', { writtenRevision: 3, lastError: 'Google answered 403' }, true],
    ['no link at all: nothing to note', undefined, false],
  ] as const)('%s', (_name, l, expected) => {
    expect(notesRevision(l, 3)).toBe(expected);
  });
});
