// Migration 022: each Google push channel belongs to an account. Channels stored before it are the
// account `default`'s; afterwards each account's store sees only its own channels, while a lookup
// by id (the one notification route) finds any, with its account. SQL here seeds the old schema only.
import { expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.ts';
import { ChannelStore } from '../../src/store/channel-store.ts';
import { migrate } from '../../src/store/db.ts';
import { oldDatabases } from './old-databases.ts';

const databases = oldDatabases('calbridge-channels-');

it("keeps the channels opened before accounts as the default account's, and keeps accounts' channels apart", () => {
  const { db } = databases.atSchema(21);
  const clock = new ManualClock(10_000);
  db.prepare(
    `INSERT INTO google_channels (id, calendar_id, resource_id, token, address, expiration_ms, state, created_at_ms, updated_at_ms)
     VALUES ('old', 'primary', 'r1', 'tok', 'https://x/google/notifications', 99999999, 'active', 1, 1)`,
  ).run();
  migrate(db);

  const main = new ChannelStore(db, clock);
  const ana = new ChannelStore(db, clock, 'google.ana');
  expect(main.live().map((c) => [c.id, c.account])).toEqual([['old', 'google.default']]);
  expect(main.activeCount()).toBe(1);
  expect(ana.live()).toEqual([]);

  ana.opening({ id: 'new', calendarId: 'primary', token: 'tok-ana', address: 'https://x/google/notifications', expiration: 99999999 });
  ana.activate('new', 'r2', 99999999);
  expect(ana.live().map((c) => c.id)).toEqual(['new']);
  expect(ana.activeCount()).toBe(1);
  expect(main.live().map((c) => c.id)).toEqual(['old']);
  // Looked up by id, a channel says whose it is.
  expect(main.get('new')?.account).toBe('google.ana');
  db.close();
});
