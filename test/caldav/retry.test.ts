// The adapter's retries, through a proxy that fails requests in front of a real Radicale. Sleeps
// move a manual clock instead of waiting, so backoffs and Retry-After are checked, not sat through.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CalDavError } from '../../src/caldav/errors.ts';
import { readEvent } from '../../src/caldav/event-reader.ts';
import type { CalDavClientOptions } from '../../src/caldav/client.ts';
import { ManualClock } from '../../src/core/clock.ts';
import { Pacer } from '../../src/net/pacer.ts';
import { CalendarApp } from './calendar-app.ts';
import { seeded, startFailingProxy, type FailingProxy, type FailingProxyOptions } from './failing-proxy.ts';
import { startRadicale, type Radicale } from './radicale.ts';
import { adapter, objectFor, PASSWORD, USER } from './setup.ts';

const T = Date.UTC(2026, 7, 3, 12, 0);
let server: Radicale;
let app: CalendarApp;
const proxies: FailingProxy[] = [];

beforeAll(async () => {
  server = await startRadicale();
  app = new CalendarApp(server.url, USER, PASSWORD);
});
afterAll(() => server?.stop());
afterEach(async () => {
  for (const p of proxies.splice(0)) await p.stop();
});

async function proxy(o: Omit<FailingProxyOptions, 'target'>): Promise<FailingProxy> {
  const p = await startFailingProxy({ target: server.url, ...o });
  proxies.push(p);
  return p;
}

/** An adapter whose sleeps advance a manual clock; every retry wait it asked for is in `slept`. */
function pacedAdapter(url: string, over: Partial<CalDavClientOptions> = {}) {
  const clock = new ManualClock();
  const slept: number[] = [];
  const sleep = async (ms: number) => {
    slept.push(ms);
    clock.advance(ms);
  };
  const pacer = new Pacer(6000, clock, async (ms) => clock.advance(ms));
  const dav = adapter(url, { clock, sleep, pacer, random: seeded(7), policy: { retries: 8, baseMs: 500, maxMs: 32_000 }, ...over });
  return { dav, slept, pacer, clock };
}

describe('through injected failures', () => {
  it('writes 60 appointments exactly once through 30% injected 5xx, half of them after the server applied the request', async () => {
    await app.makeCalendar('/alice/flaky/', 'Flaky');
    const p = await proxy({ share: 0.3, seed: 42, when: 'mixed' });
    const { dav, slept } = pacedAdapter(p.url);
    const cal = (await dav.findCalendar('Flaky')).url;
    expect(cal).toBe(new URL('/alice/flaky/', p.url).href);

    const outcomes = new Map<string, string>();
    for (let i = 0; i < 60; i++) {
      const key = `apt-${i}`;
      const result = await dav.put(cal, key, objectFor(key, T + i * 3_600_000).ics, { kind: 'create' });
      // "exists" after a failure that hid an applied create: the writer reads it and finds its own body.
      if (result.kind === 'exists') {
        const read = await dav.get(cal, key);
        expect(read.kind === 'found' && readEvent(read.ics, 'UTC')).toMatchObject({ key, start: T + i * 3_600_000 });
      }
      outcomes.set(key, result.kind);
    }
    expect(p.stats.failedBefore).toBeGreaterThan(5);
    expect(p.stats.failedAfter).toBeGreaterThan(5);
    expect([...outcomes.values()].filter((k) => k === 'exists').length).toBeGreaterThan(0);
    expect([...outcomes.values()].every((k) => k === 'written' || k === 'exists')).toBe(true);
    const files = readdirSync(join(server.storage, 'collection-root', 'alice', 'flaky')).filter((f) => f.endsWith('.ics'));
    expect(files.sort()).toEqual([...outcomes.keys()].map((k) => `${k}.ics`).sort());
    // Full-jitter backoff: each wait within [0.5, 1] of 500 ms x 2^attempt.
    expect(slept.length).toBeGreaterThanOrEqual(p.stats.failedBefore + p.stats.failedAfter);
    expect(slept.every((ms) => ms >= 250 && ms <= 32_000)).toBe(true);
  });

  it('gives up after its retries with a transient error that names the request', async () => {
    const p = await proxy({ share: 1, seed: 1, statuses: [502] });
    const cal = new URL('/alice/flaky/', p.url).href;
    const { dav } = pacedAdapter(p.url, { policy: { retries: 3, baseMs: 500, maxMs: 32_000 } });
    const e = await dav.get(cal, 'apt-1').catch((err: unknown) => err);
    expect(e).toBeInstanceOf(CalDavError);
    expect(e).toMatchObject({ kind: 'transient', status: 502 });
    expect((e as Error).message).toContain('GET /alice/flaky/apt-1.ics');
    expect(p.stats.requests).toBe(4);
  });
});

describe('rate limits', () => {
  it('waits at least the Retry-After of a 429 before trying again', async () => {
    await app.makeCalendar('/alice/limited/', 'Limited');
    const p = await proxy({ share: 0.5, seed: 3, statuses: [429], headers: { 'retry-after': '20' } });
    const cal = new URL('/alice/limited/', p.url).href;
    const { dav, slept } = pacedAdapter(p.url);
    for (let i = 0; i < 6; i++) expect((await dav.put(cal, `r${i}`, objectFor(`r${i}`, T).ics, { kind: 'create' })).kind).toBe('written');
    const failures = p.stats.failedBefore;
    expect(failures).toBeGreaterThan(0);
    expect(slept.filter((ms) => ms >= 20_000).length).toBeGreaterThanOrEqual(failures);
  });

  it('fails at once as rate limited when the server asks for a longer pause than a retry waits, carrying the (clamped) pause and holding the shared pacer', async () => {
    const p = await proxy({ share: 1, seed: 5, statuses: [503], headers: { 'retry-after': '86400' } });
    const { dav, slept, pacer, clock } = pacedAdapter(p.url);
    const e = await dav.calendars().catch((err: unknown) => err);
    expect(e).toMatchObject({ kind: 'rate_limited', status: 503, retryAfterMs: 15 * 60_000 });
    expect(p.stats.requests).toBe(1);
    expect(slept).toEqual([]);
    // The next request to this server, from any caller, waits out the pause first.
    expect(pacer.pausedUntilMs).toBe(clock.now() + 15 * 60_000);
  });
});

describe('no answer at all', () => {
  it('reports a refused connection as transient, after retrying it', async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
    });
    const calls: string[] = [];
    const { dav } = pacedAdapter(`http://127.0.0.1:${closed}/`, {
      policy: { retries: 2, baseMs: 500, maxMs: 32_000 },
      onCall: (_m, outcome) => calls.push(outcome),
    });
    const e = await dav.calendars().catch((err: unknown) => err);
    expect(e).toMatchObject({ kind: 'transient' });
    expect((e as Error).message).toMatch(/no answer from the server/);
    expect(calls).toEqual(['transient', 'transient', 'transient']);
  });

  it('does not retry a refusal that a retry cannot fix (a wrong password)', async () => {
    const calls: string[] = [];
    const { dav } = pacedAdapter(server.url, { password: 'not-it', onCall: (_m, outcome) => calls.push(outcome) });
    await expect(dav.calendars()).rejects.toMatchObject({ kind: 'auth' });
    expect(calls).toEqual(['auth']);
  });
});
