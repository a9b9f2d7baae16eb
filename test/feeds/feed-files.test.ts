// Large feed bodies are files beside the database, streamed to clients: what a subscriber sees must
// not change (the same bytes, ETag, gzip), a restart serves the stored body, a request that began
// before the body was replaced still gets a whole feed, and replaced or orphaned files go away.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/db.ts';
import { AppointmentStore } from '../../src/store/appointment-store.ts';
import { ManualClock } from '../../src/core/clock.ts';
import { appointment } from './appointments.ts';
import { checkFeed } from './ics-assert.ts';
import { feedHarness, OTHER_TOKEN, TOKEN, type FeedHarness } from './feed-harness.ts';
import { buildRuntime } from '../../src/wiring/runtime.ts';
import { silentLogger } from '../../src/log.ts';
import { unreachableBooking } from '../helpers/context.ts';
import { SMALL_BODY } from '../../src/store/feed-body-store.ts';

let h: FeedHarness;
afterEach(() => h?.close());

const URL_ = `/feeds/${TOKEN}.ics`;
// Enough events for a body of about half a megabyte: past what is kept in memory, so it is sent from its file.
const MANY = 1400;

async function bytesOf(res: Response): Promise<Buffer> {
  return Buffer.from(await res.arrayBuffer());
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const bodyFiles = () => (existsSync(h.bodiesDir) ? readdirSync(h.bodiesDir).filter((n) => n.endsWith('.ics')) : []);

function fill(count = MANY): void {
  for (let n = 0; n < count; n++) h.ctx.appointments.upsert(appointment(n));
}

describe('a large feed', () => {
  it('is served whole from its file, with the ETag its bytes hash to, plain and gzipped', async () => {
    h = feedHarness();
    fill();
    const res = await h.get(URL_);
    const body = await bytesOf(res);
    expect(body.length).toBeGreaterThan(SMALL_BODY);
    expect(res.headers.get('content-length')).toBe(String(body.length));
    expect(res.headers.get('etag')).toBe(`"${sha256(body)}"`);
    expect(checkFeed(body.toString('utf8'))).toHaveLength(MANY);
    expect(bodyFiles()).toEqual([expect.stringMatching(new RegExp(`-${sha256(body)}\\.ics$`))]);

    const zipped = await h.get(URL_, { 'accept-encoding': 'gzip' });
    const zippedBody = await bytesOf(zipped);
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('content-length')).toBe(String(zippedBody.length));
    expect(gunzipSync(zippedBody).equals(body)).toBe(true);
    const head = await h.get(URL_, { 'accept-encoding': 'gzip' }, 'HEAD');
    expect(head.headers.get('content-length')).toBe(String(zippedBody.length));
    expect((await h.get(URL_, { 'if-none-match': res.headers.get('etag')! })).status).toBe(304);
  });

  it('after a restart is served from the stored file: the same bytes and headers, nothing rendered or reassembled', async () => {
    h = feedHarness();
    fill();
    const first = await h.get(URL_);
    const body = await bytesOf(first);
    const [file] = bodyFiles();
    await h.restart();
    expect((await h.get(URL_, { 'if-none-match': first.headers.get('etag')! })).status).toBe(304);
    const again = await h.get(URL_);
    expect((await bytesOf(again)).equals(body)).toBe(true);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(again.headers.get('last-modified')).toBe(first.headers.get('last-modified'));
    expect(await h.rendered()).toBe(0);
    expect(bodyFiles()).toEqual([file]);
  });

  it('after a restart shows what another process changed while it was stopped, not the stored body', async () => {
    h = feedHarness();
    fill();
    await bytesOf(await h.get(URL_));
    // A one-shot `sync` cancels one; the daemon asks no feed before it is restarted.
    const other = openDatabase(h.ctx.config.database.path);
    try {
      new AppointmentStore(other, new ManualClock(h.clock.now() + 60_000)).upsert(appointment(5, { status: 'CANCELED' }));
    } finally {
      other.close();
    }
    await h.restart();
    const events = checkFeed((await bytesOf(await h.get(URL_))).toString('utf8'));
    expect(events).toHaveLength(MANY - 1);
    expect(events.find((e) => e.uid === 'apt00005@calbridge')).toBeUndefined();
  });

  it('after a restart with a renamed feed carries the new name', async () => {
    h = feedHarness();
    fill();
    const before = await h.get(URL_);
    await bytesOf(before);
    await h.restart([{ name: 'Clínica nova', token: TOKEN }]);
    const after = await h.get(URL_);
    const text = (await bytesOf(after)).toString('utf8');
    expect(text).toContain('X-WR-CALNAME:Clínica nova\r\n');
    expect(checkFeed(text)).toHaveLength(MANY);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    expect(await h.rendered()).toBe(0); // the events are the same: only the frame changed
  });

  it('reaches a request that began before the body was replaced whole, and the new body the next one', async () => {
    h = feedHarness();
    fill();
    const old = await h.get(URL_); // headers sent, body not yet read
    const oldZipped = await h.get(URL_, { 'accept-encoding': 'gzip' });
    h.clock.advance(60_000);
    h.ctx.appointments.upsert(appointment(3, { status: 'CANCELED' }));
    const fresh = await h.get(URL_);
    const freshBody = await bytesOf(fresh);
    expect(checkFeed(freshBody.toString('utf8'))).toHaveLength(MANY - 1);
    expect(bodyFiles()).toEqual([expect.stringMatching(new RegExp(`-${sha256(freshBody)}\\.ics$`))]); // the old file is gone...

    const oldBody = await bytesOf(old); // ...yet the request that had it open reads it whole
    expect(`"${sha256(oldBody)}"`).toBe(old.headers.get('etag'));
    expect(checkFeed(oldBody.toString('utf8'))).toHaveLength(MANY);
    expect(gunzipSync(await bytesOf(oldZipped)).equals(oldBody)).toBe(true);
  });

  it('a gzip copy asked for while the body is replaced is of the body its headers name', async () => {
    h = feedHarness();
    fill();
    const pending = h.get(URL_, { 'accept-encoding': 'gzip' }); // the copy is being made
    h.clock.advance(60_000);
    h.ctx.appointments.upsert(appointment(3, { status: 'CANCELED' }));
    await bytesOf(await h.get(URL_)); // replaces the body
    const res = await pending;
    const body = gunzipSync(await bytesOf(res));
    expect(res.headers.get('etag')).toBe(`"${sha256(body)}-gzip"`);
  });
});

describe('status from another process', () => {
  it('(`calbridge status` beside serve) counts without touching what serve knows, so serve still sees its own change', async () => {
    h = feedHarness();
    fill(20);
    const before = await h.get(URL_);
    await bytesOf(before);
    h.clock.advance(60_000);
    h.ctx.appointments.upsert(appointment(3, { status: 'CANCELED' })); // noted by serve, not yet asked for
    const other = buildRuntime(h.ctx.config, { log: silentLogger(), clock: h.clock, booking: unreachableBooking, processMetrics: false });
    try {
      expect(JSON.stringify(other.status())).toContain('"events":19');
    } finally {
      await other.close();
    }
    const after = await h.get(URL_);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    expect(checkFeed((await bytesOf(after)).toString('utf8'))).toHaveLength(19);
  });
});

describe('stored bodies on disk', () => {
  it('a start removes bodies no feed uses any more and files left mid-write, and keeps the current one', async () => {
    h = feedHarness([
      { name: 'Clinic', token: TOKEN },
      { name: 'Other', token: OTHER_TOKEN },
    ]);
    fill();
    await bytesOf(await h.get(URL_));
    await bytesOf(await h.get(`/feeds/${OTHER_TOKEN}.ics`));
    expect(bodyFiles()).toHaveLength(2);
    const leftover = join(h.bodiesDir, `${'0'.repeat(32)}.123.4.tmp`);
    const unrelated = join(h.bodiesDir, 'notes.txt');
    writeFileSync(leftover, 'half a feed');
    writeFileSync(unrelated, 'not ours');
    await h.restart([{ name: 'Clinic', token: TOKEN }]);
    await bytesOf(await h.get(URL_));
    expect(existsSync(leftover)).toBe(false);
    expect(existsSync(unrelated)).toBe(true);
    expect(bodyFiles()).toHaveLength(1);
    expect(await h.rendered()).toBe(0);
  });

  it('a stored body that is not whole is assembled again', async () => {
    h = feedHarness();
    fill();
    const first = await h.get(URL_);
    const body = await bytesOf(first);
    const [file] = bodyFiles();
    writeFileSync(join(h.bodiesDir, file!), body.subarray(0, body.length >> 1)); // a power cut mid-write
    await h.restart();
    const again = await bytesOf(await h.get(URL_));
    expect(again.equals(body)).toBe(true);
  });
});
