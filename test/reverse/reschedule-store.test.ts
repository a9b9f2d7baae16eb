// The reverse-sync action store on a real SQLite file: what survives, what supersedes what.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.ts';
import { RescheduleStore, type NewAction } from '../../src/store/reschedule-store.ts';
import { openDatabase } from '../../src/store/db.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { appointment } from '../google/google-env.ts';

let t: TestContext;
let store: RescheduleStore;
const clock = new ManualClock();
const key = appointment(1).key;
const move = (start: number, over: Partial<NewAction> = {}): NewAction => ({
  kind: 'reschedule',
  appointmentKey: key,
  newStart: start,
  newEnd: start + 3_600_000,
  fromStart: 1000,
  observedEtag: `"e${start}"`,
  calendarId: 'primary',
  eventId: 'abcdefabcdef',
  state: 'pending',
  ...over,
});

beforeEach(() => {
  t = createTestContext({ clock });
  t.ctx.appointments.upsert(appointment(1));
  store = new RescheduleStore(t.ctx.db, clock, 'google.default');
});
afterEach(() => t.close());

describe('RescheduleStore', () => {
  it('keeps a pending move across a reopen of the database (a crash loses nothing)', () => {
    store.record(move(5000));
    t.ctx.db.close();
    const db = openDatabase(t.ctx.config.database.path);
    try {
      expect(new RescheduleStore(db, clock, 'google.default').due().map((r) => [r.state, r.newStart])).toEqual([['pending', 5000]]);
    } finally {
      db.close();
    }
  });

  it('a newer move supersedes a pending one; settling a superseded row changes nothing', () => {
    const first = store.record(move(5000));
    const second = store.record(move(9000));
    expect(store.due().map((r) => r.id)).toEqual([second.id]);
    expect(store.finish(first.id, 'done', 'rescheduled')).toBe(false);
    expect(store.get(first.id)?.state).toBe('superseded');
    expect(store.earlierTargets(key, second.id)).toEqual([5000]);
    expect(store.latest(key)?.observedEtag).toBe('"e9000"');
  });

  it('waits out a retry and keeps the last error for status', () => {
    const row = store.record(move(5000));
    store.retryLater(row.id, clock.now() + 60_000, 'the booking service did not answer');
    expect(store.due()).toHaveLength(0);
    expect(store.recentProblems()[0]).toMatchObject({ id: row.id, lastError: 'the booking service did not answer', attempts: 1 });
    clock.advance(60_000);
    expect(store.due().map((r) => r.id)).toEqual([row.id]);
  });

  it('counts what came of each action', () => {
    const a = store.record(move(5000));
    store.finish(a.id, 'done', 'rescheduled');
    const b = store.record(move(7000));
    store.finish(b.id, 'reverted', 'conflict', 'the new time overlaps AG1');
    const c = store.record(move(8000));
    store.finish(c.id, 'reverted', 'refused', 'No.');
    store.record(move(0, { kind: 'recreate', state: 'done', reason: 'policy' }));
    store.record(move(9000));
    expect(store.counts()).toMatchObject({
      movesDetected: 4,
      rescheduled: 1,
      reverted: 2,
      conflicts: 1,
      refused: 1,
      pending: 1,
      recreated: 1,
    });
    expect(store.lastRescheduledTo(key)).toBe(5000);
  });
});
