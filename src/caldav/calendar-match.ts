// Which discovered calendar a config entry means: a collection URL (absolute, or a path on the
// server) or a display name, exact first, then ignoring case and surrounding spaces.
import { CalDavError } from './errors.ts';
import type { CalendarCollection } from './port.ts';
import { collectionUrl, sameResource } from './resource-name.ts';

export type CalendarSpec = { kind: 'url'; url: URL } | { kind: 'name'; name: string };

export function parseSpec(nameOrUrl: string, base: URL): CalendarSpec {
  const text = nameOrUrl.trim();
  if (/^https?:\/\//i.test(text) || text.startsWith('/')) return { kind: 'url', url: collectionUrl(new URL(text, base).href) };
  return { kind: 'name', name: text };
}

export function matchCalendar(found: readonly CalendarCollection[], spec: CalendarSpec): CalendarCollection | undefined {
  if (spec.kind === 'url') return found.find((c) => sameResource(new URL(c.url), spec.url));
  const exact = found.filter((c) => c.displayName === spec.name);
  const loose = exact.length ? exact : found.filter((c) => c.displayName?.trim().toLowerCase() === spec.name.toLowerCase());
  if (loose.length > 1) {
    throw new CalDavError(
      'calendar_not_found',
      `${loose.length} calendars are named "${spec.name}" (${loose.map((c) => c.url).join(', ')}); give the collection URL instead`,
    );
  }
  return loose[0];
}

/** The error for a calendar that is not there, listing what is, so the fix is one copy and paste. */
export function notFound(spec: CalendarSpec, found: readonly CalendarCollection[], base: URL): CalDavError {
  const wanted = spec.kind === 'url' ? `at ${spec.url.href}` : `named "${spec.name}"`;
  const list = found.length
    ? `found: ${found.map((c) => `"${c.displayName ?? '(no name)'}" (${c.url})`).join(', ')}`
    : 'the account has no calendar that holds events: create one in the calendar app first';
  return new CalDavError('calendar_not_found', `no calendar ${wanted} on ${base.origin}; ${list}`);
}
