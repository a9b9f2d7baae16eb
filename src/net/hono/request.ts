// The request a Hono app sees, over Node's IncomingMessage: what Hono reads (method, url, headers,
// the body's text or JSON) without Node's fetch implementation behind it (./headers.ts says why).
// The headers are read in place from Node's rawHeaders; the body is read from the Node stream when
// asked for, and a web stream is made only for a caller that asks for `body`.
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { LightHeaders } from './headers.ts';

/** A Host header that can stand in a URL as it is; anything else is read as localhost. */
const PLAIN_HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

export class BadRequestTarget extends Error {
  constructor(target: string) {
    super(`the request target ${JSON.stringify(target.slice(0, 200))} is neither a path nor an absolute http URL`);
    this.name = 'BadRequestTarget';
  }
}

/** The absolute URL Hono routes by: origin-form targets (the usual) joined to the Host. */
export function requestUrl(incoming: IncomingMessage, scheme: 'http' | 'https'): string {
  const target = incoming.url ?? '/';
  if (target.startsWith('/')) {
    const host = incoming.headers.host;
    return `${scheme}://${host !== undefined && PLAIN_HOST.test(host) ? host : 'localhost'}${target}`;
  }
  // Absolute-form (RFC 9112 §3.2.2), as a proxy sends it: its path and query are what is asked for.
  try {
    const url = new URL(target);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
  } catch {
    // falls through
  }
  throw new BadRequestTarget(target);
}

export class NodeRequest {
  readonly method: string;
  readonly url: string;
  readonly incoming: IncomingMessage;
  #headers: LightHeaders | undefined;
  #read: Promise<Buffer> | undefined;
  #stream: ReadableStream<Uint8Array> | undefined;
  #signal: AbortSignal | undefined;

  constructor(incoming: IncomingMessage, url: string) {
    this.incoming = incoming;
    this.method = incoming.method ?? 'GET';
    this.url = url;
  }

  get headers(): LightHeaders {
    return (this.#headers ??= LightHeaders.fromNodeRaw(this.incoming.rawHeaders));
  }

  get bodyUsed(): boolean {
    return this.#read !== undefined || this.incoming.readableDidRead;
  }

  /** Aborted when the client goes away before the answer is complete. */
  get signal(): AbortSignal {
    if (!this.#signal) {
      const controller = new AbortController();
      const incoming = this.incoming;
      incoming.once('close', () => {
        if (!incoming.complete || incoming.socket?.destroyed) controller.abort(new Error('the client closed the connection'));
      });
      this.#signal = controller.signal;
    }
    return this.#signal;
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.method === 'GET' || this.method === 'HEAD') return null;
    if (this.#read) throw new TypeError('Body is unusable: Body has already been read');
    return (this.#stream ??= Readable.toWeb(this.incoming) as unknown as ReadableStream<Uint8Array>);
  }

  /** The whole body, read once from the Node stream (a GET's is empty). */
  #bytes(): Promise<Buffer> {
    if (this.#read) return Promise.reject(new TypeError('Body is unusable: Body has already been read'));
    const incoming = this.incoming;
    this.#read = new Promise<Buffer>((resolve, reject) => {
      if (this.method === 'GET' || this.method === 'HEAD') return resolve(Buffer.alloc(0));
      if (this.#stream || incoming.readableDidRead) return reject(new TypeError('Body is unusable: Body has already been read'));
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.once('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)));
      incoming.once('error', reject);
      incoming.once('close', () => {
        if (!incoming.complete) reject(new Error('the client closed the connection before the body was complete'));
      });
    });
    return this.#read;
  }

  async text(): Promise<string> {
    return (await this.#bytes()).toString('utf8');
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.#bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async bytes(): Promise<Uint8Array> {
    return new Uint8Array(await this.#bytes());
  }

  async blob(): Promise<Blob> {
    return new Blob([await this.bytes()], { type: this.headers.get('content-type') ?? '' });
  }

  async formData(): Promise<never> {
    throw new TypeError('formData() is not supported by calbridge\'s server');
  }

  get [Symbol.toStringTag](): string {
    return 'Request';
  }
}
