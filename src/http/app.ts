// The Hono app: the admin guards, health and /api/status, then every route factory's sub-app,
// one error handler and one log line per request.
import { Hono } from 'hono';
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics.ts';
import type { OverallReadiness } from '../core/readiness.ts';
import { healthRoutes } from './health-routes.ts';
import { adminAuth } from './admin-auth.ts';
import { logRequests } from './request-log.ts';
import type { StatusDocument } from '../status/status-document.ts';
import { redactStatus } from './status-page/redact.ts';
import type { Messages } from '../core/i18n/index.ts';

export interface AppDeps {
  log: Logger;
  metrics: Metrics;
  adminToken: string | undefined;
  /** `loopback` lets callers on this machine in without the token (server.status_auth); default `token`. */
  statusAuth?: 'token' | 'loopback';
  /** /metrics behind the admin token too (server.metrics_auth). */
  metricsAuth?: boolean;
  /** Configured secrets masked wherever they appear in /api/status (as on the page). */
  secrets?: readonly string[];
  /** The whole status document (status command, /api/status, the status page). */
  status: () => StatusDocument;
  /** What /readyz answers. */
  readiness: () => OverallReadiness;
  /** server.locale's catalogue: a browser's 401 page is in it. */
  messages?: Messages;
  /** Route factories' sub-apps (webhooks, feeds, push notifications, the status page), mounted at the root. */
  routes: readonly Hono[];
}

export function createApp(deps: AppDeps): Hono {
  const app = new Hono();
  logRequests(app, deps.log.child({ module: 'http' }));
  app.notFound((c) => c.json({ error: 'not found' }, 404));

  // Guards go first: Hono runs handlers in the order they were added.
  const admin = adminAuth({
    token: deps.adminToken,
    statusAuth: deps.statusAuth ?? 'token',
    ...(deps.messages ? { messages: deps.messages } : {}),
  });
  // A person who opens the bare address wants the status page (which asks for the token).
  app.get('/', (c) => c.redirect('/status', 302));
  if (deps.metricsAuth) app.use('/metrics', admin);
  app.route('/', healthRoutes({ readiness: deps.readiness, metrics: deps.metrics }));

  app.use('/api/*', admin);
  app.use('/status', admin);
  // The connections page and its forms (http/connect/connections-page.ts).
  app.use('/status/*', admin);
  const secrets = deps.secrets ?? [];
  app.get('/api/status', (c) => c.json(redactStatus(deps.status(), secrets)));

  for (const routes of deps.routes) app.route('/', routes);
  return app;
}
