// GET /status (docs/reference/http.md, "The status page"): the status page for people, server-rendered, with no script and nothing
// loaded from elsewhere. The admin guard is applied to /status in app.ts, before these routes.
import { ENGLISH, type Voice } from '../core/activity-words.ts';
import { Hono } from 'hono';
import type { Clock } from '../core/clock.ts';
import type { OverallReadiness } from '../core/readiness.ts';
import type { FeedUrls } from '../feeds/feed-urls.ts';
import { qrSvg } from './status-page/qr-code.ts';
import { redactStatus } from './status-page/redact.ts';
import { renderStatusPage, type PageLink, type PageNotice } from './status-page/page.ts';
import { pageProblems } from './status-page/problems.ts';
import type { AgendaDay } from './status-page/agenda.ts';
import type { StatusDocument } from '../status/status-document.ts';

export type { PageLink, PageNotice };

export interface StatusPageDeps {
  clock: Clock;
  /** The whole status document, as /api/status serves it. */
  status: () => StatusDocument;
  /** What /readyz answers. */
  readiness: () => OverallReadiness;
  /** Each feed's subscription URLs (they carry the token: the page is behind the admin token). */
  feeds: readonly FeedUrls[];
  /** Configured secrets, masked wherever they appear in the status document. */
  secrets: readonly string[];
  /** booking.timezone: every time on the page is shown there. */
  zone: string;
  /** Today's and tomorrow's appointments as each target shows them (status-page/agenda.ts). */
  agenda: (now: number) => AgendaDay[];
  /** Pages of their own the header links to (the demo's simulated Google calendar). */
  links?: PageLink[];
  /** A note of the demo's own under the health (its invite), asked for at each view; none elsewhere. */
  notice?: () => PageNotice | undefined;
  /** server.locale and where the booking service's changes go, as configured (default: English, Google and feeds). */
  voice?: Voice;
  /** An appointment's search code by its key: problems name appointments as people search for them. */
  codeOf?: (key: string) => string | null | undefined;
}

/** A webcal URL on 127.0.0.1 or localhost: no phone can open it, so no QR code is drawn for it. */
function loopbackUrl(url: string): boolean {
  const host = new URL(url.replace(/^webcal:/, 'https:')).hostname;
  return host === 'localhost' || host === '[::1]' || host.startsWith('127.');
}

const REFRESH_SECONDS = 30;

/** Behind the admin token and full of feed URLs and names: never cached, never framed, no scripts at all. */
export const PAGE_HEADERS: Record<string, string> = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

export function statusPageRoutes(deps: StatusPageDeps): Hono {
  const app = new Hono();
  app.get('/status', async (c) => {
    const feeds = await Promise.all(deps.feeds.map(async (f) => ({ ...f, qrSvg: loopbackUrl(f.webcal) ? '' : await qrSvg(f.webcal) })));
    const now = deps.clock.now();
    const readiness = deps.readiness();
    const status = redactStatus(deps.status(), deps.secrets);
    const body = renderStatusPage({
      readiness,
      problems: pageProblems(readiness, status, {
        m: (deps.voice ?? ENGLISH).m,
        zone: deps.zone,
        ...(deps.codeOf ? { codeOf: deps.codeOf } : {}),
      }),
      status,
      agenda: deps.agenda(now),
      feeds,
      links: deps.links ?? [],
      notice: deps.notice?.(),
      ...(deps.voice ? { voice: deps.voice } : {}),
      zone: deps.zone,
      now,
      refreshSeconds: REFRESH_SECONDS,
    });
    return c.html(body, 200, PAGE_HEADERS);
  });
  return app;
}
