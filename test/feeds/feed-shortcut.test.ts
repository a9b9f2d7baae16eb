// The feeds' 304, answered by the HTTP server before the app (src/http/feed-routes.ts, the
// shortcut): over a real socket, each conditional request gets what the app itself answers, with
// the same count in /metrics, and an unchanged feed's 304 never reaches the app.
import { request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { appointment } from './appointments.ts';
import { feedHarness, TOKEN, type FeedHarness } from './feed-harness.ts';
import { listen, portOf } from '../../src/net/hono-server.ts';

let h: FeedHarness;
let server: Server | undefined;
afterEach(async () => {
  if (server) await new Promise<void>((r) => server!.close(() => r()));
  server = undefined;
  await h?.close();
});

const URL_ = `/feeds/${TOKEN}.ics`;
/** Headers the connection adds, not the answer. */
const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function socketGet(port: number, path: string, headers: Record<string, string>, method: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: answerHeaders(res.headers), body: Buffer.concat(chunks).toString('latin1') }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

function answerHeaders(raw: IncomingHttpHeaders | Headers): Record<string, string> {
  const entries = raw instanceof Headers ? [...raw.entries()] : Object.entries(raw).map(([k, v]) => [k, String(v)] as [string, string]);
  return Object.fromEntries(entries.filter(([k]) => !TRANSPORT.has(k)).sort(([a], [b]) => a.localeCompare(b)));
}

async function notModifiedCount(): Promise<number> {
  const metric = await h.ctx.metrics.registry.getSingleMetric('calbridge_feed_requests_total')?.get();
  return metric?.values.find((v) => v.labels.outcome === 'not_modified')?.value ?? 0;
}

/** Serves the harness's runtime over a socket with its shortcut, counting what reaches the app. */
async function serveWithShortcut(): Promise<{ port: number; appCalls: () => number }> {
  let calls = 0;
  const shortcut = h.runtime.shortcut;
  expect(shortcut).toBeDefined();
  server = await listen(
    (req, env) => {
      calls++;
      return h.runtime.app.fetch(req, env);
    },
    { port: 0, host: '127.0.0.1', shortcut: shortcut! },
  );
  return { port: portOf(server), appCalls: () => calls };
}

describe('the feed 304 answered before the app', () => {
  it('answers every conditional request as the app does, and counts it the same', async () => {
    h = feedHarness();
    for (let n = 0; n < 30; n++) h.ctx.appointments.upsert(appointment(n));
    const { port } = await serveWithShortcut();
    const plain = await h.get(URL_);
    const zipped = await h.get(URL_, { 'accept-encoding': 'gzip' });
    const etag = plain.headers.get('etag')!;
    const gzipEtag = zipped.headers.get('etag')!;
    const lastModified = plain.headers.get('last-modified')!;
    const cases: [string, Record<string, string>, string][] = [
      [URL_, { 'if-none-match': etag }, 'GET'],
      [URL_, { 'if-none-match': `"other", W/${etag}` }, 'GET'],
      [URL_, { 'if-none-match': '*' }, 'GET'],
      [URL_, { 'if-none-match': gzipEtag, 'accept-encoding': 'gzip' }, 'GET'],
      [URL_, { 'if-none-match': etag, 'accept-encoding': 'gzip' }, 'GET'],
      [URL_, { 'if-modified-since': lastModified }, 'GET'],
      [URL_, { 'if-none-match': etag }, 'HEAD'],
      [URL_, { 'if-none-match': '"stale"', 'if-modified-since': lastModified }, 'GET'],
      [URL_, { 'if-modified-since': 'not a date' }, 'GET'],
      [`/feeds/${TOKEN}x.ics`, { 'if-none-match': etag }, 'GET'],
      [`/feeds/${TOKEN.replace('-', '%2D')}.ics`, { 'if-none-match': etag }, 'GET'],
      [`${URL_}?x=1`, { 'if-none-match': etag }, 'GET'],
    ];
    for (const [path, headers, method] of cases) {
      const label = `${method} ${path} ${JSON.stringify(headers)}`;
      const before = await notModifiedCount();
      const app = await h.get(path, headers, method);
      const byApp = {
        status: app.status,
        headers: answerHeaders(app.headers),
        body: Buffer.from(await app.arrayBuffer()).toString('latin1'),
      };
      const counted = (await notModifiedCount()) - before;
      const bySocket = await socketGet(port, path, headers, method);
      // The server frames a body it has whole with its length where the app named none.
      if (!('content-length' in byApp.headers)) delete bySocket.headers['content-length'];
      expect(bySocket, label).toEqual(byApp);
      expect((await notModifiedCount()) - before - counted, label).toBe(counted);
    }
  });

  it("answers an unchanged feed's 304 without the app, and a changed feed's 200 through it", async () => {
    h = feedHarness();
    h.ctx.appointments.upsert(appointment(1));
    const { port, appCalls } = await serveWithShortcut();
    const first = await socketGet(port, URL_, {}, 'GET');
    expect(first.status).toBe(200);
    const etag = first.headers.etag!;
    const calls = appCalls();
    for (let i = 0; i < 5; i++) expect((await socketGet(port, URL_, { 'if-none-match': etag }, 'GET')).status).toBe(304);
    expect(appCalls()).toBe(calls);
    h.clock.advance(60_000);
    h.ctx.appointments.upsert(appointment(2));
    const changed = await socketGet(port, URL_, { 'if-none-match': etag }, 'GET');
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.body).toContain('apt00002@calbridge');
    expect(appCalls()).toBe(calls + 1);
  });
});
