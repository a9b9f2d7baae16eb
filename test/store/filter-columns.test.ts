// Feed filters read stored columns, not the record's JSON by the code's field names: the columns
// follow every upsert, and a database from before they existed gets them filled on upgrade.
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/db.ts';
import { AppointmentStore } from '../../src/store/appointment-store.ts';
import { ManualClock } from '../../src/core/clock.ts';
import { testAppointment } from '../helpers/appointment.ts';
import { oldDatabases } from './old-databases.ts';

const databases = oldDatabases('calbridge-columns-');

const booked = testAppointment({
  clientKey: 'client-1',
  person: { personKey: 'p-7', fullName: 'Inês', email: null, phone: null, documentNumber: null },
  services: [
    { serviceKey: 'svc-a', name: 'Cleaning' },
    { serviceKey: 'svc-b', name: null },
  ],
  tagKeys: ['vip'],
  ownerUser: 'ana@example.com',
});

const rowsOf = (store: AppointmentStore) => [...store.filterRows()];
const factsOf = (store: AppointmentStore) => rowsOf(store).map((r) => r.facts);

describe('filter columns', () => {
  it('follow every upsert: created, changed, and revived after being gone', () => {
    const db = openDatabase(databases.file());
    const store = new AppointmentStore(db, new ManualClock());
    store.upsert(booked);
    expect(factsOf(store)).toEqual([
      {
        status: 'CONFIRMED',
        calendarKey: 'cal-a',
        clientKey: 'client-1',
        personKey: 'p-7',
        serviceKeys: ['svc-a', 'svc-b'],
        tagKeys: ['vip'],
        ownerUser: 'ana@example.com',
      },
    ]);
    store.upsert({ ...booked, status: 'CANCELED', tagKeys: [], services: [], clientKey: null });
    expect(factsOf(store)[0]).toMatchObject({ status: 'CANCELED', clientKey: null, serviceKeys: [], tagKeys: [] });
    store.markGone(booked.key, 'not found');
    expect(rowsOf(store)[0]?.gone).toBe(true);
    store.upsert({ ...booked, ownerUser: 'bia@example.com' });
    expect(rowsOf(store)[0]).toMatchObject({
      gone: false,
      revision: 4,
      facts: { ownerUser: 'bia@example.com', serviceKeys: ['svc-a', 'svc-b'] },
    });
    db.close();
  });

  it('are filled from the stored records when a database of schema 7 is upgraded', () => {
    const { db: old, path: file } = databases.atSchema(7);
    const insert = old.prepare(
      `INSERT INTO appointments (appointment_key, status, start_ms, end_ms, calendar_key, data, material_hash, revision, changed_at_ms, seen_at_ms)
       VALUES (?, ?, ?, ?, ?, ?, 'h', 1, 0, 0)`,
    );
    insert.run(booked.key, booked.status, booked.start, booked.end, 'cal-a', JSON.stringify(booked));
    const bare = testAppointment({ key: 'bare-1', calendar: { calendarKey: null, name: null } });
    insert.run(bare.key, bare.status, bare.start, bare.end, null, JSON.stringify(bare));
    old.close();

    const db = openDatabase(file);
    const byKey = new Map(rowsOf(new AppointmentStore(db, new ManualClock())).map((r) => [r.key, r.facts]));
    expect(byKey.get(booked.key)).toEqual({
      status: 'CONFIRMED',
      calendarKey: 'cal-a',
      clientKey: 'client-1',
      personKey: 'p-7',
      serviceKeys: ['svc-a', 'svc-b'],
      tagKeys: ['vip'],
      ownerUser: 'ana@example.com',
    });
    expect(byKey.get('bare-1')).toEqual({
      status: 'CONFIRMED',
      calendarKey: null,
      clientKey: null,
      personKey: 'p-1',
      serviceKeys: [],
      tagKeys: [],
      ownerUser: null,
    });
    db.close();
  });
});
