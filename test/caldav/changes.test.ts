// Reading what changed on a real Radicale: sync-collection from a stored token sees exactly what
// another client did since, an expired token says so, and multiget reads the changed objects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { readEvent } from '../../src/caldav/event-reader.ts';
import type { CalDavApi } from '../../src/caldav/port.ts';
import { CalendarApp } from './calendar-app.ts';
import { startRadicale, type Radicale } from './radicale.ts';
import { adapter, objectFor, PASSWORD, USER } from './setup.ts';

const ZONE = 'America/Sao_Paulo';
const T = Date.UTC(2026, 6, 1, 12, 0);

let server: Radicale;
let dav: CalDavApi;
let app: CalendarApp;

beforeAll(async () => {
  server = await startRadicale();
  app = new CalendarApp(server.url, USER, PASSWORD);
  dav = adapter(server.url);
});
afterAll(() => server?.stop());

/** A fresh calendar with `keys` written through the adapter; their ETags by key. */
async function calendarWith(name: string, keys: string[]): Promise<{ cal: string; etags: Map<string, string> }> {
  const cal = await app.makeCalendar(`/alice/${name}/`, name);
  const etags = new Map<string, string>();
  for (const [i, key] of keys.entries()) {
    const r = await dav.put(cal, key, objectFor(key, T + i * 3_600_000).ics, { kind: 'create' });
    if (r.kind !== 'written' || !r.etag) throw new Error(`${key} not written`);
    etags.set(key, r.etag);
  }
  return { cal, etags };
}

describe('sync-collection', () => {
  it('without a token lists every member with its ETag and hands out a token', async () => {
    const { cal, etags } = await calendarWith('initial', ['a', 'b', 'c']);
    const first = await dav.changesSince(cal, null);
    if (first.kind !== 'changes') throw new Error(first.kind);
    expect(first.changed.map((c) => [c.key, c.etag]).sort()).toEqual([...etags.entries()].sort());
    expect(first.changed.every((c) => c.href.startsWith(cal))).toBe(true);
    expect(first.removed).toEqual([]);
    expect(first.token).toMatch(/\S/);
  });

  it('from a stored token returns exactly the event another client moved, and the one it deleted', async () => {
    const { cal, etags } = await calendarWith('moves', ['m1', 'm2', 'm3']);
    const start = await dav.changesSince(cal, null);
    if (start.kind !== 'changes') throw new Error(start.kind);

    // The phone saves its edit with the ETag it had, and deletes another event.
    const moved = await app.save(new URL('m2.ics', cal).href, objectFor('m2', T + 86_400_000).ics, etags.get('m2'));
    expect(await app.delete(new URL('m3.ics', cal).href, etags.get('m3'))).toBe(200);

    const next = await dav.changesSince(cal, start.token);
    if (next.kind !== 'changes') throw new Error(next.kind);
    expect(next.changed).toEqual([{ href: new URL('m2.ics', cal).href, key: 'm2', etag: moved.etag }]);
    expect(next.removed).toEqual([{ href: new URL('m3.ics', cal).href, key: 'm3' }]);
    expect(next.token).not.toBe(start.token);

    const quiet = await dav.changesSince(cal, next.token);
    expect(quiet).toEqual({ kind: 'changes', changed: [], removed: [], token: next.token });
  });

  it('says the token expired when the server no longer knows it, so the caller lists everything', async () => {
    const { cal } = await calendarWith('expiry', ['e1']);
    const first = await dav.changesSince(cal, null);
    if (first.kind !== 'changes') throw new Error(first.kind);
    await dav.put(cal, 'e2', objectFor('e2', T).ics, { kind: 'create' });
    // Radicale forgets a token by deleting its file (after max_sync_token_age, 30 days by default).
    const tokens = join(server.storage, 'collection-root', 'alice', 'expiry', '.Radicale.cache', 'sync-token');
    for (const f of readdirSync(tokens)) rmSync(join(tokens, f));
    expect(await dav.changesSince(cal, first.token)).toEqual({ kind: 'token_expired' });
    expect((await dav.listEtags(cal)).map((r) => r.key).sort()).toEqual(['e1', 'e2']);
  });
});

describe('without sync-collection', () => {
  it('lists every member with its ETag, and the CTag changes only when a member does', async () => {
    const { cal, etags } = await calendarWith('listing', ['l1', 'l2']);
    expect((await dav.listEtags(cal)).map((r) => [r.key, r.etag]).sort()).toEqual([...etags.entries()].sort());
    const before = await dav.ctag(cal);
    expect(before).toMatch(/\S/);
    expect(await dav.ctag(cal)).toBe(before);
    await app.save(new URL('l1.ics', cal).href, objectFor('l1', T + 60_000).ics, etags.get('l1'));
    expect(await dav.ctag(cal)).not.toBe(before);
  });

  it('keys members by their resource name; a name that is not {key}.ics has no key, and is still listed', async () => {
    const { cal } = await calendarWith('mixed', ['ours']);
    const phone = objectFor('x', T).ics.replace('x@calbridge', 'B7C1-phone');
    await app.save(new URL('B7C1-phone', cal).href, phone);
    const listed = (await dav.listEtags(cal)).map((r) => [r.href.slice(cal.length), r.key]).sort();
    expect(listed).toEqual([
      ['B7C1-phone', null],
      ['ours.ics', 'ours'],
    ]);
  });
});

describe('multiget', () => {
  it('reads many objects in one request, and names the ones that are gone', async () => {
    const keys = Array.from({ length: 5 }, (_, i) => `g${i}`);
    const { cal } = await calendarWith('multi', keys);
    await app.delete(new URL('g4.ics', cal).href);
    const hrefs = keys.map((k) => new URL(`${k}.ics`, cal).href);
    const calls: string[] = [];
    const { found, missing } = await adapter(server.url, { onCall: (method) => calls.push(method) }).multiget(cal, hrefs);
    expect(calls).toEqual(['REPORT']);
    expect(found.map((f) => f.key).sort()).toEqual(['g0', 'g1', 'g2', 'g3']);
    for (const f of found) expect(readEvent(f.ics, ZONE).start).toBe(T + keys.indexOf(f.key!) * 3_600_000);
    expect(missing).toEqual([hrefs[4]]);
    const etags = await dav.listEtags(cal);
    for (const f of found) expect(f.etag).toBe(etags.find((e) => e.key === f.key)?.etag);
  });
});
