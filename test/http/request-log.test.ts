// One log line per request, naming the route by its pattern: the paths of the webhook and the feeds
// hold their secrets. A client that goes away is not a 500, and its line does not carry the path.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.ts';
import { FEED_TOKEN, WEBHOOK_SECRET, rawClient, startLoggedDaemon, type LogLine } from './logged-daemon.ts';

const NOTIFICATION = JSON.stringify({
  event: 'appointment.created',
  timestamp: '2026-06-15T10:00:00-03:00',
  data: { appointment_key: 'k-1' },
});

const noSecretIn = (text: string) => {
  expect(text).not.toContain(WEBHOOK_SECRET);
  expect(text).not.toContain(FEED_TOKEN);
};

const requestLine = (route: string) => (l: LogLine) => l.msg === 'request' && l.route === route;

describe('request log', () => {
  it('logs each request once, at info, with method, route pattern, status, ms and a request id', async () => {
    const d = await startLoggedDaemon();
    const base = `http://127.0.0.1:${d.port}`;
    expect(
      (
        await fetch(`${base}/webhooks/${WEBHOOK_SECRET}/`, {
          method: 'POST',
          body: NOTIFICATION,
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(200);
    expect((await fetch(`${base}/feeds/${FEED_TOKEN}.ics`)).status).toBe(200);
    expect((await fetch(`${base}/feeds/not-the-token-at-all.ics`)).status).toBe(404);
    expect((await fetch(`${base}/nowhere`)).status).toBe(404);

    const webhook = await d.line(requestLine('/webhooks/:secret/'));
    expect(webhook).toMatchObject({
      level: 'info',
      method: 'POST',
      status: 200,
      request_id: expect.stringMatching(/^[0-9a-f]{6}-[0-9a-z]+$/),
      ms: expect.any(Number),
    });
    expect(
      d
        .lines()
        .filter(requestLine('/feeds/:file'))
        .map((l) => l.status),
    ).toEqual([200, 404]);
    expect(await d.line(requestLine('(no route)'))).toMatchObject({ level: 'info', status: 404 });
    const ids = d
      .lines()
      .filter((l) => l.msg === 'request')
      .map((l) => l.request_id);
    expect(new Set(ids).size).toBe(ids.length);
    noSecretIn(d.text());
  });

  it('logs health probes and scrapes at debug only, so they do not drown the log', async () => {
    const d = await startLoggedDaemon();
    await fetch(`http://127.0.0.1:${d.port}/healthz`);
    await fetch(`http://127.0.0.1:${d.port}/metrics`);
    expect((await d.line(requestLine('/healthz'))).level).toBe('debug');
    expect((await d.line(requestLine('/metrics'))).level).toBe('debug');
  });

  it('logs a feed answered 304 (a calendar app finding nothing new) at debug, and a 200 of the same feed at info', async () => {
    const d = await startLoggedDaemon();
    const feed = `http://127.0.0.1:${d.port}/feeds/${FEED_TOKEN}.ics`;
    const first = await fetch(feed);
    expect(first.status).toBe(200);
    const again = await fetch(feed, { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
    await d.line((l) => requestLine('/feeds/:file')(l) && l.status === 304);
    expect(
      d
        .lines()
        .filter(requestLine('/feeds/:file'))
        .map((l) => [l.status, l.level]),
    ).toEqual([
      [200, 'info'],
      [304, 'debug'],
    ]);
  });

  it('an aborted webhook does not log its secret, nor an error', async () => {
    const d = await startLoggedDaemon();
    const client = await rawClient(d.port);
    client.socket.write(
      `POST /webhooks/${WEBHOOK_SECRET}/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"event":"appointment.cre`,
    );
    await new Promise((r) => setTimeout(r, 100)); // the body has started to arrive
    client.socket.destroy();

    const aborted = await d.line((l) => l.msg === 'request aborted by the client');
    expect(aborted).toMatchObject({ level: 'debug', method: 'POST', route: '/webhooks/:secret/' });
    expect(d.lines().filter((l) => l.level === 'error')).toEqual([]);
    noSecretIn(d.text());
  });

  it('a webhook cut off by the request timeout does not log its secret, nor an error', async () => {
    const d = await startLoggedDaemon({ limits: { headersTimeoutMs: 300, requestTimeoutMs: 600 } });
    const client = await rawClient(d.port);
    client.socket.write(
      `POST /webhooks/${WEBHOOK_SECRET}/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"event":"appointment.cre`,
    );
    // The client keeps the connection open and sends nothing more: the server ends it.
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);

    const aborted = await d.line((l) => l.msg === 'request aborted by the client');
    expect(aborted).toMatchObject({ level: 'debug', route: '/webhooks/:secret/' });
    expect(d.lines().filter((l) => l.level === 'error')).toEqual([]);
    noSecretIn(d.text());
  });

  it('an error in the feed route does not log the feed token; the 500 names its log line', async () => {
    const clock = new ManualClock(Date.now());
    const d = await startLoggedDaemon({ clock });
    const feed = `http://127.0.0.1:${d.port}/feeds/${FEED_TOKEN}.ics`;
    expect((await fetch(feed)).status).toBe(200);
    d.daemon.runtime.services.db.close(); // the database goes away under the running daemon
    clock.advance(5_000); // past the feed cache's look at the database

    const res = await fetch(feed);
    expect(res.status).toBe(500);
    const body = (await res.json()) as { error: string; request_id: string };
    expect(body.error).toBe('internal error');
    const failed = await d.line((l) => l.msg === 'request failed');
    expect(failed).toMatchObject({ level: 'error', method: 'GET', route: '/feeds/:file', status: 500, request_id: body.request_id });
    expect((failed.err as { message: string }).message).toMatch(/database connection is not open/);
    noSecretIn(d.text());
  });
});
