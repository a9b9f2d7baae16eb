// The outbound client every adapter sends through: one configured origin, and nothing sent anywhere
// else (origin.ts). A redirect on that origin is followed up to `maxRedirects` times (none by
// default: the 3xx is the answer); one to another origin, or from https to http, is an OffOriginError
// naming the address, and nothing is sent to it. Retries are withRetries (retry.ts) around this.
import { httpRequest, type HttpAnswer, type RequestOptions } from './http-request.ts';
import { requireOrigin } from './origin.ts';

export interface OutboundOptions {
  /** The configured address: its origin is the only one requests go to. */
  origin: URL;
  /** The configuration key that holds it, for errors (`booking.base_url`, `caldav.url`). */
  setting: string;
  /** Same-origin redirects followed; default 0. */
  maxRedirects?: number;
  /** The transport (tests put a fake here); node:http by default. */
  transport?: typeof httpRequest;
}

export interface OutboundAnswer extends HttpAnswer {
  /** Where the answer came from, after redirects. */
  url: URL;
}

export class TooManyRedirectsError extends Error {
  override name = 'TooManyRedirectsError';
}

export class Outbound {
  private readonly transport: typeof httpRequest;

  constructor(readonly o: OutboundOptions) {
    this.transport = o.transport ?? httpRequest;
  }

  /** The configured origin. */
  get origin(): URL {
    return this.o.origin;
  }

  /**
   * Holds an address taken from an answer (a `next` link, a DAV href) to the rule; returns it, or
   * throws OffOriginError naming it.
   */
  linked(url: URL, what: string): URL {
    requireOrigin(url, this.o.origin, { setting: this.o.setting, what, source: 'link' });
    return url;
  }

  async send(url: URL, r: RequestOptions, what = `${r.method} ${url.pathname}`): Promise<OutboundAnswer> {
    requireOrigin(url, this.o.origin, { setting: this.o.setting, what, source: 'link' });
    const max = this.o.maxRedirects ?? 0;
    for (let hop = 0; ; hop++) {
      const res = await this.transport(url, r);
      const location = res.header('location');
      if (res.status < 300 || res.status >= 400 || res.status === 304 || !location) return { ...res, url };
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        return { ...res, url }; // an unreadable Location: the 3xx itself is the answer
      }
      requireOrigin(next, this.o.origin, { setting: this.o.setting, what, source: 'redirect' });
      if (max === 0) return { ...res, url };
      if (hop >= max) throw new TooManyRedirectsError(`${what}: more than ${max} redirects`);
      url = next;
    }
  }
}
