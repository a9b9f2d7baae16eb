// The request bodies we send, written out: a handful of small documents, clearer as text than built.
import { escapeXml } from './xml.ts';

const HEAD = '<?xml version="1.0" encoding="utf-8"?>\n';
const NS = 'xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/"';

export const XML_CONTENT_TYPE = 'application/xml; charset=utf-8';

function propfind(props: string): string {
  return `${HEAD}<d:propfind ${NS}><d:prop>${props}</d:prop></d:propfind>`;
}

export const PRINCIPAL = propfind('<d:current-user-principal/>');
export const HOME_SET = propfind('<c:calendar-home-set/>');
export const COLLECTIONS = propfind('<d:resourcetype/><d:displayname/><c:supported-calendar-component-set/><d:sync-token/>');
export const ETAGS = propfind('<d:resourcetype/><d:getetag/>');
export const ETAG = propfind('<d:getetag/>');
export const CTAG = propfind('<cs:getctag/>');

/** RFC 6578 §3.2; an empty token asks for every member. */
export function syncCollection(token: string | null): string {
  const t = token ? `<d:sync-token>${escapeXml(token)}</d:sync-token>` : '<d:sync-token/>';
  return `${HEAD}<d:sync-collection ${NS}>${t}<d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`;
}

/** RFC 4791 §7.9; hrefs are paths as the server writes them (percent-encoded). */
export function calendarMultiget(paths: readonly string[]): string {
  const hrefs = paths.map((p) => `<d:href>${escapeXml(p)}</d:href>`).join('');
  return `${HEAD}<c:calendar-multiget ${NS}><d:prop><d:getetag/><c:calendar-data/></d:prop>${hrefs}</c:calendar-multiget>`;
}
