// A part of the daemon (ingest, webhook registration, feeds, Google writer, reverse sync): the unit
// the wiring builds. Each brings its routes, jobs, start and stop hooks and its share of status and
// readiness, and knows nothing of the others; buildRuntime joins them.
import type { Hono } from 'hono';
import type { Shortcut } from '../net/hono-server.ts';
import type { Job } from '../jobs/job.ts';
import type { Readiness } from '../core/readiness.ts';
import type { StatusShare } from '../status/status-document.ts';

export interface Part {
  /** Its section's key in the status document. */
  name: string;
  /** Its routes, a route factory's sub-app: mounted at the root of the app. */
  routes?: Hono;
  /** Asked before the app for each request (src/net/hono-server.ts): answers what needs none of the app's work. */
  shortcut?: Shortcut;
  /** `sync` runs them in the order parts and jobs are listed. */
  jobs?: Job[];
  /** Runs once when serve starts, after the HTTP server listens (e.g. webhook registration). */
  start?(): Promise<void>;
  /** Graceful stop: finish in-flight work. Jobs are already stopped when this runs. */
  stop?(): Promise<void>;
  /** Its section(s) of the status document (status/status-document.ts): `{ ingest: ... }`, `{ targets: { 'google.default': ... } }`. */
  status?(): StatusShare;
  readiness?(): Readiness;
}
