// The daemon in this process (startDaemon: the real app and HTTP server on a loopback port) with its
// log lines kept for the test to read. The logger has no secret backstop, so a test sees exactly
// what the code logs. Raw sockets for what fetch cannot do: stop mid-body, dribble, hold open.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { Clock } from '../../src/core/clock.ts';
import { createLogger } from '../../src/log.ts';
import { startDaemon, type Daemon } from '../../src/main.ts';
import type { ServerLimits } from '../../src/http/server-limits.ts';
import { testConfig, unreachableBooking } from '../helpers/context.ts';

export const WEBHOOK_SECRET = 'webhook-secret-in-the-path-0123';
export const FEED_TOKEN = 'feed-token-in-the-path-0123456';
const ADMIN_TOKEN = 'admin-token-0123456789abcdef';

export interface LogLine {
  level: string;
  msg: string;
  [field: string]: unknown;
}

export interface LoggedDaemon {
  daemon: Daemon;
  port: number;
  /** Every line logged so far, raw. */
  text(): string;
  lines(): LogLine[];
  /** Waits (up to 5 s) for a line that `match` accepts. */
  line(match: (l: LogLine) => boolean): Promise<LogLine>;
}

const running: { daemon: Daemon; dir: string }[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) {
    await r.daemon.stop();
    rmSync(r.dir, { recursive: true, force: true });
  }
});

export async function startLoggedDaemon(
  options: { server?: Record<string, unknown>; limits?: Partial<ServerLimits>; clock?: Clock } = {},
): Promise<LoggedDaemon> {
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-http-'));
  const config = testConfig({
    server: { admin_token: ADMIN_TOKEN, ...options.server },
    database: { path: join(dir, 'calbridge.db') },
    webhook: { secret: WEBHOOK_SECRET, register: false },
    poll: { schedule: '0 0 1 1 *' },
    feeds: [{ name: 'Clinic', token: FEED_TOKEN }],
  });
  const written: string[] = [];
  const log = createLogger({ level: 'debug', stream: { write: (l) => written.push(l) } });
  const daemon = await startDaemon(config, {
    log,
    port: 0,
    booking: unreachableBooking,
    processMetrics: false,
    limits: options.limits,
    clock: options.clock,
  });
  running.push({ daemon, dir });
  const lines = () => written.map((l) => JSON.parse(l) as LogLine);
  return {
    daemon,
    port: daemon.port,
    text: () => written.join(''),
    lines,
    async line(match) {
      for (let i = 0; i < 100; i++) {
        const found = lines().find(match);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no such log line; the log was:\n${written.join('')}`);
    },
  };
}

export interface RawClient {
  socket: Socket;
  /** Everything the server sent. */
  received(): string;
  /** Resolves when the server (or we) closed the connection, with the milliseconds since it opened. */
  closed: Promise<number>;
}

/** A TCP connection to the daemon that writes exactly what a test tells it to. */
export async function rawClient(port: number): Promise<RawClient> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const opened = Date.now();
  let data = '';
  socket.on('data', (d: Buffer) => (data += d.toString()));
  socket.on('error', () => undefined); // a reset by the server is what some tests wait for
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - opened)));
  return { socket, received: () => data, closed };
}
