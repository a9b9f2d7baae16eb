// One HTTP request with node:http/https: the answer's status, headers and body as text, read with a
// size cap and under one deadline. The transport under the outbound client (outbound.ts), which the
// booking client, CalDAV and a service account's token request use; nothing else calls it directly.
// Google's API calls go through googleapis, given Node's fetch() held to the same rule (origin-fetch.ts;
// src/google/calendar-adapter.ts says why fetch there).
//
// Why not fetch(): the delivery worker re-reads an appointment for nearly every webhook, hundreds a
// second under load, on the event loop that answers webhooks. Measured against a local server,
// fetch() took several times the CPU of node:http per request and made far more garbage, and those
// collections are the webhook acknowledgements' slowest moments (BENCHMARKS.md).

import http from 'node:http';
import type Https from 'node:https';
import { createRequire } from 'node:module';
import { publicLookup, requirePublicLiteral, systemResolve, type ResolveHost } from './address-guard.ts';

export interface HttpAnswer {
  status: number;
  /** A response header (lower-case name), its values joined as fetch joins them. */
  header(name: string): string | undefined;
  /** The body as UTF-8 text, or null when it is larger than the cap (the rest is not read). */
  text: string | null;
}

export interface RequestOptions {
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** The whole exchange, answer's body included; past it the request fails with a TimeoutError. */
  timeoutMs: number;
  maxBodyBytes: number;
}

// Kept-alive connections, as fetch keeps them. An idle one is closed after 4 s (fetch's default
// too), before a server's usual 5 s, so a request is not sent on a socket the server is closing.
interface Transport {
  request: typeof http.request;
  agent: http.Agent;
}
const KEEP_ALIVE = { keepAlive: true, timeout: 4000 } as const;

// node:https, and with it TLS, is loaded by the first https:// request, not at start: a daemon whose
// upstreams are all http:// (a booking service behind a local proxy, the demo) never pays for it.
const require = createRequire(import.meta.url);

/** One pool of connections: plain and TLS agents, the TLS one made at its first request. */
function pool(lookup?: ReturnType<typeof publicLookup>): (protocol: string) => Transport {
  const plain: Transport = { request: http.request, agent: new http.Agent({ ...KEEP_ALIVE, ...(lookup ? { lookup } : {}) }) };
  let tls: Transport | undefined;
  return (protocol) => {
    if (protocol !== 'https:') return plain;
    if (!tls) {
      const https = require('node:https') as typeof Https;
      tls = { request: https.request, agent: new https.Agent({ ...KEEP_ALIVE, ...(lookup ? { lookup } : {}) }) };
    }
    return tls;
  };
}
const anyAddress = pool();

class RequestTimeoutError extends Error {
  override name = 'TimeoutError';
}

/**
 * Never follows a redirect (a redirect could carry the token to another origin): a 3xx is answered
 * as it is. A connection that fails rejects with an Error whose `cause` is the system's error (its
 * `code`, e.g. ECONNREFUSED), as fetch() does.
 */
export function httpRequest(url: URL, o: RequestOptions): Promise<HttpAnswer> {
  return send(url, o, anyAddress);
}

let publicPool: ((protocol: string) => Transport) | undefined;

/**
 * httpRequest that reaches public addresses only (address-rule.ts): for a CalDAV account connected by
 * a link. Its name is resolved by the socket's own lookup, which refuses an address inside this
 * network, at every new connection; an address written in the URL is checked before anything is
 * opened. Its own pool: a socket another account opened to a private address is never reused here.
 * `resolve`: tests answer names through it; one pool over the system's resolver otherwise.
 */
export function publicOnlyRequest(resolve?: ResolveHost): typeof httpRequest {
  const transports = resolve ? pool(publicLookup(resolve)) : (publicPool ??= pool(publicLookup(systemResolve)));
  return (url, o) => {
    try {
      requirePublicLiteral(url);
    } catch (e) {
      return Promise.reject(e as Error);
    }
    return send(url, o, transports);
  };
}

function send(url: URL, o: RequestOptions, transports: (protocol: string) => Transport): Promise<HttpAnswer> {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return Promise.reject(new Error(`unsupported protocol ${url.protocol}`));
  const { request, agent } = transports(url.protocol);
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (result: HttpAnswer | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const headers = o.body === undefined ? o.headers : { ...o.headers, 'content-length': String(Buffer.byteLength(o.body)) };
    const req = request(url, { method: o.method, headers, agent }, (res) => {
      const header = (name: string) => {
        const v = res.headers[name];
        return Array.isArray(v) ? v.join(', ') : v;
      };
      const answer = (text: string | null): HttpAnswer => ({ status: res.statusCode ?? 0, header, text });
      const declared = Number(res.headers['content-length'] ?? NaN);
      if (Number.isFinite(declared) && declared > o.maxBodyBytes) {
        res.destroy();
        finish(answer(null));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > o.maxBodyBytes) {
          res.destroy();
          finish(answer(null));
        } else chunks.push(chunk);
      });
      res.on('end', () => finish(answer(Buffer.concat(chunks, size).toString('utf8'))));
      res.on('error', (e) => finish(new Error('the answer was cut off', { cause: e })));
      res.on('close', () => {
        if (!res.complete)
          finish(new Error('the answer was cut off', { cause: Object.assign(new Error('connection closed'), { code: 'ECONNRESET' }) }));
      });
    });
    const timer = setTimeout(() => {
      const e = new RequestTimeoutError(`no answer within ${o.timeoutMs} ms`);
      finish(e);
      req.destroy(e);
    }, o.timeoutMs);
    req.on('error', (e) => finish(e instanceof RequestTimeoutError ? e : new Error('request failed', { cause: e })));
    req.end(o.body);
  });
}
