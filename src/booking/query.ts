// Building the booking API's URLs: filters to a query string (docs/reference/configuration.md, "Filters") and pagination links that
// may only ever point at base_url's origin, so the bearer token goes nowhere else.
import { DateTime } from 'luxon';
import type { ListFilters } from './port.ts';

export type ArrayFormat = 'repeat' | 'comma';

/** The booking API's offset-less filter datetime, YYYY-MM-DDTHH:MM:SS, in the booking zone. */
export function localFilterTime(ms: number, zone: string): string {
  return DateTime.fromMillis(ms, { zone }).toFormat("yyyy-MM-dd'T'HH:mm:ss");
}

/** ISO 8601 with the booking zone's offset, e.g. 2026-06-15T10:00:00-03:00 (reschedule bodies). */
export function offsetTime(ms: number, zone: string): string {
  return DateTime.fromMillis(ms, { zone }).toISO({ suppressMilliseconds: true }) ?? new Date(ms).toISOString();
}

export function filterParams(filters: ListFilters, zone: string, arrayFormat: ArrayFormat): URLSearchParams {
  const q = new URLSearchParams();
  for (const [name, value] of Object.entries(filters) as [keyof ListFilters, unknown][]) {
    if (value === undefined || value === null || value === '') continue;
    if ((name === 'start_date' || name === 'end_date') && typeof value === 'number') {
      q.append(name, localFilterTime(value, zone));
    } else if (Array.isArray(value)) {
      const items = value.map(String).filter((v) => v !== '');
      if (items.length === 0) continue;
      if (arrayFormat === 'comma') q.append(name, items.join(','));
      else for (const item of items) q.append(name, item);
    } else {
      q.append(name, String(value));
    }
  }
  return q;
}

/** base_url as configured, minus a trailing slash and a trailing /api/v3 (both are common in configs). */
export function apiRoot(baseUrl: string): URL {
  const u = new URL(baseUrl);
  u.pathname = u.pathname.replace(/\/+$/, '').replace(/\/api\/v3$/, '');
  u.search = '';
  u.hash = '';
  return u;
}

export function apiUrl(root: URL, path: string, query?: URLSearchParams): URL {
  const u = new URL(root.href);
  u.pathname = `${root.pathname.replace(/\/+$/, '')}/api/v3/${path.replace(/^\/+/, '')}`;
  if (query) u.search = query.toString();
  return u;
}

/**
 * A `next` link resolved against the page that gave it. One naming another origin (a proxy that
 * rewrites scheme or host) is rebuilt on base_url's origin with its path and query.
 */
export function sameOriginNext(next: string, current: URL, root: URL): { url: URL; rebuilt: boolean } {
  const resolved = new URL(next, current);
  if (resolved.origin === root.origin) return { url: resolved, rebuilt: false };
  const url = new URL(root.origin);
  url.pathname = resolved.pathname;
  url.search = resolved.search;
  return { url, rebuilt: true };
}
