import { describe, expect, it } from 'vitest';
import type { CalendarTarget, TargetEvent } from '../../core/mirror/target.ts';
import { captureTarget } from './capture-target.ts';
import { HeldWrites } from './planned.ts';

type Body = { key: string; title: string; start: number };

const existing: TargetEvent = { id: 'e1', etag: '"1"', deleted: false, start: 1000, end: 2000, ourHash: 'h1' };

/** A target holding one event; any write to it fails the test. */
const real: CalendarTarget<Body> = {
  get: async (_c, id) => (id === 'e1' ? { kind: 'found', event: existing } : { kind: 'missing' }),
  put: () => Promise.reject(new Error('a dry run wrote to the target')),
  remove: () => Promise.reject(new Error('a dry run removed from the target')),
  changes: async () => ({ mode: 'incremental', events: [existing], cursor: 'c1' }),
};

function capture() {
  const held = new HeldWrites();
  const target = captureTarget(
    'google',
    real,
    {
      body: (b) => ({ appointmentKey: b.key, title: b.title, start: b.start, end: b.start + 1000, ourHash: `hash-${b.title}` }),
      keyOf: (_c, id) => (id === 'e1' ? 'k1' : null),
    },
    held,
  );
  return { held, target };
}

const body = (title: string, start = 5000): Body => ({ key: 'k1', title, start });

describe('a target that holds its writes back', () => {
  it('answers a write as the target would: a create over an existing id, an update on an old etag, an update of nothing', async () => {
    const { held, target } = capture();
    expect(await target.put('cal', 'e1', body('A'), { kind: 'absent' })).toEqual({ kind: 'exists' });
    expect(await target.put('cal', 'e1', body('A'), { kind: 'etag', etag: '"0"' })).toEqual({ kind: 'changed' });
    expect(await target.put('cal', 'e9', body('A'), { kind: 'etag', etag: '"1"' })).toEqual({ kind: 'missing' });
    expect(held.writes).toEqual([]);
  });

  it('holds a write and shows its result to later reads and listings, as our own echo', async () => {
    const { held, target } = capture();
    const put = await target.put('cal', 'e1', body('B', 7000), { kind: 'etag', etag: '"1"' });
    expect(put.kind).toBe('written');
    const etag = put.kind === 'written' ? put.etag : null;
    expect(await target.get('cal', 'e1')).toEqual({
      kind: 'found',
      event: { id: 'e1', etag, deleted: false, start: 7000, end: 8000, ourHash: 'hash-B' },
    });
    expect(await target.put('cal', 'e2', body('C'), { kind: 'absent' })).toMatchObject({ kind: 'written' });
    const listed = await target.changes('cal', 'c0');
    expect(listed.events.map((e) => [e.id, e.etag === etag])).toEqual([
      ['e1', true],
      ['e2', false],
    ]);
    expect(held.writes).toEqual([
      {
        kind: 'target',
        target: 'google',
        op: 'update',
        calendarId: 'cal',
        eventId: 'e1',
        appointmentKey: 'k1',
        shows: { title: 'B', start: 7000 },
      },
      {
        kind: 'target',
        target: 'google',
        op: 'create',
        calendarId: 'cal',
        eventId: 'e2',
        appointmentKey: 'k1',
        shows: { title: 'C', start: 5000 },
      },
    ]);
  });

  it('holds a removal, names its appointment, and a second removal finds nothing', async () => {
    const { held, target } = capture();
    expect(await target.remove('cal', 'e1', '"0"')).toEqual({ kind: 'changed' });
    expect(await target.remove('cal', 'e1', '"1"')).toEqual({ kind: 'removed' });
    expect(await target.remove('cal', 'e1', null)).toEqual({ kind: 'missing' });
    expect(held.writes).toEqual([
      { kind: 'target', target: 'google', op: 'delete', calendarId: 'cal', eventId: 'e1', appointmentKey: 'k1', shows: null },
    ]);
  });
});
