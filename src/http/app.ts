// The Hono app: built-in routes plus each part's. One error handler for the whole app.
import { Hono } from 'hono';
import type { Logger } from '../log.ts';
import type { Db } from '../store/db.ts';
import type { Metrics } from '../metrics.ts';
import type { Part } from '../part.ts';
import { healthRoutes } from './health-routes.ts';
import { adminAuth } from './admin-auth.ts';

export interface AppDeps {
  db: Db;
  log: Logger;
  metrics: Metrics;
  adminToken: string | undefined;
  parts: Part[];
  /** The whole status document (status command, /api/status, the status page). */
  status: () => Record<string, unknown>;
}

export function createApp(deps: AppDeps): Hono {
  const app = new Hono();
  app.onError((err, c) => {
    deps.log.error({ err, path: c.req.path }, 'request failed');
    return c.json({ error: 'internal error' }, 500);
  });
  app.notFound((c) => c.json({ error: 'not found' }, 404));

  healthRoutes(app, {
    db: deps.db,
    metrics: deps.metrics,
    readiness: () => deps.parts.flatMap((p) => (p.readiness ? [p.readiness()] : [])),
  });

  const admin = adminAuth(deps.adminToken);
  app.use('/api/*', admin);
  app.use('/status', admin);
  app.get('/api/status', (c) => c.json(deps.status()));

  for (const part of deps.parts) part.routes?.(app);
  return app;
}
