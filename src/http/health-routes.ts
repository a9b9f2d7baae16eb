// Liveness, readiness and metrics (contract §3).
import type { Hono } from 'hono';
import type { Db } from '../store/db.ts';
import type { Metrics } from '../metrics.ts';
import type { Readiness } from '../part.ts';

export interface HealthDeps {
  db: Db;
  metrics: Metrics;
  /** Each part's readiness; the database check is built in. */
  readiness: () => Readiness[];
}

export function databaseWritable(db: Db): string | undefined {
  try {
    db.prepare("INSERT INTO kv (key, value, updated_at_ms) VALUES ('readyz', '0', 0) ON CONFLICT (key) DO UPDATE SET updated_at_ms = 0").run();
    return undefined;
  } catch (e) {
    return `the database is not writable: ${(e as Error).message}`;
  }
}

export interface OverallReadiness extends Readiness {
  ready: boolean;
}

/** What /readyz answers (and the status page shows): the database check plus every part's. */
export function overallReadiness(db: Db, parts: Readiness[]): OverallReadiness {
  const reasons: string[] = [];
  const warnings: string[] = [];
  const dbProblem = databaseWritable(db);
  if (dbProblem) reasons.push(dbProblem);
  for (const r of parts) {
    reasons.push(...r.reasons);
    warnings.push(...r.warnings);
  }
  return { ready: reasons.length === 0, reasons, warnings };
}

export function healthRoutes(app: Hono, deps: HealthDeps): void {
  app.get('/healthz', (c) => c.json({ ok: true }));

  app.get('/readyz', (c) => {
    const result = overallReadiness(deps.db, deps.readiness());
    return c.json(result, result.ready ? 200 : 503);
  });

  app.get('/metrics', async (c) => {
    c.header('Content-Type', deps.metrics.registry.contentType);
    return c.body(await deps.metrics.registry.metrics());
  });
}
