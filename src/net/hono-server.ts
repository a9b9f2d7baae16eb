// A Hono app served over node:http by Hono's own adapter, @hono/node-server (its getRequestListener).
// The app gets the Node request and response as `c.env.incoming` / `c.env.outgoing` for the routes
// that read them directly (the webhook body, the caller's address). A shortcut, if given, is asked
// first and may answer a request from the Node objects alone (the feeds' 304: BENCHMARKS.md says what
// it saves).
import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener, RequestError, type HttpBindings } from '@hono/node-server';

export type NodeEnv = HttpBindings;

/**
 * Asked before the app, with the Node request and response: answers what it can without the app and
 * returns true, or returns false (having written nothing) and the app answers.
 */
export type Shortcut = (incoming: IncomingMessage, outgoing: ServerResponse) => boolean;

export interface ListenOptions {
  port: number;
  host: string;
  serverOptions?: ServerOptions;
  shortcut?: Shortcut;
}

type Fetch = (request: Request, env: NodeEnv) => Response | Promise<Response>;

/** The address a request came from (the socket's, not a header's), or undefined without one. */
export function remoteAddressOf(env: unknown): string | undefined {
  return (env as Partial<NodeEnv> | undefined)?.incoming?.socket?.remoteAddress;
}

/**
 * Whether the shortcut answered. One that throws before writing leaves the request to the app, which
 * answers (and logs) it as it would; one that throws after writing its headers has its connection closed.
 */
function answeredBy(shortcut: Shortcut, incoming: IncomingMessage, outgoing: ServerResponse): boolean {
  try {
    return shortcut(incoming, outgoing);
  } catch {
    if (!outgoing.headersSent) return false;
    outgoing.destroy();
    return true;
  }
}

/** The request listener: the shortcut, if any, then the app through @hono/node-server. */
function nodeListener(
  fetch: Fetch,
  onError: (e: unknown) => void = () => undefined,
  shortcut?: Shortcut,
): (incoming: IncomingMessage, outgoing: ServerResponse) => void {
  const listener = getRequestListener((request, env) => fetch(request, env as NodeEnv), {
    // A request target that is no URL (`GET ftp://x/y`) is the client's fault; anything else thrown is ours.
    errorHandler: (e) => {
      if (e instanceof RequestError)
        return new Response(`${e.message}\n`, { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' } });
      onError(e);
      return new Response('Internal Server Error\n', { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    },
  });
  return (incoming, outgoing) => {
    if (shortcut && answeredBy(shortcut, incoming, outgoing)) return;
    void listener(incoming, outgoing);
  };
}

/** Listens on host:port; resolves with the server once it listens, rejects with the listen error. */
export function listen(fetch: Fetch, options: ListenOptions, onError?: (e: unknown) => void): Promise<Server> {
  const server = createServer(options.serverOptions ?? {}, nodeListener(fetch, onError, options.shortcut));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

export function portOf(server: Server): number {
  return (server.address() as AddressInfo).port;
}
