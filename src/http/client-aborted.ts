// A client that goes away mid-request (closed its connection, or was cut off by the server's
// request timeout) is not a failure of ours: it is logged low, never as a 500.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';

export class ClientAbortedError extends Error {
  constructor(message = 'the client closed the connection before the body was complete', options?: ErrorOptions) {
    super(message, options);
    this.name = 'ClientAbortedError';
  }
}

/** True when `err` came from the client going away rather than from a fault of ours. */
export function isClientAbort(err: unknown, c: Context): boolean {
  if (err instanceof ClientAbortedError) return true;
  // Served over node:http (src/net/hono-server.ts) the Node request and response are at hand (app.request() has neither).
  const env = c.env as { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined;
  return (env?.incoming?.destroyed === true && !env.incoming.complete) || env?.outgoing?.destroyed === true;
}
