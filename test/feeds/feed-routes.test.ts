import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { appointment, rescheduled } from './appointments.ts';
import { checkFeed } from './ics-assert.ts';
import { feedUrls } from '../../src/feeds/feed-urls.ts';
import { feedHarness, TOKEN, type FeedHarness } from './feed-harness.ts';

let h: FeedHarness;
afterEach(() => h?.close());

const URL_ = `/feeds/${TOKEN}.ics`;

async function body(res: Response): Promise<string> {
  return Buffer.from(await res.arrayBuffer()).toString('utf8');
}

describe('GET /feeds/{token}.ics', () => {
  it('answers 404 for an unknown or nearly right token, or another extension', async () => {
    h = feedHarness();
    for (const path of [
      `/feeds/${TOKEN.slice(0, -1)}.ics`,
      `/feeds/${TOKEN}x.ics`,
      `/feeds/${TOKEN}.ical`,
      `/feeds/${TOKEN}`,
      '/feeds/.ics',
    ]) {
      expect((await h.get(path)).status, path).toBe(404);
    }
  });

  it('serves a token with reserved characters at the URL the feeds command prints', async () => {
    const token = 'tok en/with?odd+chars-0123';
    h = feedHarness([{ name: 'Odd', token }]);
    const url = new URL(feedUrls(h.ctx.config)[0]!.https);
    expect((await h.get(url.pathname)).status).toBe(200);
  });

  it('serves the calendar with a strong ETag, Last-Modified and a Cache-Control from refresh_minutes', async () => {
    h = feedHarness([{ name: 'Clinic', token: TOKEN, refresh_minutes: 20 }]);
    h.ctx.appointments.upsert(appointment(1));
    const res = await h.get(URL_);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{64}"$/);
    expect(res.headers.get('last-modified')).toBe(new Date(h.clock.now() - (h.clock.now() % 1000)).toUTCString());
    expect(res.headers.get('cache-control')).toBe('private, max-age=1200');
    const text = await body(res);
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(checkFeed(text).map((e) => e.uid)).toEqual(['apt00001@calbridge']);
  });

  it('is byte-identical when nothing changed, also after a restart, which renders nothing again', async () => {
    h = feedHarness();
    for (let n = 0; n < 20; n++) h.ctx.appointments.upsert(appointment(n));
    const first = await h.get(URL_);
    const text = await body(first);
    checkFeed(text);
    expect(await h.rendered()).toBe(20);
    h.clock.advance(3_600_000);
    const again = await h.get(URL_);
    expect(await body(again)).toBe(text);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    await h.restart();
    const restarted = await h.get(URL_);
    expect(await body(restarted)).toBe(text);
    expect(restarted.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(restarted.headers.get('last-modified')).toBe(first.headers.get('last-modified'));
    expect(await h.rendered()).toBe(0);
  });

  it('after a reschedule SEQUENCE, LAST-MODIFIED, ETag and Last-Modified change, and only that event is rendered', async () => {
    h = feedHarness();
    for (let n = 0; n < 5; n++) h.ctx.appointments.upsert(appointment(n));
    const before = await h.get(URL_);
    const oldEvent = checkFeed(await body(before)).find((e) => e.uid === 'apt00002@calbridge')!;
    h.clock.advance(90_000);
    h.ctx.appointments.upsert(rescheduled(appointment(2), 30 * 60_000));
    const after = await h.get(URL_);
    const events = checkFeed(await body(after));
    const newEvent = events.find((e) => e.uid === 'apt00002@calbridge')!;
    expect(newEvent.sequence).toBeGreaterThan(oldEvent.sequence);
    expect(newEvent.lastModified > oldEvent.lastModified).toBe(true);
    expect(newEvent.start).toBe('2026-06-16T14:30:00Z');
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    expect(Date.parse(after.headers.get('last-modified')!)).toBeGreaterThan(Date.parse(before.headers.get('last-modified')!));
    expect(await h.rendered()).toBe(6);
  });

  it('drops a cancelled appointment, and Last-Modified still grows when an event leaves', async () => {
    h = feedHarness();
    h.ctx.appointments.upsert(appointment(1));
    h.clock.advance(60_000);
    h.ctx.appointments.upsert(appointment(2));
    const before = await h.get(URL_);
    h.clock.advance(60_000);
    h.ctx.appointments.upsert(appointment(2, { status: 'CANCELED' }));
    const after = await h.get(URL_);
    expect(checkFeed(await body(after)).map((e) => e.uid)).toEqual(['apt00001@calbridge']);
    expect(Date.parse(after.headers.get('last-modified')!)).toBeGreaterThan(Date.parse(before.headers.get('last-modified')!));
    // A phone that asks "modified since?" with the old date must get the new body, not 304.
    const conditional = await h.get(URL_, { 'if-modified-since': before.headers.get('last-modified')! });
    expect(conditional.status).toBe(200);
  });

  it('keeps a cancelled appointment as STATUS:CANCELLED with include_cancelled, and drops a gone one', async () => {
    h = feedHarness([{ name: 'Clinic', token: TOKEN, include_cancelled: true }]);
    h.ctx.appointments.upsert(appointment(1, { status: 'CANCELED_CLIENT' }));
    h.ctx.appointments.upsert(appointment(2));
    h.ctx.appointments.upsert(appointment(3));
    await h.get(URL_);
    h.ctx.appointments.markGone('apt00003', 'not found');
    const events = checkFeed(await body(await h.get(URL_)));
    expect(events.map((e) => [e.uid, e.status])).toEqual([
      ['apt00001@calbridge', 'CANCELLED'],
      ['apt00002@calbridge', 'CONFIRMED'],
    ]);
  });

  it('brings a revived appointment back', async () => {
    h = feedHarness();
    h.ctx.appointments.upsert(appointment(1));
    h.ctx.appointments.markGone('apt00001', 'out of scope');
    expect(checkFeed(await body(await h.get(URL_)))).toEqual([]);
    h.clock.advance(1000);
    h.ctx.appointments.upsert(appointment(1));
    expect(checkFeed(await body(await h.get(URL_))).map((e) => e.uid)).toEqual(['apt00001@calbridge']);
  });

  it('keeps up with a poll that changes hundreds of appointments at once', async () => {
    h = feedHarness();
    const many = Array.from({ length: 260 }, (_, n) => appointment(n));
    for (const a of many) h.ctx.appointments.upsert(a);
    expect(checkFeed(await body(await h.get(URL_)))).toHaveLength(260);
    h.clock.advance(60_000);
    for (const a of many) h.ctx.appointments.upsert({ ...a, status: a.key.endsWith('7') ? 'CANCELED' : 'PENDING' });
    const events = checkFeed(await body(await h.get(URL_)));
    expect(events).toHaveLength(234);
    expect(events.every((e) => e.sequence === 2 && e.status === 'TENTATIVE')).toBe(true);
    expect(await h.rendered()).toBe(260 + 234);
  });

  it('shows each feed only what its filters select', async () => {
    h = feedHarness([
      { name: 'A', token: TOKEN, filters: { calendar_key: 'cal-a', tag_keys: ['tag-new', 'tag-vip'] } },
      { name: 'B', token: 'feed-b-token-0123456789', filters: { calendar_key: ['cal-b'] } },
    ]);
    h.ctx.appointments.upsert(appointment(1));
    h.ctx.appointments.upsert(appointment(2, { calendar: { calendarKey: 'cal-b', name: 'B' } }));
    h.ctx.appointments.upsert(appointment(3, { tagKeys: ['tag-other'] }));
    expect(checkFeed(await body(await h.get(URL_))).map((e) => e.uid)).toEqual(['apt00001@calbridge']);
    expect(checkFeed(await body(await h.get('/feeds/feed-b-token-0123456789.ics'))).map((e) => e.uid)).toEqual(['apt00002@calbridge']);
    // Moving an appointment to the other calendar moves it between the feeds.
    h.ctx.appointments.upsert(appointment(1, { calendar: { calendarKey: 'cal-b', name: 'B' } }));
    expect(checkFeed(await body(await h.get(URL_)))).toEqual([]);
    expect(checkFeed(await body(await h.get('/feeds/feed-b-token-0123456789.ics'))).map((e) => e.uid)).toEqual([
      'apt00001@calbridge',
      'apt00002@calbridge',
    ]);
  });
});

describe('conditional requests, HEAD and gzip', () => {
  it('answers 304 to a matching If-None-Match (also weak or in a list) and to an If-Modified-Since not older', async () => {
    h = feedHarness();
    h.ctx.appointments.upsert(appointment(1));
    const first = await h.get(URL_);
    const etag = first.headers.get('etag')!;
    const lastModified = first.headers.get('last-modified')!;
    const cases: Record<string, string>[] = [
      { 'if-none-match': etag },
      { 'if-none-match': `"other", W/${etag}` },
      { 'if-none-match': '*' },
      { 'if-modified-since': lastModified },
      { 'if-modified-since': new Date(Date.parse(lastModified) + 5000).toUTCString() },
    ];
    for (const headers of cases) {
      const res = await h.get(URL_, headers);
      expect(res.status, JSON.stringify(headers)).toBe(304);
      expect(await res.text()).toBe('');
      expect(res.headers.get('etag')).toBe(etag);
    }
  });

  it('answers 200 when the ETag is stale, even if If-Modified-Since says otherwise (If-None-Match wins)', async () => {
    h = feedHarness();
    h.ctx.appointments.upsert(appointment(1));
    const first = await h.get(URL_);
    const res = await h.get(URL_, { 'if-none-match': '"stale"', 'if-modified-since': first.headers.get('last-modified')! });
    expect(res.status).toBe(200);
    expect((await h.get(URL_, { 'if-modified-since': 'not a date' })).status).toBe(200);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    h = feedHarness();
    h.ctx.appointments.upsert(appointment(1));
    const get = await h.get(URL_);
    const size = (await get.arrayBuffer()).byteLength;
    const head = await h.get(URL_, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
    expect(head.headers.get('content-length')).toBe(String(size));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    expect((await h.get(`/feeds/${TOKEN}-no.ics`, {}, 'HEAD')).status).toBe(404);
  });

  it('gzips when asked, with its own ETag, and the gzip ETag gets a 304 too', async () => {
    h = feedHarness();
    for (let n = 0; n < 30; n++) h.ctx.appointments.upsert(appointment(n));
    const plain = await h.get(URL_);
    const plainBody = Buffer.from(await plain.arrayBuffer());
    const zipped = await h.get(URL_, { 'accept-encoding': 'br;q=1, gzip;q=0.8' });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('vary')).toBe('Accept-Encoding');
    const zippedBody = Buffer.from(await zipped.arrayBuffer());
    expect(zippedBody.length).toBeLessThan(plainBody.length / 3);
    expect(gunzipSync(zippedBody).equals(plainBody)).toBe(true);
    const etag = zipped.headers.get('etag')!;
    expect(etag).not.toBe(plain.headers.get('etag'));
    expect((await h.get(URL_, { 'accept-encoding': 'gzip', 'if-none-match': etag })).status).toBe(304);
    expect((await h.get(URL_, { 'accept-encoding': 'gzip;q=0' })).headers.get('content-encoding')).toBeNull();
  });
});
