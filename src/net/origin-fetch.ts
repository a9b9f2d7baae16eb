// A fetch() for the Google client libraries (gaxios takes it as `fetchImplementation`): Node's own
// fetch, held to the rule of origin.ts. It sends only to the configured origin, never follows a
// redirect (`redirect: 'manual'`), and a 3xx that points to another origin, or from https to http, is
// an OffOriginError naming that address. The token refresh is given one bound to google.token_url's
// origin, the Calendar calls one bound to google.api_root's: the refresh token and client secret
// go to the first only, the access token and event bodies to the second only.
import { requireOrigin } from './origin.ts';

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

function urlOf(input: string | URL | Request): URL {
  if (typeof input === 'string') return new URL(input);
  if (input instanceof URL) return input;
  return new URL(input.url);
}

export function originFetch(allowed: URL, setting: string, base: Fetch = (input, init) => globalThis.fetch(input, init)): Fetch {
  return async (input, init) => {
    const url = urlOf(input);
    const what = `${init?.method ?? 'GET'} ${url.pathname}`;
    requireOrigin(url, allowed, { setting, what, source: 'link' });
    const res = await base(input, { ...init, redirect: 'manual' });
    const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
    if (location) {
      let next: URL | undefined;
      try {
        next = new URL(location, url);
      } catch {
        next = undefined;
      }
      if (next && next.origin !== allowed.origin) {
        void res.body?.cancel().catch(() => undefined);
        requireOrigin(next, allowed, { setting, what, source: 'redirect' });
      }
    }
    // A redirect on the same origin is not followed either: the 3xx is the answer, an error to the caller.
    return res;
  };
}
