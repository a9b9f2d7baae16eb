// What changed in a collection: sync-collection (RFC 6578) from a stored token, or, for servers
// without it, every member's ETag to compare with the stored ones; then calendar-multiget
// (RFC 4791 §7.9) to read the changed objects in a few requests instead of one each.
import { CalDavError, namesPrecondition } from './errors.ts';
import type { DavHttp } from './http.ts';
import { multistatusOf, prop, propText } from './multistatus.ts';
import type { ChangesResult, FetchedObject, ObjectRef } from './port.ts';
import { calendarMultiget, CTAG, ETAGS, syncCollection, XML_CONTENT_TYPE } from './requests.ts';
import { collectionUrl, isMember, keyOfHref } from './resource-name.ts';
import { CALDAV, CALSERVER, DAV, is } from './xml.ts';

/** A server may truncate a large answer (507 on the collection, RFC 6578 §3.6); we ask on from its token. */
const MAX_ROUNDS = 100;
const MULTIGET_BATCH = 100;

export async function changesSince(http: DavHttp, collection: string, token: string | null): Promise<ChangesResult> {
  const base = collectionUrl(collection);
  const what = `REPORT sync-collection ${base.pathname}`;
  const changed = new Map<string, ObjectRef>();
  const removed = new Map<string, Omit<ObjectRef, 'etag'>>();
  let current = token;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const answer = await http.request({
      method: 'REPORT',
      url: base,
      headers: { depth: '0', 'content-type': XML_CONTENT_TYPE },
      body: syncCollection(current),
      // RFC 6578 says 403; servers differ, so any of these that names valid-sync-token means expired.
      // 405, 415 and 501 are how servers without the report refuse it (RFC 3253 §3.6 says 403 naming
      // DAV:supported-report); a 501 is no passing trouble, so it is not retried either.
      accept: [400, 403, 405, 409, 412, 415, 501],
    });
    if (answer.status !== 207) {
      if (namesPrecondition(answer.body, DAV, 'valid-sync-token')) return { kind: 'token_expired' };
      if (refusesReport(answer)) return { kind: 'unsupported' };
      throw http.errorOf(what, answer);
    }
    const ms = multistatusOf(what, answer);
    let truncated = false;
    for (const r of ms.responses) {
      const url = new URL(r.href, answer.url);
      // iCloud lists the collection itself among the changes; only direct members are objects.
      if (!isMember(base, url)) {
        truncated ||= r.status === 507;
        continue;
      }
      const ref = { href: url.href, key: keyOfHref(url.href) };
      // Only a 404 (or 410) marks a member removed; anything else is a change to read.
      if (r.status === 404 || r.status === 410) {
        changed.delete(ref.href);
        removed.set(ref.href, ref);
      } else {
        removed.delete(ref.href);
        changed.set(ref.href, { ...ref, etag: propText(r, DAV, 'getetag') });
      }
    }
    if (!ms.syncToken) throw new CalDavError('invalid', `${what}: the answer carries no sync-token`);
    current = ms.syncToken;
    if (!truncated) return { kind: 'changes', changed: [...changed.values()], removed: [...removed.values()], token: current };
  }
  throw new CalDavError('transient', `${what}: the answer was still truncated after ${MAX_ROUNDS} rounds`);
}

/** A server without sync-collection (one that still listed a DAV:sync-token) refusing the REPORT. */
function refusesReport(answer: { status: number; body: string }): boolean {
  if (answer.status === 501 || answer.status === 405) return true;
  return namesPrecondition(answer.body, DAV, 'supported-report');
}

export async function listEtags(http: DavHttp, collection: string): Promise<ObjectRef[]> {
  const base = collectionUrl(collection);
  const answer = await http.request({
    method: 'PROPFIND',
    url: base,
    headers: { depth: '1', 'content-type': XML_CONTENT_TYPE },
    body: ETAGS,
  });
  return multistatusOf(`PROPFIND ${base.pathname}`, answer).responses.flatMap((r): ObjectRef[] => {
    const url = new URL(r.href, answer.url);
    const etag = propText(r, DAV, 'getetag');
    const isCollection = prop(r, DAV, 'resourcetype')?.children.some((t) => is(t, DAV, 'collection')) ?? false;
    return isMember(base, url) && !isCollection && etag ? [{ href: url.href, key: keyOfHref(url.href), etag }] : [];
  });
}

export async function ctagOf(http: DavHttp, collection: string): Promise<string | null> {
  const base = collectionUrl(collection);
  const answer = await http.request({
    method: 'PROPFIND',
    url: base,
    headers: { depth: '0', 'content-type': XML_CONTENT_TYPE },
    body: CTAG,
  });
  const first = multistatusOf(`PROPFIND ${base.pathname}`, answer).responses[0];
  return first ? propText(first, CALSERVER, 'getctag') : null;
}

/** Decoded path: the server may write an href we sent with other percent-encoding. */
function pathKey(url: URL): string {
  try {
    return decodeURIComponent(url.pathname);
  } catch {
    return url.pathname;
  }
}

export async function multiget(
  http: DavHttp,
  collection: string,
  hrefs: readonly string[],
): Promise<{ found: FetchedObject[]; missing: string[] }> {
  const base = collectionUrl(collection);
  const found: FetchedObject[] = [];
  const missing: string[] = [];
  for (let i = 0; i < hrefs.length; i += MULTIGET_BATCH) {
    const batch = hrefs.slice(i, i + MULTIGET_BATCH);
    const wanted = new Map(batch.map((h) => [pathKey(new URL(h, base)), h]));
    const answer = await http.request({
      method: 'REPORT',
      url: base,
      headers: { depth: '1', 'content-type': XML_CONTENT_TYPE },
      body: calendarMultiget(batch.map((h) => new URL(h, base).pathname)),
    });
    for (const r of multistatusOf(`REPORT calendar-multiget ${base.pathname}`, answer).responses) {
      const path = pathKey(new URL(r.href, answer.url));
      const href = wanted.get(path);
      const ics = prop(r, CALDAV, 'calendar-data')?.text;
      const etag = propText(r, DAV, 'getetag');
      if (href === undefined || !ics || !etag) continue; // not asked for, or not there: reported missing below
      wanted.delete(path);
      found.push({ href, key: keyOfHref(href), etag, ics });
    }
    missing.push(...wanted.values());
  }
  return { found, missing };
}
