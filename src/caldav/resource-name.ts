// `{appointment_key}.ics` inside a collection, and back. Keys come from the booking service, so they
// are checked before they become a path: a slash or a dot segment would address another resource,
// and many servers (Nextcloud behind Apache among them) refuse an encoded slash outright.
import { CalDavError } from './errors.ts';

const SUFFIX = '.ics';
const MAX_KEY_LENGTH = 200;

/** Why a key cannot name a resource, or undefined when it can. */
function invalidKeyReason(key: string): string | undefined {
  if (key === '' || key === '.' || key === '..') return 'is empty or a dot segment';
  if (key.length > MAX_KEY_LENGTH) return `is longer than ${MAX_KEY_LENGTH} characters`;
  if (/[/\\]/.test(key)) return 'contains a slash';
  if (/[\u0000-\u001f\u007f]/.test(key)) return 'contains a control character';
  return undefined;
}

/** A collection URL as we keep it: absolute, ending in a slash. */
export function collectionUrl(url: string): URL {
  const u = new URL(url);
  if (!u.pathname.endsWith('/')) u.pathname += '/';
  u.hash = '';
  u.search = '';
  return u;
}

export function resourceUrl(collection: string, key: string): URL {
  const reason = invalidKeyReason(key);
  if (reason)
    throw new CalDavError('invalid', `appointment key ${JSON.stringify(key.slice(0, 60))} ${reason}; it cannot name a CalDAV resource`);
  return new URL(encodeURIComponent(key) + SUFFIX, collectionUrl(collection));
}

/** The appointment key a resource name spells, or null for any other name. */
export function keyOfHref(href: string): string | null {
  const path = new URL(href, 'http://x/').pathname;
  const last = path.slice(path.lastIndexOf('/') + 1);
  if (!last.endsWith(SUFFIX)) return null;
  let key: string;
  try {
    key = decodeURIComponent(last.slice(0, -SUFFIX.length));
  } catch {
    return null;
  }
  return invalidKeyReason(key) ? null : key;
}

/** Paths compared decoded: servers differ in what they percent-encode ("@" in Fastmail's user paths). */
function decodedPath(u: URL): string {
  try {
    return decodeURIComponent(u.pathname);
  } catch {
    return u.pathname;
  }
}

export function sameResource(a: URL, b: URL): boolean {
  const slash = (p: string) => (p.endsWith('/') ? p : `${p}/`);
  return a.host === b.host && slash(decodedPath(a)) === slash(decodedPath(b));
}

/** A direct member of the collection (not the collection itself, not a sub-collection). */
export function isMember(collection: URL, href: URL): boolean {
  const c = decodedPath(collection);
  const p = decodedPath(href);
  return href.host === collection.host && p.startsWith(c) && p.length > c.length && !p.slice(c.length).includes('/');
}
