// A person's own CalDAV account through a connect link (docs/reference/http.md, "Connect"): the
// server's address, user name and app password checked by discovery (discovery.ts), and the calendars
// found there to pick from. Few requests, no retries beyond net/'s one policy: a person is waiting.
import { systemClock } from '../core/clock.ts';
import { Pacer } from '../net/pacer.ts';
import { createCalDavClient } from './client.ts';
import { CalDavError } from './errors.ts';

export type CalDavCheck =
  | { ok: true; calendars: { id: string; name: string; primary: boolean }[] }
  /** auth: user name or password refused; not_caldav: no CalDAV server there; unreachable: no answer; none: no calendar for events. */
  | { ok: false; reason: 'auth' | 'not_caldav' | 'unreachable' | 'none'; detail: string };

export async function checkCalDavAccount(url: string, username: string, password: string): Promise<CalDavCheck> {
  const client = createCalDavClient({
    url,
    username,
    password,
    pacer: new Pacer(60, systemClock),
    policy: { retries: 1, baseMs: 300, maxMs: 1000 },
    timeoutMs: 15_000,
  });
  try {
    const found = await client.calendars();
    if (found.length === 0) return { ok: false, reason: 'none', detail: 'no calendar that holds events' };
    return {
      ok: true,
      calendars: found.map((c, i) => ({ id: c.url, name: c.displayName ?? new URL(c.url).pathname, primary: i === 0 })),
    };
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    if (e instanceof CalDavError) {
      if (e.kind === 'auth' || e.kind === 'forbidden') return { ok: false, reason: 'auth', detail };
      if (e.kind === 'transient' || e.kind === 'rate_limited') return { ok: false, reason: 'unreachable', detail };
      return { ok: false, reason: 'not_caldav', detail };
    }
    return { ok: false, reason: 'unreachable', detail };
  }
}
