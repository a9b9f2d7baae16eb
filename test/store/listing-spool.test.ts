// The poll's listing held aside on disk: which stored appointments of the window it did not name
// (the ones to re-read, and what the breaker weighs), found in SQL against the keys it listed.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/store/db.ts';
import { AppointmentStore } from '../../src/store/appointment-store.ts';
import { ManualClock } from '../../src/core/clock.ts';
import { isCancelled } from '../../src/core/appointment.ts';
import { testAppointment } from '../helpers/appointment.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function storeWith(): AppointmentStore {
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-spool-'));
  const db = openDatabase(join(dir, 'cb.db'));
  cleanups.push(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return new AppointmentStore(db, new ManualClock());
}

const HOUR = 3_600_000;
const DAY0 = Date.UTC(2026, 5, 15);
const at = (key: string, start: number, status = 'CONFIRMED') => testAppointment({ key, start, end: start + HOUR, status });
const listed = (key: string) => ({ key, hash: `hash-${key}`, text: JSON.stringify({ id: key }) });

describe('the listing spool', () => {
  it('names the stored appointments of the window the listing missed, and counts the active ones', () => {
    const store = storeWith();
    store.upsert(at('listed', DAY0 + HOUR));
    store.upsert(at('missed', DAY0 + 2 * HOUR));
    store.upsert(at('missed-cancelled', DAY0 + 3 * HOUR, 'CANCELLED_BY_CLIENT'));
    store.upsert(at('gone', DAY0 + 4 * HOUR));
    store.markGone('gone', 'not found');
    store.upsert(at('later', DAY0 + 10 * 24 * HOUR));

    const spool = store.listingSpool();
    spool.add([listed('listed'), listed('new-one')], new Set());
    spool.add([listed('listed')], new Set()); // listed twice across pages: still one

    const { active, unlisted } = spool.unlistedInWindow(DAY0, DAY0 + 24 * HOUR, isCancelled);
    // Active in the window: listed and missed (the cancelled one is not weighed, the gone one is not stored, the later one is outside).
    expect(active).toBe(2);
    expect(unlisted.sort((a, b) => a.key.localeCompare(b.key))).toEqual([
      { key: 'missed', status: 'CONFIRMED' },
      { key: 'missed-cancelled', status: 'CANCELLED_BY_CLIENT' },
    ]);
    expect(['listed', 'new-one', 'missed', 'later'].map((k) => spool.listed(k))).toEqual([true, true, false, false]);
    expect(spool.count).toBe(3);
  });

  it('forgets the listing when closed, so the next pass starts from nothing', () => {
    const store = storeWith();
    store.upsert(at('a', DAY0 + HOUR));
    const spool = store.listingSpool();
    spool.add([listed('a')], new Set());
    expect(spool.unlistedInWindow(DAY0, DAY0 + 24 * HOUR, isCancelled).unlisted).toEqual([]);
    spool.close();
    expect(spool.listed('a')).toBe(false);
    expect(spool.unlistedInWindow(DAY0, DAY0 + 24 * HOUR, isCancelled).unlisted).toEqual([{ key: 'a', status: 'CONFIRMED' }]);
  });
});
