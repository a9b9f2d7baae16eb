// The receiver over a real socket: an oversized body is refused while it is still arriving (the
// sender never has to finish it), and 50 identical concurrent posts are stored once.
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { listen as listenHono } from '../../src/net/hono-server.ts';
import { createTestContext, TEST_WEBHOOK_SECRET, type TestContext } from '../helpers/context.ts';

let t: TestContext | undefined;
let server: Server | undefined;
afterEach(async () => {
  if (server)
    await new Promise<void>((r) => {
      server!.close(() => r());
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
    });
  await t?.close();
  t = server = undefined;
});

async function start(): Promise<number> {
  t = createTestContext();
  const app = t.runtime.app;
  server = await listenHono(app.fetch, { port: 0, host: '127.0.0.1' });
  return (server.address() as AddressInfo).port;
}

describe('webhook receiver over a socket', () => {
  it('answers 413 to a chunked body once it passes 1 MiB, before the sender has finished', async () => {
    const port = await start();
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: `/webhooks/${TEST_WEBHOOK_SECRET}/`,
          headers: { 'content-type': 'application/json' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        },
      );
      req.on('error', (e) => (/EPIPE|ECONNRESET/.test(String(e)) ? undefined : reject(e)));
      req.write('{"appointment_key":"big","pad":"');
      const chunk = 'x'.repeat(64 * 1024);
      // 1.5 MiB written, and the request is never ended: only an early answer can resolve this.
      for (let i = 0; i < 24; i++) req.write(chunk);
    });
    expect(status).toBe(413);
    expect(t!.ctx.deliveries.counts()).toMatchObject({ pending: 0, failed: 0, done: 0 });
  });

  it('stores the same delivery posted 50 times concurrently once', async () => {
    const port = await start();
    const body = JSON.stringify({
      event: 'appointment.created',
      timestamp: '2026-06-15T10:00:00-03:00',
      data: { appointment_key: 'same-one' },
    });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        fetch(`http://127.0.0.1:${port}/webhooks/${TEST_WEBHOOK_SECRET}/`, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json' },
        }).then(async (r) => [r.status, ((await r.json()) as { status: string }).status] as const),
      ),
    );
    expect(answers.every(([s]) => s === 200)).toBe(true);
    expect(answers.filter(([, o]) => o === 'stored')).toHaveLength(1);
    expect(t!.ctx.deliveries.counts()).toMatchObject({ pending: 1, failed: 0, done: 0 });
  });
});
