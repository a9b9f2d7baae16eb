// One resource per appointment on a real Radicale: created only when absent, changed and deleted
// only in the version we know; every 412 comes back as an answer the writer can act on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CalDavError } from '../../src/caldav/errors.ts';
import { readEvent } from '../../src/caldav/event-reader.ts';
import type { CalDavApi } from '../../src/caldav/port.ts';
import { CalendarApp } from './calendar-app.ts';
import { startRadicale, type Radicale } from './radicale.ts';
import { adapter, objectFor, PASSWORD, USER } from './setup.ts';

const ZONE = 'America/Sao_Paulo';
const T = Date.UTC(2026, 5, 15, 13, 0);

let server: Radicale;
let dav: CalDavApi;
let app: CalendarApp;
let cal: string;

beforeAll(async () => {
  server = await startRadicale();
  app = new CalendarApp(server.url, USER, PASSWORD);
  cal = await app.makeCalendar('/alice/clinic/', 'Clinic');
  dav = adapter(server.url);
});
afterAll(() => server?.stop());

const filesOnServer = () => readdirSync(join(server.storage, 'collection-root', 'alice', 'clinic')).filter((f) => f.endsWith('.ics'));

describe('create', () => {
  it('creates {key}.ics with If-None-Match: * and returns its ETag; a second create is told it exists and writes nothing', async () => {
    const { ics } = objectFor('k-create', T);
    const first = await dav.put(cal, 'k-create', ics, { kind: 'create' });
    expect(first).toEqual({ kind: 'written', etag: expect.stringMatching(/^".+"$/) });
    const other = objectFor('k-create', T + 3_600_000).ics;
    expect(await dav.put(cal, 'k-create', other, { kind: 'create' })).toEqual({ kind: 'exists' });
    const stored = await dav.get(cal, 'k-create');
    expect(stored).toMatchObject({ kind: 'found', etag: first.kind === 'written' ? first.etag : '' });
    expect(stored.kind === 'found' && readEvent(stored.ics, ZONE).start).toBe(T);
    expect(filesOnServer()).toContain('k-create.ics');
  });

  it('names the resource after keys with spaces, @ and non-ASCII letters and reads them back by the same key', async () => {
    const key = 'José 12@clinic';
    expect((await dav.put(cal, key, objectFor(key, T).ics, { kind: 'create' })).kind).toBe('written');
    const got = await dav.get(cal, key);
    expect(got.kind === 'found' && readEvent(got.ics, ZONE).key).toBe(key);
    expect((await dav.listEtags(cal)).map((r) => r.key)).toContain(key);
  });

  it('refuses a key that would address another resource before sending anything', async () => {
    for (const key of ['../alice/other', 'a/b', '..', '']) {
      const e = await dav.put(cal, key, 'x', { kind: 'create' }).catch((err: unknown) => err);
      expect(e).toBeInstanceOf(CalDavError);
      expect((e as CalDavError).kind).toBe('invalid');
    }
    expect(filesOnServer().some((f) => f.includes('other') || f === 'b.ics')).toBe(false);
  });
});

describe('update', () => {
  it('changes the object with If-Match on its ETag and gets a new ETag', async () => {
    const created = await dav.put(cal, 'k-update', objectFor('k-update', T).ics, { kind: 'create' });
    if (created.kind !== 'written' || !created.etag) throw new Error('not created');
    const moved = await dav.put(cal, 'k-update', objectFor('k-update', T + 7_200_000, {}, 2).ics, { kind: 'update', etag: created.etag });
    expect(moved.kind).toBe('written');
    expect(moved.kind === 'written' && moved.etag).not.toBe(created.etag);
    const got = await dav.get(cal, 'k-update');
    expect(got.kind === 'found' && readEvent(got.ics, ZONE)).toMatchObject({ start: T + 7_200_000, sequence: 2 });
  });

  it('is told "changed remotely" when a calendar app saved the object since, and leaves the app\'s version alone', async () => {
    const created = await dav.put(cal, 'k-stale', objectFor('k-stale', T).ics, { kind: 'create' });
    if (created.kind !== 'written' || !created.etag) throw new Error('not created');
    const url = new URL('k-stale.ics', cal).href;
    const byApp = objectFor('k-stale', T + 86_400_000).ics;
    expect([200, 201, 204]).toContain((await app.save(url, byApp, created.etag)).status);
    const ours = await dav.put(cal, 'k-stale', objectFor('k-stale', T + 3_600_000, {}, 2).ics, { kind: 'update', etag: created.etag });
    expect(ours).toEqual({ kind: 'changed_remotely' });
    const got = await dav.get(cal, 'k-stale');
    expect(got.kind === 'found' && readEvent(got.ics, ZONE).start).toBe(T + 86_400_000);
  });

  it('is told "changed remotely" when the object was deleted since (If-Match on nothing)', async () => {
    const created = await dav.put(cal, 'k-gone', objectFor('k-gone', T).ics, { kind: 'create' });
    if (created.kind !== 'written' || !created.etag) throw new Error('not created');
    await app.delete(new URL('k-gone.ics', cal).href);
    expect(await dav.put(cal, 'k-gone', objectFor('k-gone', T).ics, { kind: 'update', etag: created.etag })).toEqual({
      kind: 'changed_remotely',
    });
    expect(await dav.get(cal, 'k-gone')).toEqual({ kind: 'not_found' });
  });
});

describe('delete', () => {
  it('deletes with If-Match on the current ETag; a stale ETag is told "changed remotely" and deletes nothing', async () => {
    const created = await dav.put(cal, 'k-del', objectFor('k-del', T).ics, { kind: 'create' });
    if (created.kind !== 'written' || !created.etag) throw new Error('not created');
    const saved = await app.save(new URL('k-del.ics', cal).href, objectFor('k-del', T + 60_000).ics, created.etag);
    expect(await dav.remove(cal, 'k-del', created.etag)).toEqual({ kind: 'changed_remotely' });
    expect((await dav.get(cal, 'k-del')).kind).toBe('found');
    expect(await dav.remove(cal, 'k-del', saved.etag!)).toEqual({ kind: 'removed' });
    expect(await dav.get(cal, 'k-del')).toEqual({ kind: 'not_found' });
    expect(filesOnServer()).not.toContain('k-del.ics');
  });

  it('reports an object that is already gone as not found', async () => {
    expect(await dav.remove(cal, 'never-there', '"x"')).toEqual({ kind: 'not_found' });
  });
});
