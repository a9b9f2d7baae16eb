// Slow senders are cut off within the server's bounds, and connections past the cap are refused, over
// real sockets. The bounds are shortened for the test (serve uses 10 s, 30 s and 1,000 connections).
import { describe, expect, it } from 'vitest';
import { WEBHOOK_SECRET, rawClient, startLoggedDaemon, type RawClient } from './logged-daemon.ts';

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
    client.socket.write(`POST /webhooks/${WEBHOOK_SECRET}/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`);
    dribble(client, ' ', 20, 20_000); // a 1,000-byte body at 50 bytes a second

    const after = await client.closed;
    expect(after).toBeLessThan(3000);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
    const stored = d.daemon.runtime.services.db.prepare('SELECT COUNT(*) AS n FROM deliveries').get() as { n: number };
    expect(stored.n).toBe(0);
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
      answered = await fetch(`http://127.0.0.1:${d.port}/healthz`, { headers: { connection: 'close' } }).then((r) => r.status, () => 0);
      if (answered !== 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(answered).toBe(200);
    held[1]!.socket.destroy();
  });
});
