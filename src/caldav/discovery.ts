// From the configured URL to the calendars (RFC 6764 §6, RFC 4791 §6): the DAV root's
// current-user-principal, the principal's calendar-home-set, the home's calendar collections.
// Every href is resolved against the URL that answered, and held to caldav.url's origin: the password
// goes nowhere else (net/origin.ts). iCloud puts the home on a partition host (pNN-caldav.icloud.com):
// the error names it, and that address goes into caldav.url.
import { CalDavError } from './errors.ts';
import type { DavHttp } from './http.ts';
import { parseMultistatus, prop, propHrefs, propText, type DavResponse, type Multistatus } from './multistatus.ts';
import type { CalendarCollection } from './port.ts';
import { COLLECTIONS, HOME_SET, PRINCIPAL, XML_CONTENT_TYPE } from './requests.ts';
import { collectionUrl, sameResource } from './resource-name.ts';
import { CALDAV, childrenOf, DAV, is, XmlError } from './xml.ts';

const WHERE_TO_LOOK =
  "check caldav.url, usually the server's DAV root (Nextcloud: https://host/remote.php/dav/, iCloud: https://caldav.icloud.com/, Fastmail: https://caldav.fastmail.com/dav/)";

async function propfind(http: DavHttp, url: URL, depth: '0' | '1', body: string): Promise<{ ms: Multistatus; url: URL }> {
  const answer = await http.request({ method: 'PROPFIND', url, headers: { depth, 'content-type': XML_CONTENT_TYPE }, body });
  const notDav = (why: string) =>
    new CalDavError('not_caldav', `${url.href} does not answer like a CalDAV server (${why}); ${WHERE_TO_LOOK}`, answer.status);
  if (answer.status !== 207) throw notDav(`PROPFIND answered ${answer.status}, not 207 Multi-Status`);
  try {
    return { ms: parseMultistatus(answer.body), url: answer.url };
  } catch (e) {
    if (e instanceof XmlError) throw notDav(`its PROPFIND answer is not WebDAV XML: ${e.message}`);
    throw e;
  }
}

/** The first response about `url` itself (servers answer Depth 0 with one, but may write it differently). */
function self(ms: Multistatus, url: URL): DavResponse | undefined {
  return ms.responses.find((r) => sameResource(new URL(r.href, url), url)) ?? ms.responses[0];
}

const FATAL = new Set(['auth', 'transient', 'rate_limited']);

async function askPrincipal(http: DavHttp, url: URL): Promise<{ context: URL; principal: URL | undefined }> {
  const { ms, url: answered } = await propfind(http, url, '0', PRINCIPAL);
  const me = self(ms, answered);
  const href = me ? propHrefs(me, DAV, 'current-user-principal')[0] : undefined;
  return {
    context: answered,
    principal: href ? http.linked(new URL(href, answered), `the current-user-principal of ${answered.href}`) : undefined,
  };
}

/** Where discovery starts: RFC 6764's well-known URL when the configured one is a bare host, else that URL. */
async function principalStep(http: DavHttp, base: URL): Promise<{ context: URL; principal: URL | undefined }> {
  if (base.pathname === '/') {
    try {
      return await askPrincipal(http, new URL('/.well-known/caldav', base));
    } catch (e) {
      if (!(e instanceof CalDavError) || FATAL.has(e.kind)) throw e; // else: no well-known URL here; ask the root
    }
  }
  try {
    return await askPrincipal(http, base);
  } catch (e) {
    throw asNotCalDav(e, base);
  }
}

/** A 404 or 405 on the very first request means a wrong URL, not a missing calendar. */
function asNotCalDav(e: unknown, url: URL): unknown {
  if (e instanceof CalDavError && (e.kind === 'not_found' || e.kind === 'invalid')) {
    return new CalDavError('not_caldav', `${url.href} does not answer like a CalDAV server (${e.message}); ${WHERE_TO_LOOK}`, e.status);
  }
  return e;
}

function toCollection(r: DavResponse, base: URL): CalendarCollection | undefined {
  const types = prop(r, DAV, 'resourcetype');
  if (!types?.children.some((t) => is(t, CALDAV, 'calendar'))) return undefined;
  const comps = prop(r, CALDAV, 'supported-calendar-component-set');
  // Absent means any component (RFC 4791 §5.2.3); iCloud's Reminders lists hold only VTODO.
  if (comps && !childrenOf(comps, CALDAV, 'comp').some((c) => c.attributes.name?.toUpperCase() === 'VEVENT')) return undefined;
  return {
    url: collectionUrl(new URL(r.href, base).href).href,
    displayName: propText(r, DAV, 'displayname'),
    supportsSync: propText(r, DAV, 'sync-token') !== null,
  };
}

export async function listCalendars(http: DavHttp, base: URL): Promise<CalendarCollection[]> {
  const { context, principal } = await principalStep(http, base);
  let homes: URL[] = [];
  if (principal) {
    const { ms, url } = await propfind(http, principal, '0', HOME_SET);
    const me = self(ms, url);
    homes = me
      ? propHrefs(me, CALDAV, 'calendar-home-set').map((h) => http.linked(new URL(h, url), `the calendar-home-set of ${url.href}`))
      : [];
  }
  if (homes.length === 0) {
    if (principal)
      throw new CalDavError(
        'not_caldav',
        `${principal.href} names no calendar-home-set: the account has no calendars here; ${WHERE_TO_LOOK}`,
      );
    homes = [context]; // no principal: the configured URL may be a calendar home (or a calendar) itself
  }
  const found = new Map<string, CalendarCollection>();
  for (const home of homes) {
    const { ms, url } = await propfind(http, collectionUrl(home.href), '1', COLLECTIONS);
    for (const r of ms.responses) {
      const c = toCollection(r, url);
      if (c && !found.has(c.url)) found.set(c.url, c);
    }
  }
  if (found.size === 0 && !principal)
    throw new CalDavError('not_caldav', `${base.href} shows no CalDAV principal and no calendars; ${WHERE_TO_LOOK}`);
  return [...found.values()];
}

/** A calendar outside the home (shared with the account, or a URL given directly). */
export async function calendarAt(http: DavHttp, url: URL): Promise<CalendarCollection | undefined> {
  try {
    const { ms, url: answered } = await propfind(http, url, '0', COLLECTIONS);
    const me = self(ms, answered);
    return me ? toCollection(me, answered) : undefined;
  } catch (e) {
    if (e instanceof CalDavError && (e.kind === 'not_found' || e.kind === 'forbidden')) return undefined;
    throw e;
  }
}
