// Liveness, readiness and metrics (docs/reference/http.md). /healthz and /readyz are public and may be asked a
// thousand times a second: neither writes per call, and /readyz reads only keyed rows (counters,
// cursors), never a pass over a table.
//
// /readyz is 503 only when this process cannot take traffic: not started (or stopping), or its
// database not writable at the schema it knows. Upstream trouble (booking API, Google, silent
// webhooks, a breaker holding) is a warning: an orchestrator must never cut off webhooks and feeds
// because an upstream is down. Warnings are our own sentences, never an upstream's error text (it
// can hold account e-mails); the details are in /api/status, behind the admin token.
import { Hono } from 'hono';
import type { OverallReadiness } from '../core/readiness.ts';
import type { Metrics } from '../metrics.ts';

export interface HealthDeps {
  /** What /readyz answers: the database check and every part's share, already combined. */
  readiness: () => OverallReadiness;
  metrics: Metrics;
}

export function healthRoutes(deps: HealthDeps): Hono {
  const app = new Hono();
  app.get('/healthz', (c) => c.json({ ok: true }));

  app.get('/readyz', (c) => {
    const { ready, reasons, warnings } = deps.readiness();
    return c.json({ ready, reasons, warnings }, ready ? 200 : 503);
  });

  app.get('/metrics', async (c) => {
    c.header('Content-Type', deps.metrics.registry.contentType);
    return c.body(await deps.metrics.registry.metrics());
  });
  return app;
}
