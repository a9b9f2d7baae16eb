// Bounds on what one client can hold of the HTTP server. Every legitimate caller (the booking
// service's webhooks, Google's push, phones fetching feeds, a person opening /status) sends a small
// request at once; a client that dribbles its headers or body is either broken or attacking.
import type { Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '../log.ts';

export interface ServerLimits {
  /** Until the request's headers are complete. Headers are a few hundred bytes, sent at once: 5 s is generous. */
  headersTimeoutMs: number;
  /** Until the whole request (headers and body) is in; the largest is a 1 MiB webhook body. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this; a client opens a new one when it needs it. */
  keepAliveTimeoutMs: number;
  /** Open connections at once; past it new ones are closed at once. A small daemon needs far fewer. */
  maxConnections: number;
  /**
   * Open connections at once from one client address; past it that address's new ones are closed at
   * once, so one client cannot hold the whole of maxConnections. A reverse proxy in front counts as
   * one client: it keeps a few connections to its upstream, far fewer than this.
   */
  maxConnectionsPerClient: number;
}

export const SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1_000,
  maxConnectionsPerClient: 100,
};

/** Options for http.createServer: Node checks the two timeouts on an interval, set here to a tenth of the shorter. */
export function serverOptions(limits: ServerLimits): ServerOptions {
  return {
    headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs), // Node refuses a longer one
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(limits.headersTimeoutMs / 10))),
    keepAliveTimeout: limits.keepAliveTimeoutMs,
  };
}

const DROP_WARNING_EVERY_MS = 60_000;

/** A function that runs at most once a minute, whatever calls it more often. */
function oncePerMinute(f: () => void): () => void {
  let ranAt = -Infinity;
  return () => {
    const now = Date.now();
    if (now - ranAt < DROP_WARNING_EVERY_MS) return;
    ranAt = now;
    f();
  };
}

/**
 * The connection caps, global and per client address, and a warning (at most once a minute each)
 * while they turn connections away.
 */
export function capConnections(server: Server, limits: ServerLimits, log: Logger): void {
  server.maxConnections = limits.maxConnections;
  server.on(
    'drop',
    oncePerMinute(() =>
      log.warn({ max_connections: limits.maxConnections }, 'connection cap reached: new connections are closed until some finish'),
    ),
  );
  const perClient = new Map<string, number>();
  const warnPerClient = oncePerMinute(() =>
    log.warn(
      { max_connections_per_client: limits.maxConnectionsPerClient },
      "a client's connection cap reached: its new connections are closed until some finish",
    ),
  );
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return; // already gone
    const open = (perClient.get(address) ?? 0) + 1;
    if (open > limits.maxConnectionsPerClient) {
      warnPerClient();
      socket.destroy();
      return;
    }
    perClient.set(address, open);
    socket.once('close', () => {
      const left = (perClient.get(address) ?? 1) - 1;
      if (left <= 0) perClient.delete(address);
      else perClient.set(address, left);
    });
  });
}
