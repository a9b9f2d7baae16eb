// Slow senders are cut off within the server's bounds, and connections past the caps are refused, over
// real sockets. Some bounds are shortened for the test (serve's are in src/http/server-limits.ts).
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { FEED_TOKEN, WEBHOOK_SECRET, rawClient, startLoggedDaemon, type RawClient } from './logged-daemon.ts';

/** Writes `piece` every `everyMs` until the connection closes or `forMs` have passed. */
function dribble(client: RawClient, piece: string, everyMs: number, forMs: number): void {
  const started = Date.now();
  const timer = setInterval(() => {
    if (client.socket.destroyed || Date.now() - started > forMs) return clearInterval(timer);
    client.socket.write(piece);
  }, everyMs);
  void client.closed.then(() => clearInterval(timer));
}

describe('slow senders', () => {
  it('a client that sends its headers a line at a time is cut off at the headers timeout', async () => {
    const d = await startLoggedDaemon({ limits: { headersTimeoutMs: 300, requestTimeoutMs: 2000 } });
    const client = await rawClient(d.port);
    client.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    dribble(client, 'X-Slow: a\r\n', 50, 20_000); // headers that would go on for 20 s

    const after = await client.closed;
    expect(after).toBeLessThan(3000);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('a client that sends its body a byte at a time is cut off at the request timeout, and nothing is stored', async () => {
    const d = await startLoggedDaemon({ limits: { headersTimeoutMs: 300, requestTimeoutMs: 700 } });
    const client = await rawClient(d.port);
    client.socket.write(
      `POST /webhooks/${WEBHOOK_SECRET}/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`,
    );
    dribble(client, ' ', 20, 20_000); // a 1,000-byte body at 50 bytes a second

    const after = await client.closed;
    expect(after).toBeLessThan(3000);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(d.daemon.runtime.services.deliveries.counts()).toMatchObject({ pending: 0, failed: 0, done: 0 });
  });

  it('connections past the cap are closed at once, with a warning; the daemon answers again once one ends', async () => {
    const d = await startLoggedDaemon({ limits: { maxConnections: 2 } });
    const held = [await rawClient(d.port), await rawClient(d.port)];
    const third = await rawClient(d.port);
    expect(await third.closed).toBeLessThan(1000);
    expect(held.every((c) => !c.socket.destroyed)).toBe(true);
    expect(await d.line((l) => l.msg.startsWith('connection cap reached'))).toMatchObject({ level: 'warn', max_connections: 2 });

    held[0]!.socket.destroy();
    await held[0]!.closed;
    let answered = 0;
    for (let i = 0; i < 20 && answered !== 200; i++) {
      answered = await fetch(`http://127.0.0.1:${d.port}/healthz`, { headers: { connection: 'close' } }).then(
        (r) => r.status,
        () => 0,
      );
      if (answered !== 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(answered).toBe(200);
    held[1]!.socket.destroy();
  });

  it('a flood of slow connections from one address leaves feeds and webhooks from another answered promptly', async () => {
    // The global cap lowered to 250 so that 300 sockets would hold all of it without a cap per client.
    const d = await startLoggedDaemon({ limits: { maxConnections: 250 } });
    const FLOOD = 300;
    const FLOOD_MS = 4000;
    const REOPEN_AFTER_MS = 100;
    const started = Date.now();
    const open = new Set<Socket>();
    let opened = 0;
    /** One slow client: half a header from 127.0.0.1, opened again (after a pause) each time it is cut. */
    const slow = (): void => {
      if (Date.now() - started > FLOOD_MS) return;
      opened++;
      const socket = connect({ port: d.port, host: '127.0.0.1', localAddress: '127.0.0.1' });
      open.add(socket);
      socket.on('connect', () => socket.write(`GET /feeds/${FEED_TOKEN}.ics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: `));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        open.delete(socket);
        setTimeout(slow, REOPEN_AFTER_MS);
      });
    };
    for (let i = 0; i < FLOOD; i++) slow();

    /** One request from 127.0.0.2 on a connection of its own: its status and how long it took. */
    const ask = (method: 'GET' | 'POST', path: string, body?: string) =>
      new Promise<{ status: number; ms: number }>((resolve) => {
        const t0 = Date.now();
        const req = request(
          {
            host: '127.0.0.1',
            port: d.port,
            localAddress: '127.0.0.2',
            method,
            path,
            agent: false,
            headers: body ? { 'content-type': 'application/json' } : {},
            timeout: 3000,
          },
          (res) => res.resume().on('end', () => resolve({ status: res.statusCode!, ms: Date.now() - t0 })),
        );
        req.on('timeout', () => req.destroy());
        req.on('error', () => resolve({ status: 0, ms: Date.now() - t0 }));
        req.end(body);
      });
    const notification = JSON.stringify({
      event: 'appointment.updated',
      timestamp: new Date().toISOString(),
      data: { appointment_key: 'apt-1' },
    });
    await new Promise((r) => setTimeout(r, 500)); // the flood has taken what it can
    const answers: { status: number; ms: number }[] = [];
    while (Date.now() - started < FLOOD_MS - 500) {
      answers.push(await ask('GET', `/feeds/${FEED_TOKEN}.ics`), await ask('POST', `/webhooks/${WEBHOOK_SECRET}/`, notification));
      await new Promise((r) => setTimeout(r, 100));
    }
    const held = open.size;
    await new Promise((r) => setTimeout(r, FLOOD_MS - (Date.now() - started) + 50));
    for (const socket of open) socket.destroy();

    expect(opened).toBeGreaterThan(FLOOD); // the daemon cut some, and they came back
    expect(held).toBeGreaterThanOrEqual(100); // the flood was holding its share throughout
    // Without the cap per client these were refused at once (status 0); the bound on time leaves room
    // for a busy machine, not for a request that waits on the flood.
    expect(answers.length).toBeGreaterThanOrEqual(4);
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(2000);
    expect(await d.line((l) => l.msg.startsWith("a client's connection cap reached"))).toMatchObject({
      level: 'warn',
      max_connections_per_client: 100,
    });
  });
});
