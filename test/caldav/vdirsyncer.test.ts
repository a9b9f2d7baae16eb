// A second, independent CalDAV client: after the adapter writes, moves and deletes events in a
// Radicale calendar, vdirsyncer (Debian package `vdirsyncer`) syncs that calendar to a folder and
// finds exactly the events we left, with the booking service's times.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CalendarApp } from './calendar-app.ts';
import { startRadicale, type Radicale } from './radicale.ts';
import { syncedByVdirsyncer } from './vdirsyncer.ts';
import { adapter, objectFor, PASSWORD, USER } from './setup.ts';

const ZONE = 'America/Sao_Paulo';
const T = Date.UTC(2026, 9, 20, 12, 0);

let server: Radicale;
beforeAll(async () => {
  server = await startRadicale();
});
afterAll(async () => {
  await server?.stop();
});

describe('vdirsyncer as a second client', () => {
  it("sees exactly the events the adapter left in the calendar, at the booking service's times", async () => {
    const cal = await new CalendarApp(server.url, USER, PASSWORD).makeCalendar('/alice/clinic/', 'Clinic');
    const dav = adapter(server.url);

    const expected = new Map<string, { start: number; end: number }>();
    const etags = new Map<string, string>();
    for (let i = 0; i < 10; i++) {
      const key = `apt-${i}`;
      const { appointment, ics } = objectFor(key, T + i * 5_400_000);
      const r = await dav.put(cal, key, ics, { kind: 'create' });
      if (r.kind !== 'written' || !r.etag) throw new Error(`${key}: ${r.kind}`);
      etags.set(key, r.etag);
      expected.set(key, { start: appointment.start, end: appointment.end });
    }
    // A reschedule across the night and a cancellation, as the writer will make them.
    const moved = objectFor('apt-3', T + 30 * 3_600_000, {}, 2);
    expect((await dav.put(cal, 'apt-3', moved.ics, { kind: 'update', etag: etags.get('apt-3')! })).kind).toBe('written');
    expected.set('apt-3', { start: moved.appointment.start, end: moved.appointment.end });
    expect(await dav.remove(cal, 'apt-7', etags.get('apt-7')!)).toEqual({ kind: 'removed' });
    expected.delete('apt-7');

    const synced = await syncedByVdirsyncer({
      serverUrl: server.url,
      username: USER,
      password: PASSWORD,
      collection: 'clinic',
      zone: ZONE,
    });
    const seen = new Map(synced.map((e) => [e.key, { start: e.start, end: e.end }] as const));
    expect(synced).toHaveLength(9);
    expect(new Map([...seen].sort())).toEqual(new Map([...expected].sort()));
  });
});
