// The calendar target port over CalDAV, against a real Radicale: conditional writes answer in the
// port's words, and changes() reads a person's edits both with sync-collection and, for servers
// without it, by comparing ETag listings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCalDavTarget } from '../../src/caldav/caldav-target.ts';
import { renderCalendarObject } from '../../src/caldav/event-body.ts';
import type { CalDavApi } from '../../src/caldav/port.ts';
import type { CalendarTarget } from '../../src/core/mirror/target.ts';
import { testAppointment } from '../helpers/appointment.ts';
import { CalendarApp } from './calendar-app.ts';
import { startRadicale, type Radicale } from './radicale.ts';
import { adapter, PASSWORD, TEMPLATES, USER } from './setup.ts';

const ZONE = 'America/Sao_Paulo';
const T = Date.UTC(2026, 9, 20, 12, 0);
const H = 3_600_000;

let server: Radicale;
let app: CalendarApp;
beforeAll(async () => {
  server = await startRadicale();
  app = new CalendarApp(server.url, USER, PASSWORD);
});
afterAll(async () => {
  await server?.stop();
});

const body = (key: string, start: number, hash = 'h1') => {
  const appointment = testAppointment({ key, start, end: start + H });
  return renderCalendarObject({ appointment, revision: 1, changedAt: T - 86_400_000 }, TEMPLATES, hash);
};

/** The target as for a server without sync-collection: every round compares ETag listings. */
function withoutSync(api: CalDavApi): CalDavApi {
  return { ...api, findCalendar: async (spec) => ({ ...(await api.findCalendar(spec)), supportsSync: false }) };
}

async function calendar(name: string): Promise<string> {
  await app.makeCalendar(`/${USER}/${name.toLowerCase()}/`, name);
  return name;
}

describe('the CalDAV calendar target', () => {
  let target: CalendarTarget<string>;
  beforeAll(() => {
    target = createCalDavTarget({ api: adapter(server.url), zone: ZONE });
  });

  it('creates only when absent, updates and removes only the version it knows', async () => {
    const cal = await calendar('Writes');
    const first = await target.put(cal, 'k1', body('k1', T), { kind: 'absent' });
    expect(first).toMatchObject({ kind: 'written', etag: expect.any(String) });
    expect(await target.put(cal, 'k1', body('k1', T), { kind: 'absent' })).toEqual({ kind: 'exists' });
    const etag = (first as { etag: string }).etag;
    const second = await target.put(cal, 'k1', body('k1', T + H, 'h2'), { kind: 'etag', etag });
    expect(second.kind).toBe('written');
    expect(await target.put(cal, 'k1', body('k1', T), { kind: 'etag', etag })).toEqual({ kind: 'changed' });
    expect(await target.remove(cal, 'k1', etag)).toEqual({ kind: 'changed' });

    const read = await target.get(cal, 'k1');
    expect(read).toMatchObject({ kind: 'found', event: { id: 'k1', start: T + H, end: T + 2 * H, ourHash: 'h2', deleted: false } });
    expect(await target.remove(cal, 'k1', null)).toEqual({ kind: 'removed' });
    expect(await target.get(cal, 'k1')).toEqual({ kind: 'missing' });
    expect(await target.remove(cal, 'k1', null)).toEqual({ kind: 'missing' });
    // An update of what is gone is a 412 on CalDAV: `changed`, and the read that follows finds it missing.
    expect(await target.put(cal, 'k1', body('k1', T), { kind: 'etag', etag })).toEqual({ kind: 'changed' });
  });

  it('names a calendar that does not exist as not_found', async () => {
    await expect(target.put('Nowhere', 'k1', body('k1', T), { kind: 'absent' })).rejects.toMatchObject({
      name: 'TargetError',
      kind: 'not_found',
    });
  });

  for (const mode of ['sync-collection', 'ETag listing'] as const) {
    it(`reads a person's move and deletion with ${mode}`, async () => {
      const cal = await calendar(mode === 'sync-collection' ? 'Synced' : 'Listed');
      const api = adapter(server.url);
      const t = createCalDavTarget({ api: mode === 'sync-collection' ? api : withoutSync(api), zone: ZONE });
      await t.put(cal, 'a', body('a', T), { kind: 'absent' });
      await t.put(cal, 'b', body('b', T + H), { kind: 'absent' });
      const first = await t.changes(cal, null);
      expect(first.mode).toBe('full');
      expect(first.events.map((e) => e.id).sort()).toEqual(['a', 'b']);

      const quiet = await t.changes(cal, first.cursor);
      expect(quiet).toMatchObject({ mode: 'incremental', events: [] });

      const url = new URL(`${USER}/${cal.toLowerCase()}/a.ics`, server.url).href;
      const current = await app.get(url);
      await app.save(url, current.body.replace(/^SUMMARY:.*$/m, 'SUMMARY:Edited'), current.etag!);
      await app.delete(new URL(`${USER}/${cal.toLowerCase()}/b.ics`, server.url).href);
      const changed = await t.changes(cal, quiet.cursor);
      expect(changed.mode).toBe('incremental');
      const byId = new Map(changed.events.map((e) => [e.id, e]));
      expect(byId.get('a')).toMatchObject({ deleted: false, start: T, ourHash: 'h1' });
      expect(byId.get('a')?.etag).not.toBe(current.etag);
      expect(byId.get('b')).toMatchObject({ deleted: true });
      expect(changed.events).toHaveLength(2);
    });
  }
});
