// A Hono app served by node:http: each Node request becomes a NodeRequest (./request.ts), the app's
// answer is written back as it is kept (text, bytes or a stream), and the app gets the Node request
// and response as `c.env.incoming` / `c.env.outgoing` for the routes that read or write them
// directly (the webhook body, a feed sent from its file). Used in place of @hono/node-server, whose
// classes extend Node's global Request and Response and so load Node's fetch implementation at
// import (./headers.ts says what that costs). A shortcut, if given, is asked first and may answer a
// request from the Node objects alone (the feeds' 304: BENCHMARKS.md, "The feed 304 before the app").
import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Hono } from 'hono';
import { LightHeaders } from './headers.ts';
import { BadRequestTarget, NodeRequest, requestUrl } from './request.ts';
import { LightResponse } from './response.ts';
import { settleResponseLayout } from './response-layout.ts';

export interface NodeEnv {
  incoming: IncomingMessage;
  outgoing: ServerResponse;
}

/**
 * Asked before the app, with the Node request and response: answers what it can without the app and
 * returns true, or returns false (having written nothing) and the app answers. For the one request
 * asked thousands of times a second that needs none of what the app does (a feed's 304).
 */
export type Shortcut = (incoming: IncomingMessage, outgoing: ServerResponse) => boolean;

export interface ListenOptions {
  port: number;
  host: string;
  serverOptions?: ServerOptions;
  shortcut?: Shortcut;
}

type Fetch = Hono['fetch'];
type OutgoingHeaders = Record<string, string | string[]>;

/** The address a request came from (the socket's, not a header's), or undefined without one. */
export function remoteAddressOf(env: unknown): string | undefined {
  return (env as Partial<NodeEnv> | undefined)?.incoming?.socket?.remoteAddress;
}

function plainHeaders(headers: LightHeaders | Headers): OutgoingHeaders {
  const out: OutgoingHeaders = {};
  for (const [name, value] of headers as Iterable<[string, string]>) {
    const before = out[name];
    if (before === undefined) out[name] = value;
    else if (Array.isArray(before)) before.push(value);
    else out[name] = [before, value]; // only Set-Cookie repeats: Headers joins every other name
  }
  return out;
}

function hasHeader(headers: Record<string, unknown>, lower: string): boolean {
  for (const name in headers) if (name.length === lower.length && name.toLowerCase() === lower) return true;
  return false;
}

/** Writes a web stream into the Node response, waiting for it to drain; stops if the client left. */
async function pipeStream(stream: ReadableStream<Uint8Array>, outgoing: ServerResponse): Promise<void> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (outgoing.destroyed) {
        await reader.cancel();
        return;
      }
      if (!outgoing.write(value)) await new Promise<void>((resolve) => {
        outgoing.once('drain', resolve);
        outgoing.once('close', resolve);
      });
    }
    outgoing.end();
  } catch (e) {
    outgoing.destroy(e as Error);
  } finally {
    reader.releaseLock();
  }
}

/** Writes the app's answer: a LightResponse as it is kept, any other Response through its web stream. */
async function writeResponse(res: Response | LightResponse, outgoing: ServerResponse): Promise<void> {
  // A route that wrote the Node response itself (a feed sent from its file) returns only for the log.
  if (outgoing.headersSent || outgoing.writableEnded) return;
  let status: number;
  let headers: OutgoingHeaders;
  let body: string | Uint8Array | ReadableStream<Uint8Array> | null;
  if (res instanceof LightResponse) {
    const parts = res.nodeParts();
    status = parts.status;
    headers = parts.headers instanceof LightHeaders ? plainHeaders(parts.headers) : { ...parts.headers };
    body = parts.body;
  } else {
    status = res.status;
    headers = plainHeaders(res.headers);
    body = res.body;
  }
  if (body === null || typeof body === 'string' || body instanceof Uint8Array) {
    // A body written at once gets its length, so the connection is kept and not chunked.
    if (body !== null && !hasHeader(headers, 'content-length') && !hasHeader(headers, 'transfer-encoding')) {
      headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
    }
    outgoing.writeHead(status, headers);
    outgoing.end(body ?? undefined);
    return;
  }
  outgoing.writeHead(status, headers);
  await pipeStream(body, outgoing);
}

function fail(outgoing: ServerResponse, status: 400 | 500, text: string): void {
  if (outgoing.headersSent) {
    outgoing.destroy();
    return;
  }
  outgoing.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(text)) });
  outgoing.end(text);
}

/**
 * Whether the shortcut answered. One that throws before writing leaves the request to the app, which
 * answers (and logs) it as it would; one that throws after writing its headers has its connection closed.
 */
function answeredBy(shortcut: Shortcut | undefined, incoming: IncomingMessage, outgoing: ServerResponse): boolean {
  if (!shortcut) return false;
  try {
    return shortcut(incoming, outgoing);
  } catch {
    if (!outgoing.headersSent) return false;
    outgoing.destroy();
    return true;
  }
}

/** The request listener: the shortcut, if any, then one Hono fetch per Node request. */
export function nodeListener(
  fetch: Fetch,
  onError: (e: unknown) => void = () => undefined,
  shortcut?: Shortcut,
): (incoming: IncomingMessage, outgoing: ServerResponse) => void {
  return (incoming, outgoing) => {
    if (answeredBy(shortcut, incoming, outgoing)) return;
    let request: NodeRequest;
    try {
      request = new NodeRequest(incoming, requestUrl(incoming, 'http'));
    } catch (e) {
      if (e instanceof BadRequestTarget) return fail(outgoing, 400, `${e.message}\n`);
      throw e;
    }
    const env: NodeEnv = { incoming, outgoing };
    let answer: Response | Promise<Response>;
    try {
      answer = fetch(request as unknown as Request, env);
    } catch (e) {
      onError(e);
      return fail(outgoing, 500, 'Internal Server Error\n');
    }
    const write = (res: Response) =>
      writeResponse(res, outgoing).catch((e: unknown) => {
        if (!outgoing.destroyed) onError(e);
        fail(outgoing, 500, 'Internal Server Error\n');
      });
    if (answer instanceof Promise) {
      answer.then(write, (e: unknown) => {
        onError(e);
        fail(outgoing, 500, 'Internal Server Error\n');
      });
    } else void write(answer);
  };
}

/** Listens on host:port; resolves with the server once it listens, rejects with the listen error. */
export function listen(fetch: Fetch, options: ListenOptions, onError?: (e: unknown) => void): Promise<Server> {
  settleResponseLayout();
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
