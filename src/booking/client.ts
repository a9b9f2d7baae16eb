// The booking service's HTTP API (src/booking/README.md) behind the BookingApi port: DRF pagination followed
// through `next` on base_url's origin only, a page cap, and typed errors (errors.ts).
import { httpRequest } from '../net/http-request.ts';
import type { BookingConfig } from '../config/schema.ts';
import type { Logger } from '../log.ts';
import { keyProblem } from '../core/reader.ts';
import { BookingError } from './errors.ts';
import { BookingHttp } from './http.ts';
import type { BookingApi, ListFilters, Webhook } from './port.ts';
import { apiRoot, apiUrl, filterParams, offsetTime, sameOriginNext, type ArrayFormat } from './query.ts';

export interface BookingClientOptions {
  baseUrl: string;
  token: string;
  /** booking.timezone: offset-less filter datetimes and reschedule offsets are in this zone. */
  timezone: string;
  pageSize?: number;
  timeoutMs: number;
  arrayFormat: ArrayFormat;
  maxPages: number;
  log: Logger;
  /** The HTTP transport; default node:http (src/net/http-request.ts). */
  request?: typeof httpRequest;
  sleep?: (ms: number) => Promise<void>;
  maxRetries?: number;
  /** First retry wait (doubles each attempt); default 500 ms. */
  baseDelayMs?: number;
  /** Longest single wait, Retry-After included; default 60 s. */
  maxDelayMs?: number;
  /** Larger answers are not read and fail as transient; default 8 MiB. */
  maxBodyBytes?: number;
  now?: () => number;
  random?: () => number;
}

const sleepMs = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * A key as one encoded path segment. Encoding alone is not enough: `.` and `..` survive it and URL
 * parsing collapses them (a cancel of "." would be DELETE /api/v3/appointments/), so a key the
 * reader would refuse is never sent at all.
 */
function seg(key: string): string {
  const problem = keyProblem(key);
  if (problem)
    throw new BookingError('invalid', `refusing to put the key ${JSON.stringify(key.slice(0, 60))} into a booking API path: it ${problem}`);
  return encodeURIComponent(key);
}

export class BookingClient implements BookingApi {
  private readonly http: BookingHttp;
  private readonly root: URL;
  private warnedRebuild = false;

  constructor(private readonly o: BookingClientOptions) {
    this.root = apiRoot(o.baseUrl);
    this.http = new BookingHttp({
      origin: this.root,
      token: o.token,
      timeoutMs: o.timeoutMs,
      log: o.log,
      request: o.request ?? httpRequest,
      sleep: o.sleep ?? sleepMs,
      now: o.now ?? Date.now,
      random: o.random ?? Math.random,
      maxRetries: o.maxRetries ?? 4,
      baseDelayMs: o.baseDelayMs ?? 500,
      maxDelayMs: o.maxDelayMs ?? 60_000,
      maxBodyBytes: o.maxBodyBytes,
    });
  }

  listPages(filters: ListFilters): AsyncIterable<unknown[]> {
    const query = filterParams(filters, this.o.timezone, this.o.arrayFormat);
    if (this.o.pageSize) query.set('page_size', String(this.o.pageSize));
    return this.pages(apiUrl(this.root, 'appointments/', query), 'appointments');
  }

  async getAppointment(key: string): Promise<unknown> {
    const { body } = await this.http.request('GET', apiUrl(this.root, `appointments/${seg(key)}/`));
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      throw new BookingError('invalid', `the booking service answered GET appointments/${key}/ with something that is not a record`);
    }
    return body;
  }

  async updateStatus(key: string, status: string): Promise<void> {
    await this.http.request('PATCH', apiUrl(this.root, `appointments/${seg(key)}/`), { status });
  }

  async reschedule(key: string, start: number): Promise<void> {
    await this.http.request('PATCH', apiUrl(this.root, `appointments/${seg(key)}/reschedule/`), {
      start_date: offsetTime(start, this.o.timezone),
    });
  }

  async cancel(key: string, options: { sendEmail: boolean }): Promise<void> {
    const q = new URLSearchParams({ send_email: String(options.sendEmail) });
    await this.http.request('DELETE', apiUrl(this.root, `appointments/${seg(key)}/`, q));
  }

  async listWebhooks(): Promise<Webhook[]> {
    const out: Webhook[] = [];
    for await (const page of this.pages(apiUrl(this.root, 'webhooks/'), 'webhooks')) {
      for (const raw of page) {
        const w = webhookOf(raw);
        if (!w) continue;
        const problem = keyProblem(w.webhook_key);
        // Such a key could not be updated or removed safely (it would go into a path): shown in the log, left alone.
        if (problem)
          this.o.log.warn(
            { webhook_key: JSON.stringify(w.webhook_key.slice(0, 60)), problem },
            'the booking service listed a webhook whose key cannot be used; skipped',
          );
        else out.push(w);
      }
    }
    return out;
  }

  async createWebhook(url: string, events: string[]): Promise<Webhook> {
    const { body } = await this.http.request('POST', apiUrl(this.root, 'webhooks/'), { url, events });
    return webhookOf(body) ?? (await this.findWebhook(url, events));
  }

  async updateWebhook(key: string, url: string, events: string[]): Promise<Webhook> {
    const { body } = await this.http.request('PUT', apiUrl(this.root, `webhooks/${seg(key)}/`), { url, events });
    return webhookOf(body) ?? { webhook_key: key, url, events };
  }

  async deleteWebhook(key: string): Promise<void> {
    await this.http.request('DELETE', apiUrl(this.root, `webhooks/${seg(key)}/`));
  }

  /** The service does not document its create answer; when it carries no key, look it up. */
  private async findWebhook(url: string, events: string[]): Promise<Webhook> {
    const found = (await this.listWebhooks()).find((w) => w.url === url);
    return found ?? { webhook_key: '', url, events };
  }

  private async *pages(first: URL, what: string): AsyncGenerator<unknown[]> {
    let url: URL | undefined = first;
    const seen = new Set<string>();
    for (let n = 1; url; n++) {
      if (n > this.o.maxPages) {
        throw new BookingError(
          'invalid',
          `the ${what} listing has more than ${this.o.maxPages} pages (booking.max_pages); narrow the filters or raise the cap`,
        );
      }
      seen.add(url.href);
      const { body } = await this.http.request('GET', url);
      if (Array.isArray(body)) {
        yield body; // an unpaginated answer is one page
        return;
      }
      const page = body as { results?: unknown; next?: unknown } | undefined;
      if (!page || !Array.isArray(page.results)) {
        throw new BookingError('invalid', `the booking service answered the ${what} listing without a results array`);
      }
      yield page.results;
      url = typeof page.next === 'string' && page.next !== '' ? this.nextUrl(page.next, url) : undefined;
      if (url && seen.has(url.href)) {
        throw new BookingError('invalid', `the ${what} listing's next link points back to a page already read`);
      }
    }
  }

  private nextUrl(next: string, current: URL): URL {
    const { url, rebuilt } = sameOriginNext(next, current, this.root);
    if (rebuilt && !this.warnedRebuild) {
      this.warnedRebuild = true;
      this.o.log.warn(
        { next: new URL(next, current).origin, used: this.root.origin },
        'a pagination link names another origin (a proxy rewriting scheme or host?); following it on booking.base_url instead',
      );
    }
    return url;
  }
}

function webhookOf(raw: unknown): Webhook | undefined {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const o = raw as Record<string, unknown>;
  const key = o.webhook_key ?? o.key ?? o.id ?? o.uuid;
  if ((typeof key !== 'string' && typeof key !== 'number') || typeof o.url !== 'string') return undefined;
  const events = Array.isArray(o.events) ? o.events.filter((e): e is string => typeof e === 'string') : [];
  return { webhook_key: String(key), url: o.url, events };
}

export function bookingClientFromConfig(config: BookingConfig, log: Logger): BookingClient {
  return new BookingClient({
    baseUrl: config.base_url,
    token: config.token,
    timezone: config.timezone,
    pageSize: config.page_size,
    timeoutMs: config.timeout_seconds * 1000,
    arrayFormat: config.array_format,
    maxPages: config.max_pages,
    log: log.child({ module: 'booking' }),
  });
}
