// The calendar target port's contract (src/core/mirror/target.ts), written once and run against
// every adapter's fake or real server, as vdirsyncer's storage tests are: a target passes when the
// mirror core can decide on its answers. An adapter's test file is one line:
//   targetContract(googleSimulatorTarget);
// and a new rule of the port is one more entry of CASES, run against every adapter at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TargetError, type CalendarTarget, type GetResult, type PutResult, type TargetEvent } from '../../src/core/mirror/target.ts';
import { writerOver, type WriterOver } from './writer-over.ts';

const H = 3_600_000;
/** A Monday 12:00 UTC, well inside any window. */
export const T0 = Date.UTC(2026, 9, 19, 12, 0);

/** One adapter as the contract drives it: the port, and what a person does in the calendar. */
export interface TargetUnderTest<B> {
  target: CalendarTarget<B>;
  /** A calendar no other case writes in. */
  calendar(): Promise<string>;
  /** An event id this target accepts for the nth event of a case. */
  id(n: number): string;
  /** Our body for an appointment at [start, end), carrying our content hash. */
  body(key: string, start: number, end: number, hash: string): B;
  /** A person moves the event in the calendar's own app (no version condition). */
  personMoves(calendarId: string, id: string, start: number, end: number): Promise<void>;
  personDeletes(calendarId: string, id: string): Promise<void>;
  /** Whether a deleted event still reads, as a tombstone (Google), rather than missing. */
  keepsTombstones: boolean;
  /**
   * The mode of the first listing (no cursor): `full` unless the target's first listing covers
   * only a window (Graph's delta), where what it lacks must not be taken as deleted.
   */
  firstListing?: 'full' | 'incremental';
  /**
   * Whether a person's version, as a change listing reports it, still carries our content hash
   * (default true). Graph's delta cannot expand extended properties: its adapter knows the hash of
   * the versions it wrote only, and reports a person's version without one.
   */
  changesCarryHash?: boolean;
  /** A calendar id in this target's form that names no calendar (default `no-such-calendar`). */
  missingCalendar?: string;
}

export interface TargetFixture<B> {
  name: string;
  /** Starts the fake or the server (once per file). */
  start(): Promise<TargetUnderTest<B> & { stop(): Promise<void> }>;
}

export interface ContractCase {
  name: string;
  run<B>(t: TargetUnderTest<B>): Promise<void>;
}

function written(r: PutResult): string | null {
  if (r.kind !== 'written') expect.fail(`expected the write to be made, the target answered ${JSON.stringify(r)}`);
  return r.etag;
}
function found(r: GetResult): TargetEvent {
  if (r.kind !== 'found') expect.fail(`expected the event to be found, the target answered ${JSON.stringify(r)}`);
  return r.event;
}

const CASES: ContractCase[] = [
  {
    name: 'a create is made only where no event has the id: a second one answers exists',
    async run(t) {
      const cal = await t.calendar();
      written(await t.target.put(cal, t.id(1), t.body('k1', T0, T0 + H, 'h1'), { kind: 'absent' }));
      expect(await t.target.put(cal, t.id(1), t.body('k1', T0, T0 + H, 'h1'), { kind: 'absent' })).toEqual({ kind: 'exists' });
    },
  },
  {
    name: 'an event reads back in our words: its times, its version, our content hash',
    async run(t) {
      const cal = await t.calendar();
      const etag = written(await t.target.put(cal, t.id(1), t.body('k1', T0, T0 + H, 'h1'), { kind: 'absent' }));
      const event = found(await t.target.get(cal, t.id(1)));
      expect(event).toMatchObject({ id: t.id(1), deleted: false, start: T0, end: T0 + H, ourHash: 'h1' });
      if (etag !== null) expect(event.etag).toBe(etag);
      expect(await t.target.get(cal, t.id(9))).toEqual({ kind: 'missing' });
    },
  },
  {
    name: 'an update writes on the version it knows, and answers changed once a person edited the event',
    async run(t) {
      const cal = await t.calendar();
      const first = written(await t.target.put(cal, t.id(1), t.body('k1', T0, T0 + H, 'h1'), { kind: 'absent' }));
      const now = found(await t.target.get(cal, t.id(1))).etag ?? first!;
      const second = written(await t.target.put(cal, t.id(1), t.body('k1', T0 + H, T0 + 2 * H, 'h2'), { kind: 'etag', etag: now }));
      expect(found(await t.target.get(cal, t.id(1)))).toMatchObject({ start: T0 + H, ourHash: 'h2' });
      await t.personMoves(cal, t.id(1), T0 + 3 * H, T0 + 4 * H);
      expect(await t.target.put(cal, t.id(1), t.body('k1', T0, T0 + H, 'h3'), { kind: 'etag', etag: second ?? now })).toEqual({
        kind: 'changed',
      });
      expect(found(await t.target.get(cal, t.id(1)))).toMatchObject({ start: T0 + 3 * H, end: T0 + 4 * H });
    },
  },
  {
    name: 'a remove takes only the version it knows; without one it removes whatever is there, once',
    async run(t) {
      const cal = await t.calendar();
      const first = written(await t.target.put(cal, t.id(1), t.body('k1', T0, T0 + H, 'h1'), { kind: 'absent' }));
      await t.personMoves(cal, t.id(1), T0 + H, T0 + 2 * H);
      expect(await t.target.remove(cal, t.id(1), first ?? '"stale"')).toEqual({ kind: 'changed' });
      expect(found(await t.target.get(cal, t.id(1))), "the person's version is still there").toMatchObject({
        deleted: false,
        start: T0 + H,
      });
      expect(await t.target.remove(cal, t.id(1), null)).toEqual({ kind: 'removed' });
      expect(await t.target.remove(cal, t.id(1), null)).toEqual({ kind: 'missing' });
      const after = await t.target.get(cal, t.id(1));
      if (t.keepsTombstones) expect(found(after).deleted).toBe(true);
      else expect(after).toEqual({ kind: 'missing' });
    },
  },
  {
    name: 'changes: everything first, then only what a person changed since the cursor, deletions included',
    async run(t) {
      const cal = await t.calendar();
      written(await t.target.put(cal, t.id(1), t.body('k1', T0, T0 + H, 'h1'), { kind: 'absent' }));
      written(await t.target.put(cal, t.id(2), t.body('k2', T0 + H, T0 + 2 * H, 'h2'), { kind: 'absent' }));
      const full = await t.target.changes(cal, null);
      expect(full.mode).toBe(t.firstListing ?? 'full');
      expect(full.events.map((e) => e.id).sort()).toEqual([t.id(1), t.id(2)].sort());
      expect(full.events.every((e) => !e.deleted)).toBe(true);

      const quiet = await t.target.changes(cal, full.cursor);
      expect(quiet).toMatchObject({ mode: 'incremental', events: [] });

      await t.personMoves(cal, t.id(1), T0 + 5 * H, T0 + 6 * H);
      await t.personDeletes(cal, t.id(2));
      const next = await t.target.changes(cal, quiet.cursor);
      expect(next.mode).toBe('incremental');
      const byId = new Map(next.events.map((e) => [e.id, e]));
      expect(byId.get(t.id(1))).toMatchObject({
        deleted: false,
        start: T0 + 5 * H,
        end: T0 + 6 * H,
        ourHash: (t.changesCarryHash ?? true) ? 'h1' : null,
      });
      expect(byId.get(t.id(2))).toMatchObject({ deleted: true });
    },
  },
  {
    // A round that read the deleted event and then failed on another is listed again from the same
    // cursor: its read must not make the deletion unrecognisable the second time (Graph's delta names
    // the event only by its own id, which the adapter maps back to ours).
    name: 'changes: a deletion listed again from the same cursor (a round that failed) is still ours',
    async run(t) {
      const cal = await t.calendar();
      written(await t.target.put(cal, t.id(1), t.body('k1', T0, T0 + H, 'h1'), { kind: 'absent' }));
      const full = await t.target.changes(cal, null);
      await t.personDeletes(cal, t.id(1));
      const first = await t.target.changes(cal, full.cursor);
      expect(first.events.find((e) => e.id === t.id(1))).toMatchObject({ deleted: true });
      const again = await t.target.changes(cal, full.cursor);
      expect(
        again.events.find((e) => e.id === t.id(1)),
        'the deletion, listed as our event again',
      ).toMatchObject({ deleted: true });
    },
  },
  // The writer over the port (core/mirror/write-decide.ts, readsFirst): a write whose answer was lost
  // after the target applied it is read before anything is written again, and what the target shows
  // is taken as it is: no call that changes nothing (a create answered exists, an update on a stale
  // version answered changed, a delete answered missing).
  {
    name: 'the writer: a create whose answer was lost is read and adopted on its retry, not created again',
    async run(t) {
      await withWriter(t, async (w, cal) => {
        w.book(1, T0, T0 + H);
        w.loseNextAnswer('put');
        await w.pass();
        expect(w.link(1)?.attempts, 'the lost answer is a failed attempt').toBe(1);
        await w.pass();
        expect(w.writes(), 'nothing written again: the read shows our event').toEqual([]);
        const shown = found(await t.target.get(cal, t.id(1)));
        expect(shown).toMatchObject({ start: T0, end: T0 + H });
        expect(w.link(1)).toMatchObject({ present: true, attempts: 0, etag: shown.etag });
        await w.pass();
        expect(w.writes(), 'then quiet').toEqual([]);
      });
    },
  },
  {
    name: 'the writer: an update whose answer was lost is read and adopted on its retry, no write on the stale version',
    async run(t) {
      await withWriter(t, async (w, cal) => {
        w.book(1, T0, T0 + H);
        await w.pass();
        w.book(1, T0 + 2 * H, T0 + 3 * H);
        w.loseNextAnswer('put');
        await w.pass();
        expect(w.link(1)?.attempts).toBe(1);
        await w.pass();
        expect(w.writes(), 'nothing written again: the read shows the new times').toEqual([]);
        const shown = found(await t.target.get(cal, t.id(1)));
        expect(shown).toMatchObject({ start: T0 + 2 * H, end: T0 + 3 * H });
        expect(w.link(1)).toMatchObject({ present: true, attempts: 0, etag: shown.etag, writtenStart: T0 + 2 * H });
        await w.pass();
        expect(w.writes(), 'then quiet').toEqual([]);
      });
    },
  },
  {
    name: 'the writer: a delete whose answer was lost is read on its retry and ends there, no second delete',
    async run(t) {
      await withWriter(t, async (w, cal) => {
        w.book(1, T0, T0 + H);
        await w.pass();
        w.book(1, T0, T0 + H, true);
        w.loseNextAnswer('remove');
        await w.pass();
        expect(w.link(1)?.attempts).toBe(1);
        await w.pass();
        expect(w.writes(), 'nothing deleted again: the read shows it gone').toEqual([]);
        const after = await t.target.get(cal, t.id(1));
        if (after.kind === 'found') expect(after.event.deleted).toBe(true);
        expect(w.link(1)).toMatchObject({ present: false, attempts: 0 });
        await w.pass();
        expect(w.writes(), 'then quiet').toEqual([]);
      });
    },
  },
  {
    name: 'the writer: a failed write that never landed is read, then made once',
    async run(t) {
      await withWriter(t, async (w, cal) => {
        w.book(1, T0, T0 + H);
        await w.pass();
        w.book(1, T0 + 2 * H, T0 + 3 * H);
        w.failNext('put');
        await w.pass();
        expect(w.link(1)?.attempts).toBe(1);
        await w.pass();
        expect(w.writes(), 'the read shows the old version: the update is made on it, once').toEqual(['put etag']);
        expect(found(await t.target.get(cal, t.id(1)))).toMatchObject({ start: T0 + 2 * H, ourHash: `h${T0 + 2 * H}-${T0 + 3 * H}` });
      });
    },
  },
  {
    name: 'a calendar that is not there is a not_found failure, never an answer about an event',
    async run(t) {
      const put = t.target.put(t.missingCalendar ?? 'no-such-calendar', t.id(1), t.body('k1', T0, T0 + H, 'h1'), { kind: 'absent' });
      await expect(put).rejects.toBeInstanceOf(TargetError);
      await expect(put).rejects.toMatchObject({ kind: 'not_found' });
    },
  },
];

/** Runs `body` with the writer over this adapter, in a calendar of its own. */
async function withWriter<B>(t: TargetUnderTest<B>, body: (w: WriterOver, calendarId: string) => Promise<void>): Promise<void> {
  const cal = await t.calendar();
  const w = writerOver(t, cal);
  try {
    await body(w, cal);
  } finally {
    w.close();
  }
}

/** Registers every case against one adapter. */
export function targetContract<B>(fixture: TargetFixture<B>, cases: readonly ContractCase[] = CASES): void {
  describe(`the calendar target contract: ${fixture.name}`, () => {
    let t: Awaited<ReturnType<TargetFixture<B>['start']>>;
    beforeAll(async () => {
      t = await fixture.start();
    });
    afterAll(async () => {
      await t?.stop();
    });
    for (const c of cases) it(c.name, () => c.run(t));
  });
}
