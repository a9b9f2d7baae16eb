// The writer (src/sync/mirror-writer.ts) over one adapter of the contract, on a real SQLite file:
// what the mirror core decides on that adapter's answers, as serve runs it. A seam between the
// writer and the adapter loses the answer of the next put or remove after the target applied it
// (the connection dropped on the way back), and counts every call the writer makes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../src/core/clock.ts';
import type { Desired } from '../../src/core/mirror/desired-event.ts';
import { TargetError, type CalendarTarget } from '../../src/core/mirror/target.ts';
import { silentLogger } from '../../src/log.ts';
import { AppointmentStore } from '../../src/store/appointment-store.ts';
import { openDatabase } from '../../src/store/db.ts';
import { LinkStore } from '../../src/store/link-store.ts';
import { MirrorWriter } from '../../src/sync/mirror-writer.ts';
import { testAppointment } from '../helpers/appointment.ts';
import type { TargetUnderTest } from './target-contract.ts';

/** Longer than any backoff of a failed write: the retry is due. */
const LATER_MS = 2 * 3_600_000;

export interface WriterOver {
  /** Stores the appointment `k{n}` at [start, end) (cancelled: no event wanted). */
  book(n: number, start: number, end: number, cancelled?: boolean): void;
  /** One writer pass, after enough time for any retry to be due. */
  pass(): Promise<void>;
  /** The next put or remove is applied by the target, and its answer lost. */
  loseNextAnswer(kind: 'put' | 'remove'): void;
  /** The next put or remove fails before it reaches the target (a refused connection). */
  failNext(kind: 'put' | 'remove'): void;
  /** The calls that change something (put, remove) since the last pass began. */
  writes(): string[];
  link(n: number): ReturnType<LinkStore['get']>;
  close(): void;
}

export function writerOver<B>(t: TargetUnderTest<B>, calendarId: string): WriterOver {
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-contract-'));
  const db = openDatabase(join(dir, 'calbridge.db'));
  const clock = new ManualClock();
  const appointments = new AppointmentStore(db, clock);
  const links = new LinkStore(db, clock, 'contract.default');
  const idOf = (key: string) => t.id(Number(key.slice(1)));
  let next: { kind: 'put' | 'remove'; applied: boolean } | null = null;
  let calls: string[] = [];
  /** Makes the call unless it is the one to fail; throws after it when its answer is to be lost. */
  const through = async <R>(kind: 'put' | 'remove', call: () => Promise<R>): Promise<R> => {
    const fault = next?.kind === kind ? next : null;
    if (fault) next = null;
    if (fault && !fault.applied) throw new TargetError('transient', `the ${kind} never reached the target`);
    const r = await call();
    if (fault) throw new TargetError('transient', `the ${kind}'s answer was lost on the way back`);
    return r;
  };
  const seam: CalendarTarget<B> = {
    put(cal, id, body, condition) {
      calls.push(`put ${condition.kind}`);
      return through('put', () => t.target.put(cal, id, body, condition));
    },
    remove(cal, id, etag) {
      calls.push('remove');
      return through('remove', () => t.target.remove(cal, id, etag));
    },
    get: (cal, id) => t.target.get(cal, id),
    changes: (cal, cursor) => t.target.changes(cal, cursor),
  };
  const desire = (a: { key: string; start: number; end: number; status: string }): Desired<B> => {
    if (a.status.startsWith('CANCEL')) return { none: 'cancelled' };
    const hash = `h${a.start}-${a.end}`;
    return {
      calendarId,
      body: t.body(a.key, a.start, a.end, hash),
      hash,
      start: a.start,
      end: a.end,
      looks: { title: a.key, description: '', status: 'confirmed' },
    };
  };
  const writer = new MirrorWriter<B>({
    clock,
    log: silentLogger(),
    appointments,
    links,
    target: () => seam,
    desire,
    idOf,
    breakerShare: 1,
  });
  return {
    book(n, start, end, cancelled = false) {
      appointments.upsert(testAppointment({ key: `k${n}`, start, end, status: cancelled ? 'CANCELED' : 'CONFIRMED' }));
    },
    async pass() {
      clock.advance(LATER_MS);
      calls = [];
      await writer.pass();
    },
    loseNextAnswer(kind) {
      next = { kind, applied: true };
    },
    failNext(kind) {
      next = { kind, applied: false };
    },
    writes: () => [...calls],
    link: (n) => links.get(`k${n}`),
    close() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
