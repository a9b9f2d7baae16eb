// A person's own CalDAV account through a connect link (docs/reference/http.md, "Connect"): the
// server's address, user name and app password checked by discovery (discovery.ts), and the calendars
// found there to pick from. Few requests, no retries beyond net/'s one policy: a person is waiting.
// Unless the admin allowed private addresses, the address must be public (net/address-rule.ts):
// its name is resolved here first, so the form answers before any request, and every connection
// discovery opens checks again, which is what holds (DNS may answer differently by then).
import { systemClock } from '../core/clock.ts';
import { InsideNetworkError, requirePublicHost, type ResolveHost } from '../net/address-guard.ts';
import { Pacer } from '../net/pacer.ts';
import { createCalDavClient } from './client.ts';
import { CalDavError } from './errors.ts';

export type CalDavCheck =
  | { ok: true; calendars: { id: string; name: string; primary: boolean }[] }
  /**
   * auth: user name or password refused; not_caldav: no CalDAV server there; unreachable: no answer;
   * none: no calendar for events; inside: an address inside this network, nothing was sent there.
   */
  | { ok: false; reason: 'auth' | 'not_caldav' | 'unreachable' | 'none' | 'inside'; detail: string };

export interface CalDavCheckOptions {
  /** 'public' unless connect.caldav_private_addresses. */
  addresses: 'public' | 'any';
  /** How names are resolved (tests); the system's resolver by default. */
  resolve?: ResolveHost;
}

export async function checkCalDavAccount(url: string, username: string, password: string, o: CalDavCheckOptions): Promise<CalDavCheck> {
  if (o.addresses === 'public') {
    try {
      await requirePublicHost(new URL(url).hostname, o.resolve);
    } catch (e) {
      // A name that does not resolve is left to discovery, which says it as the server not answering.
      if (e instanceof InsideNetworkError) return { ok: false, reason: 'inside', detail: e.message };
    }
  }
  const client = createCalDavClient({
    url,
    username,
    password,
    pacer: new Pacer(60, systemClock),
    policy: { retries: 1, baseMs: 300, maxMs: 1000 },
    timeoutMs: 15_000,
    addresses: o.addresses,
    ...(o.resolve ? { resolve: o.resolve } : {}),
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
      if (e.kind === 'inside_network') return { ok: false, reason: 'inside', detail };
      if (e.kind === 'auth' || e.kind === 'forbidden') return { ok: false, reason: 'auth', detail };
      if (e.kind === 'transient' || e.kind === 'rate_limited') return { ok: false, reason: 'unreachable', detail };
      return { ok: false, reason: 'not_caldav', detail };
    }
    return { ok: false, reason: 'unreachable', detail };
  }
}
