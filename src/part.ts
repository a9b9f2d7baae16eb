// A part of the daemon (ingest, feeds, Google writer, reverse sync, ...). main.ts composes parts;
// each brings its routes, jobs and its share of status and readiness, and knows nothing of the others.
import type { Hono } from 'hono';
import type { Job } from './jobs/job.ts';

export interface Readiness {
  /** Reasons this part is not ready (make /readyz 503). */
  reasons: string[];
  /** Worth a look, but not a reason to be unready. */
  warnings: string[];
}

export interface Part {
  name: string;
  routes?(app: Hono): void;
  jobs?: Job[];
  /** Runs once when serve starts, after the HTTP server listens (e.g. webhook registration). */
  start?(): Promise<void>;
  /** Graceful stop: finish in-flight work. Jobs are already stopped when this runs. */
  stop?(): Promise<void>;
  /** This part's section of `status` and /api/status; plain JSON. */
  status?(): Record<string, unknown>;
  readiness?(): Readiness;
}
