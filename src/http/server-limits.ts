// Bounds on what one client can hold of the HTTP server. Every legitimate caller (the booking
// service's webhooks, Google's push, phones fetching feeds, a person opening /status) sends a small
// request at once; a client that dribbles its headers or body is either broken or attacking.
import type { Server, ServerOptions } from 'node:http';
import type { Logger } from '../log.ts';

export interface ServerLimits {
  /** Until the request's headers are complete. Headers are a few hundred bytes: 10 s is generous. */
  headersTimeoutMs: number;
  /** Until the whole request (headers and body) is in; the largest is a 1 MiB webhook body. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this; a client opens a new one when it needs it. */
  keepAliveTimeoutMs: number;
  /** Open connections at once; past it new ones are closed at once. A small daemon needs far fewer. */
  maxConnections: number;
}

export const SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1_000,
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

/** The connection cap, and a warning (at most once a minute) while it turns connections away. */
export function capConnections(server: Server, limits: ServerLimits, log: Logger): void {
  server.maxConnections = limits.maxConnections;
  let warnedAt = -Infinity;
  server.on('drop', () => {
    const now = Date.now();
    if (now - warnedAt < DROP_WARNING_EVERY_MS) return;
    warnedAt = now;
    log.warn({ max_connections: limits.maxConnections }, 'connection cap reached: new connections are closed until some finish');
  });
}
