// Headers as the Fetch standard defines them (case-insensitive names, values joined with ", ", a
// Set-Cookie list of its own, iteration sorted by name), without Node's fetch implementation behind
// them. Node's own Headers lives in undici, which Node loads whole the first time any of Headers,
// Request or Response is read: 13 MB of an idle daemon that never calls fetch() (BENCHMARKS.md,
// "Footprint"). calbridge's server installs this class and ./response.ts as the globals Hono uses
// (./globals.ts).

/** An HTTP token (RFC 9110 §5.1): what a header name may be. */
const NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What no header value may hold: a value with a line break would split one header into two. */
const FORBIDDEN_IN_VALUE = /[\0\r\n]/;
const SET_COOKIE = 'set-cookie';

function headerName(name: string): string {
  const text = String(name);
  if (!NAME.test(text)) throw new TypeError(`Headers: ${JSON.stringify(text)} is not a valid header name`);
  return text.toLowerCase();
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** Leading and trailing HTTP whitespace dropped (Fetch's "normalize"), then checked. */
function headerValue(value: string): string {
  let text = String(value);
  if (text !== '' && (isSpace(text.charCodeAt(0)) || isSpace(text.charCodeAt(text.length - 1)))) text = text.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
  if (FORBIDDEN_IN_VALUE.test(text)) throw new TypeError('Headers: a header value may not contain NUL, CR or LF');
  return text;
}

export type HeadersSource = Iterable<readonly [string, string] | readonly string[]> | Record<string, string | readonly string[]>;

export class LightHeaders {
  /** Lower-case name → joined value, Set-Cookie apart. */
  #values = new Map<string, string>();
  #cookies: string[] = [];
  /** Node's rawHeaders of a request, read in place until something changes or lists them. */
  #raw: readonly string[] | undefined;

  constructor(init?: HeadersSource | LightHeaders | null) {
    if (init === undefined || init === null) return;
    if (typeof init !== 'object') throw new TypeError('Headers: init must be an object, an iterable of pairs or a Headers');
    if (Symbol.iterator in init) {
      for (const pair of init as Iterable<readonly string[]>) {
        if (pair.length !== 2) throw new TypeError('Headers: each pair must be [name, value]');
        this.append(pair[0] as string, pair[1] as string);
      }
      return;
    }
    for (const key of Object.keys(init)) {
      const value = (init as Record<string, string | readonly string[]>)[key];
      // Node's own header objects list a repeated Set-Cookie as an array; Fetch would stringify it.
      if (Array.isArray(value)) for (const v of value) this.append(key, v as string);
      else this.append(key, value as string);
    }
  }

  /** A view of a Node request's headers: lookups read its rawHeaders until a change copies them. */
  static fromNodeRaw(raw: readonly string[]): LightHeaders {
    const headers = new LightHeaders();
    headers.#raw = raw;
    return headers;
  }

  /** Copies the raw request headers in, once: every method but get and has needs them as a map. */
  #own(): this {
    const raw = this.#raw;
    if (raw) {
      this.#raw = undefined;
      for (let i = 0; i + 1 < raw.length; i += 2) {
        const name = raw[i] as string;
        if (!name.startsWith(':')) this.append(name, raw[i + 1] as string); // HTTP/2 pseudo-headers are not headers
      }
    }
    return this;
  }

  /** A lookup in rawHeaders; Cookie's parts are joined with "; " as RFC 9113 §8.2.3 says. */
  #rawLookup(raw: readonly string[], lower: string): string | null {
    let joined: string | null = null;
    const separator = lower === 'cookie' ? '; ' : ', ';
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i] as string;
      if (name.length === lower.length && name.toLowerCase() === lower) {
        const value = headerValue(raw[i + 1] as string);
        joined = joined === null ? value : joined + separator + value;
      }
    }
    return joined;
  }

  append(name: string, value: string): void {
    const lower = headerName(name);
    const text = headerValue(value);
    this.#own();
    if (lower === SET_COOKIE) {
      this.#cookies.push(text);
      return;
    }
    const before = this.#values.get(lower);
    this.#values.set(lower, before === undefined ? text : `${before}, ${text}`);
  }

  set(name: string, value: string): void {
    const lower = headerName(name);
    const text = headerValue(value);
    this.#own();
    if (lower === SET_COOKIE) this.#cookies = [text];
    else this.#values.set(lower, text);
  }

  delete(name: string): void {
    const lower = headerName(name);
    this.#own();
    if (lower === SET_COOKIE) this.#cookies = [];
    else this.#values.delete(lower);
  }

  get(name: string): string | null {
    const lower = headerName(name);
    if (this.#raw) return this.#rawLookup(this.#raw, lower);
    if (lower === SET_COOKIE) return this.#cookies.length ? this.#cookies.join(', ') : null;
    return this.#values.get(lower) ?? null;
  }

  has(name: string): boolean {
    return this.get(name) !== null;
  }

  getSetCookie(): string[] {
    return [...this.#own().#cookies];
  }

  /** [name, value] pairs by name, each Set-Cookie a pair of its own (Fetch's "sort and combine"). */
  *entries(): Generator<[string, string], undefined, unknown> {
    this.#own();
    const names = [...this.#values.keys()];
    if (this.#cookies.length) names.push(SET_COOKIE);
    names.sort();
    for (const name of names) {
      if (name === SET_COOKIE) for (const cookie of this.#cookies) yield [name, cookie];
      else yield [name, this.#values.get(name) as string];
    }
  }

  *keys(): Generator<string, undefined, unknown> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): Generator<string, undefined, unknown> {
    for (const [, value] of this.entries()) yield value;
  }

  forEach(callback: (value: string, name: string, headers: this) => void, thisArg?: unknown): void {
    for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this);
  }

  [Symbol.iterator](): Generator<[string, string], undefined, unknown> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return 'Headers';
  }
}
