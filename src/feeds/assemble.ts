// A whole feed from its calendar header and stored event fragments: a join, not a render.
import ical from 'ical-generator';
import { sha256Hex } from '../core/hash.ts';
import type { FeedState } from '../store/feed-fragment-store.ts';
import { foldLines } from '../ical/fold.ts';

export interface CalendarHeaderInput {
  name: string;
  refresh_minutes: number;
}

const FOOTER = 'END:VCALENDAR\r\n';

/** RFC 5545 TEXT escaping (ical-generator leaves the calendar name as it is); control characters dropped. */
function escapeText(value: string): string {
  return value
    .replace(/\r\n?|\n/g, '\n')
    .replace(/[\\;,]/g, (ch) => `\\${ch}`)
    .replace(/\n/g, '\\n')
    .replace(/[\u0000-\u001f\u007f]/g, '');
}

/** BEGIN:VCALENDAR up to the first event: PRODID, NAME/X-WR-CALNAME, REFRESH-INTERVAL/X-PUBLISHED-TTL. */
export function renderHeader(feed: CalendarHeaderInput): string {
  const text = ical({
    name: escapeText(feed.name),
    prodId: { company: 'calbridge', product: 'calbridge feed', language: 'EN' },
    ttl: feed.refresh_minutes * 60,
  }).toString();
  // toString() ends with END:VCALENDAR and no CRLF (a known ical-generator quirk); keep what precedes it.
  const end = text.lastIndexOf('END:VCALENDAR');
  return foldLines(text.slice(0, end));
}

export interface AssembledFeed {
  body: Buffer;
  /** sha256 of the body, hex: the strong ETag's value. */
  hash: string;
  events: number;
}

const CHUNK = 64 * 1024;

/** Takes a feed's fragments one at a time, in feed order, and writes them out in chunks. */
export interface FeedAssembler {
  add(fragment: string): void;
  /** Writes the footer and what is left; returns how many fragments were added. */
  finish(): number;
}

/**
 * Writes header, fragments (each ending with CRLF) and footer to `out` in chunks of 64 KiB as the
 * fragments come (they are read from disk a page at a time): no string of the whole feed (two bytes
 * a character once any name has an accent or an emoji), no array of every fragment. The chunk's
 * buffer is reused once `out` returns: `out` copies what it keeps. (A fresh buffer per chunk left the
 * C allocator holding tens of megabytes after a large feed.)
 */
export function feedAssembler(header: string, out: (chunk: Buffer) => void): FeedAssembler {
  let chunk = Buffer.allocUnsafeSlow(CHUNK);
  let at = 0;
  let events = 0;
  const put = (text: string) => {
    const length = Buffer.byteLength(text);
    if (at + length > chunk.length) {
      if (at > 0) out(chunk.subarray(0, at));
      if (length > chunk.length) chunk = Buffer.allocUnsafeSlow(length);
      at = 0;
    }
    at += chunk.write(text, at);
  };
  put(header);
  return {
    add(fragment) {
      put(fragment);
      events++;
    },
    finish() {
      put(FOOTER);
      out(chunk.subarray(0, at));
      return events;
    },
  };
}

/** The whole body in one buffer, with its hash (for tests and small uses). */
export function assembleFeed(header: string, fragments: Iterable<string>): AssembledFeed {
  const chunks: Buffer[] = [];
  const assembler = feedAssembler(header, (c) => chunks.push(Buffer.from(c)));
  for (const f of fragments) assembler.add(f);
  const events = assembler.finish();
  const body = Buffer.concat(chunks);
  return { body, hash: sha256Hex(body), events };
}

/**
 * HTTP Last-Modified: the newest event change, and always later than before when the body changed,
 * since an event that left the feed must not make the feed look older to If-Modified-Since.
 * Whole seconds, as HTTP dates are.
 */
export function nextLastModified(previous: FeedState | undefined, hash: string, newestChange: number): FeedState {
  if (previous?.etag === hash) return previous;
  const seconds = (ms: number) => Math.floor(ms / 1000) * 1000;
  return { etag: hash, lastModified: Math.max(seconds(newestChange), previous ? seconds(previous.lastModified) + 1000 : 0) };
}
