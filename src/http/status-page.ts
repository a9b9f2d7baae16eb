// GET /status (contract §3): the human status page, the same data as /api/status plus readiness and
// the feeds to subscribe to. The admin guard is applied to /status in app.ts, before any part's routes.
import type { Hono } from 'hono';
import type { Config } from '../config/schema.ts';
import type { Clock } from '../core/clock.ts';
import type { Context } from '../context.ts';
import type { Db } from '../store/db.ts';
import type { Part, Readiness } from '../part.ts';
import { overallReadiness } from './health-routes.ts';
import { feedUrls } from '../feeds/feed-urls.ts';
import { qrSvg } from './status-page/qr-code.ts';
import { configuredSecrets, redactStatus } from './status-page/redact.ts';
import { renderStatusPage } from './status-page/page.ts';

export interface StatusPageDeps {
  config: Config;
  db: Db;
  clock: Clock;
  /** The whole status document, as /api/status serves it. */
  status: () => Record<string, unknown>;
  /** Every part's readiness; the database check is added as /readyz adds it. */
  readiness: () => Readiness[];
}

const REFRESH_SECONDS = 30;

export function statusPageRoutes(app: Hono, deps: StatusPageDeps): void {
  const secrets = configuredSecrets(deps.config);
  const links = feedUrls(deps.config);

  app.get('/status', async (c) => {
    const feeds = await Promise.all(links.map(async (f) => ({ ...f, qrSvg: await qrSvg(f.webcal) })));
    const body = renderStatusPage({
      readiness: overallReadiness(deps.db, deps.readiness()),
      status: redactStatus(deps.status(), secrets),
      feeds,
      now: deps.clock.now(),
      refreshSeconds: REFRESH_SECONDS,
    });
    // Behind the admin token and full of feed URLs: never cached, never framed, no scripts at all.
    c.header('Cache-Control', 'no-store');
    c.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'");
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    return c.html(body);
  });
}

/**
 * The status page as a part (routes only). `readiness` gives every other part's readiness, e.g.
 * `() => parts.flatMap((p) => (p.readiness ? [p.readiness()] : []))`.
 */
export function createStatusPagePart(ctx: Context, status: () => Record<string, unknown>, readiness: () => Readiness[]): Part {
  return {
    name: 'status-page',
    routes(app) {
      statusPageRoutes(app, { config: ctx.config, db: ctx.db, clock: ctx.clock, status, readiness });
    },
  };
}
