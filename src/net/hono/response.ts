// Response as the Fetch standard defines it, for what a Hono app answers with, without Node's fetch
// implementation (undici) behind it (./headers.ts says why). Bodies are kept as given (text, bytes or
// a stream) so that ./server.ts writes them to the Node response as they are; a web stream is made
// only when someone asks for `body`.
import { LightHeaders, type HeadersSource } from './headers.ts';

export type LightBody = string | Uint8Array | ReadableStream<Uint8Array> | null;

interface Init {
  status?: number;
  statusText?: string;
  headers?: HeadersSource | LightHeaders | Headers | null;
}

/** Statuses whose answer has no body (Fetch's "null body status"). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
/** The streams `body` made from text or bytes, so that a Response built from another keeps its plain body. */
const madeFrom = new WeakMap<ReadableStream<Uint8Array>, string | Uint8Array>();

/** What the server writes: the status, the headers as given or as a Headers, the body as kept. */
export interface NodeParts {
  status: number;
  /** A plain record when the headers were given as one and never touched; else the Headers. */
  headers: Record<string, string> | LightHeaders;
  body: LightBody;
}

function unusable(): TypeError {
  return new TypeError('Body is unusable: Body has already been read');
}

/** Text, bytes, or a stream, and the Content-Type Fetch gives such a body when none is set. */
function extract(body: unknown): { source: LightBody; type: string | null } {
  if (body === null || body === undefined) return { source: null, type: null };
  if (typeof body === 'string') return { source: body, type: 'text/plain;charset=UTF-8' };
  if (body instanceof Uint8Array) return { source: body, type: null };
  if (body instanceof ArrayBuffer) return { source: new Uint8Array(body), type: null };
  if (ArrayBuffer.isView(body)) return { source: new Uint8Array(body.buffer, body.byteOffset, body.byteLength), type: null };
  if (body instanceof ReadableStream) {
    const plain = madeFrom.get(body as ReadableStream<Uint8Array>);
    return { source: plain ?? (body as ReadableStream<Uint8Array>), type: null };
  }
  if (body instanceof URLSearchParams) return { source: body.toString(), type: 'application/x-www-form-urlencoded;charset=UTF-8' };
  // Blob and FormData bodies are not used by calbridge's routes; say so rather than send "[object Blob]".
  throw new TypeError(`Response: a body of type ${Object.prototype.toString.call(body)} is not supported here`);
}

async function readStream(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  return Buffer.concat(chunks);
}

export class LightResponse {
  readonly status: number;
  readonly statusText: string;
  readonly type = 'default';
  readonly url = '';
  readonly redirected = false;
  #source: LightBody;
  #defaultType: string | null;
  #init: Init['headers'];
  #headers: LightHeaders | undefined;
  #used = false;
  #stream: ReadableStream<Uint8Array> | undefined;

  constructor(body?: unknown, init?: Init | null) {
    const status = init?.status ?? 200;
    if (!Number.isInteger(status) || status < 200 || status > 599) throw new RangeError(`Response: status ${status} is not in the range 200 to 599`);
    this.status = status;
    this.statusText = init?.statusText ?? '';
    const { source, type } = extract(body);
    if (source !== null && NULL_BODY.has(status)) throw new TypeError(`Response: a ${status} answer has no body`);
    this.#source = source;
    this.#defaultType = type;
    this.#init = init?.headers;
  }

  get headers(): LightHeaders {
    if (!this.#headers) {
      const headers = new LightHeaders(this.#init as HeadersSource | null | undefined);
      if (this.#defaultType !== null && !headers.has('content-type')) headers.set('content-type', this.#defaultType);
      this.#headers = headers;
      this.#init = undefined;
    }
    return this.#headers;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  get body(): ReadableStream<Uint8Array> | null {
    const source = this.#source;
    if (source === null) return null;
    if (source instanceof ReadableStream) return source;
    if (!this.#stream) {
      const bytes = typeof source === 'string' ? Buffer.from(source) : source;
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          if (bytes.byteLength) controller.enqueue(bytes);
          controller.close();
        },
      });
      madeFrom.set(stream, source);
      this.#stream = stream;
    }
    return this.#stream;
  }

  /** The body as bytes, once. */
  async #consume(): Promise<Buffer> {
    if (this.#used) throw unusable();
    this.#used = true;
    const source = this.#source;
    if (source === null) return Buffer.alloc(0);
    if (typeof source === 'string') return Buffer.from(source);
    if (source instanceof ReadableStream) return readStream(source);
    return Buffer.from(source.buffer, source.byteOffset, source.byteLength);
  }

  async text(): Promise<string> {
    if (typeof this.#source === 'string' && !this.#used) {
      this.#used = true;
      return this.#source;
    }
    return (await this.#consume()).toString('utf8');
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async bytes(): Promise<Uint8Array> {
    return new Uint8Array(await this.#consume());
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.#consume();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  clone(): LightResponse {
    if (this.#used) throw unusable();
    let source = this.#source;
    if (source instanceof ReadableStream) {
      const [mine, theirs] = source.tee();
      this.#source = mine;
      source = theirs;
    }
    return new LightResponse(source, { status: this.status, statusText: this.statusText, headers: this.headers });
  }

  /** For ./server.ts: what to write, without making a Headers or a stream that nobody else asked for. */
  nodeParts(): NodeParts {
    let headers: NodeParts['headers'];
    const init = this.#init;
    const plain = !this.#headers && init !== null && init !== undefined && typeof init === 'object' && !(Symbol.iterator in init);
    if (plain && (this.#defaultType === null || Object.keys(init).some((k) => k.toLowerCase() === 'content-type'))) {
      headers = init as Record<string, string>;
    } else headers = this.headers;
    return { status: this.status, headers, body: this.#source };
  }

  static json(data: unknown, init?: Init): LightResponse {
    const headers = new LightHeaders(init?.headers as HeadersSource | null | undefined);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    return new LightResponse(JSON.stringify(data), { ...init, headers });
  }

  static redirect(url: string | URL, status = 302): LightResponse {
    if (![301, 302, 303, 307, 308].includes(status)) throw new RangeError(`Response.redirect: ${status} is not a redirect status`);
    return new LightResponse(null, { status, headers: { location: new URL(url).href } });
  }

  get [Symbol.toStringTag](): string {
    return 'Response';
  }
}
