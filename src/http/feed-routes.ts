// GET|HEAD /feeds/{token}.ics (docs/reference/http.md). Hono answers HEAD with the GET handler's headers.
// Conditional requests follow RFC 9110 §13.2.2: If-None-Match, when present, wins over If-Modified-Since.
// The 304 of an unchanged feed, what phones ask for all day, is answered before the app by a shortcut
// (the HTTP server asks it first): same headers, same count, none of the app's work.
import { Readable } from 'node:stream';
import { Hono, type Context } from 'hono';
import { secretsMatcher } from '../core/secret-compare.ts';
import type { BodyToSend, CachedFeed, Representation } from '../feeds/feed-cache.ts';
import type { Shortcut } from '../net/hono-server.ts';

export type FeedOutcome = 'ok' | 'not_modified' | 'not_found';

export interface FeedRouteDeps {
  feeds: readonly { token: string; refresh_minutes: number }[];
  /**
   * The feed's current body (a new object whenever the body changed), or a promise of it while it is
   * being assembled; a 304 opens nothing of it.
   */
  feed(index: number): CachedFeed | Promise<CachedFeed>;
  onRequest?(outcome: FeedOutcome): void;
}

export interface FeedEndpoint {
  routes: Hono;
  /** The 304 of an unchanged feed from the Node request, or false for the routes to answer. */
  notModified: Shortcut;
}

/** Header values that change only with the body, so a repeated request formats nothing. */
interface Tags {
  etag: string;
  gzipEtag: string;
  lastModified: string;
}

const PREFIX = '/feeds/';
/** A token as the router would pass it on: nothing to decode, no further path, no query. */
const PLAIN_TOKEN = /^[^/?%]+$/;

export function feedEndpoint(deps: FeedRouteDeps): FeedEndpoint {
  const app = new Hono();
  const feedOf = secretsMatcher(deps.feeds.map((f) => f.token));
  const cacheControl = deps.feeds.map((f) => `private, max-age=${f.refresh_minutes * 60}`);
  const tagsOf = new WeakMap<CachedFeed, Tags>();

  const tagsFor = (feed: CachedFeed): Tags => {
    let tags = tagsOf.get(feed);
    if (!tags) {
      // A strong ETag names one representation, so the gzip one gets its own.
      tags = { etag: `"${feed.hash}"`, gzipEtag: `"${feed.hash}-gzip"`, lastModified: new Date(feed.lastModified).toUTCString() };
      tagsOf.set(feed, tags);
    }
    return tags;
  };

  /** What a 304 carries (RFC 9110 §15.4.5), and a 200 with its body's headers added. */
  const headersFor = (index: number, tags: Tags, gzip: boolean): Record<string, string> => ({
    ETag: gzip ? tags.gzipEtag : tags.etag,
    'Last-Modified': tags.lastModified,
    'Cache-Control': cacheControl[index] ?? 'private',
    Vary: 'Accept-Encoding',
  });

  app.get('/feeds/:file', (c) => {
    const file = c.req.param('file');
    const index = file.endsWith('.ics') ? feedOf(file.slice(0, -4)) : -1;
    if (index < 0) {
      deps.onRequest?.('not_found');
      return c.notFound();
    }
    return answer(c, index, 0);
  });

  // Anything but a plain path to a known, unchanged feed with a conditional header that matches is
  // left to the route: a token to decode, a 404, a feed being assembled, a 200.
  const notModifiedShortcut: Shortcut = (incoming, outgoing) => {
    const { method, url } = incoming;
    if ((method !== 'GET' && method !== 'HEAD') || url === undefined || !url.startsWith(PREFIX) || !url.endsWith('.ics')) return false;
    const ifNoneMatch = incoming.headers['if-none-match'];
    const ifModifiedSince = incoming.headers['if-modified-since'];
    if (ifNoneMatch === undefined && ifModifiedSince === undefined) return false;
    const token = url.slice(PREFIX.length, -4);
    if (!PLAIN_TOKEN.test(token)) return false;
    const index = feedOf(token);
    if (index < 0) return false;
    const feed = deps.feed(index);
    if (feed instanceof Promise) return false;
    const tags = tagsFor(feed);
    if (!notModified(ifNoneMatch, ifModifiedSince, tags, feed.lastModified)) return false;
    deps.onRequest?.('not_modified');
    outgoing.writeHead(304, headersFor(index, tags, acceptsGzip(incoming.headers['accept-encoding'])));
    outgoing.end();
    return true;
  };

  /** A 200 or 304 for the feed's current body; asked again when that body was replaced before it was opened. */
  const answer = (c: Context, index: number, attempt: number): Response | Promise<Response> => {
    const current = deps.feed(index);
    // Unchanged feeds are answered without a promise.
    return current instanceof Promise
      ? current.then((feed) => answerWith(c, index, attempt, feed))
      : answerWith(c, index, attempt, current);
  };

  const answerWith = (c: Context, index: number, attempt: number, feed: CachedFeed): Response | Promise<Response> => {
    const tags = tagsFor(feed);
    const gzip = acceptsGzip(c.req.header('accept-encoding'));
    const headers = headersFor(index, tags, gzip);
    if (notModified(c.req.header('if-none-match'), c.req.header('if-modified-since'), tags, feed.lastModified)) {
      deps.onRequest?.('not_modified');
      return new Response(null, { status: 304, headers });
    }
    const send = (representation: Representation | undefined): Response | Promise<Response> => {
      // Hono runs this handler for HEAD too and drops the body: open nothing then.
      const head = c.req.raw.method === 'HEAD';
      const opened = head ? undefined : representation?.open();
      if (!representation || (!head && !opened)) {
        // Replaced (its file removed) between being chosen and being opened: the new one is current.
        if (attempt >= 2) throw new Error('the feed was replaced three times while being sent');
        return answer(c, index, attempt + 1);
      }
      headers['Content-Type'] = 'text/calendar; charset=utf-8';
      headers['Content-Length'] = String(representation.bytes);
      if (gzip) headers['Content-Encoding'] = 'gzip';
      deps.onRequest?.('ok');
      return respond(headers, opened);
    };
    // The gzip copy of a large body is made by streaming, so it is waited for.
    return gzip ? feed.gzipped().then(send) : send(feed);
  };
  return { routes: app, notModified: notModifiedShortcut };
}

/** A 200 with the body in memory, or streamed from its file (a client that leaves mid-body closes it). */
function respond(headers: Record<string, string>, opened: BodyToSend | undefined): Response {
  if (!opened) return new Response(null, { status: 200, headers }); // HEAD
  if ('data' in opened) return new Response(opened.data, { status: 200, headers });
  return new Response(Readable.toWeb(opened.file.stream()) as ReadableStream<Uint8Array>, { status: 200, headers });
}

function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== 'x-gzip' && coding !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

function notModified(ifNoneMatch: string | undefined, ifModifiedSince: string | undefined, tags: Tags, lastModified: number): boolean {
  if (ifNoneMatch !== undefined) {
    if (ifNoneMatch === tags.etag || ifNoneMatch === tags.gzipEtag) return true;
    // Weak comparison, and either representation's tag names the same content.
    return ifNoneMatch.split(',').some((raw) => {
      const tag = raw.trim().replace(/^W\//, '');
      return tag === '*' || tag === tags.etag || tag === tags.gzipEtag;
    });
  }
  if (ifModifiedSince === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  return Number.isFinite(since) && lastModified <= since;
}
