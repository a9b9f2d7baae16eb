import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/store/db.ts';
import { AppointmentStore } from '../../src/store/appointment-store.ts';
import { ManualClock } from '../../src/core/clock.ts';
import type { Appointment } from '../../src/core/appointment.ts';
import { testAppointment } from '../helpers/appointment.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-store-'));
  const db = openDatabase(join(dir, 'cb.db'));
  cleanups.push(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const clock = new ManualClock();
  return { store: new AppointmentStore(db, clock), clock };
}

const appointment = (patch: Partial<Appointment> = {}): Appointment =>
  testAppointment({ calendar: { calendarKey: 'cal-1', name: 'Dr. Lúcia' }, searchCode: 'AB12', raw: { any: 'thing' }, ...patch });

describe('appointment store', () => {
  it('bumps the revision only on a material change', () => {
    const { store, clock } = setup();
    const changes: number[] = [];
    store.changes.subscribe(({ revision }) => changes.push(revision));
    expect(store.upsert(appointment())).toEqual({ outcome: 'created', revision: 1 });
    clock.advance(1000);
    expect(store.upsert(appointment({ raw: { other: 'raw' } }))).toEqual({ outcome: 'unchanged', revision: 1 });
    expect(store.get(appointment().key)?.changedAt).toBe(clock.now() - 1000);
    clock.advance(1000);
    expect(store.upsert(appointment({ start: appointment().start + 3_600_000 }))).toEqual({ outcome: 'changed', revision: 2 });
    expect(store.get(appointment().key)?.changedAt).toBe(clock.now());
    expect(changes).toEqual([1, 2]);
  });

  it('stamps every material change a later whole second, even two in one second or with the clock stepping back', () => {
    const { store, clock } = setup();
    const key = appointment().key;
    const second = (ms: number | undefined) => Math.floor((ms ?? 0) / 1000);
    store.upsert(appointment());
    const first = store.get(key)!.changedAt;
    clock.advance(300);
    store.upsert(appointment({ status: 'PENDING' }));
    const next = store.get(key)!.changedAt;
    expect(second(next)).toBe(second(first) + 1);
    clock.advance(-5000);
    store.markGone(key, 'not found');
    expect(second(store.get(key)!.changedAt)).toBe(second(next) + 1);
  });

  it('keeps a gone appointment, and revives it when it comes back', () => {
    const { store } = setup();
    store.upsert(appointment());
    expect(store.markGone(appointment().key, 'not found')).toBe(true);
    expect(store.markGone(appointment().key, 'not found')).toBe(false);
    expect(store.get(appointment().key)).toMatchObject({ revision: 2, goneReason: 'not found' });
    expect(store.listAll()).toHaveLength(0);
    expect(store.listAll({ includeGone: true })).toHaveLength(1);
    expect(store.upsert(appointment())).toEqual({ outcome: 'revived', revision: 3 });
    expect(store.get(appointment().key)?.goneAt).toBeNull();
  });

  it('lists the appointments whose start lies in a window', () => {
    const { store } = setup();
    const base = appointment().start;
    store.upsert(appointment({ key: 'a', start: base }));
    store.upsert(appointment({ key: 'b', start: base + 86_400_000 }));
    store.upsert(appointment({ key: 'c', start: base + 2 * 86_400_000, status: 'CANCELED_CLIENT' }));
    store.upsert(appointment({ key: 'd', start: base + 3 * 86_400_000, status: 'NO_SHOW' }));
    store.upsert(appointment({ key: 'e', start: base + 4 * 86_400_000 }));
    store.markGone('e', 'not found');
    expect(store.listInWindow(base, base + 2 * 86_400_000).map((s) => s.appointment.key)).toEqual(['a', 'b']);
    expect(store.counts()).toEqual({ total: 5, active: 2, done: 1, cancelled: 1, gone: 1 });
  });
});
