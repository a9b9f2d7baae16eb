// A part of the daemon (ingest, webhook registration, feeds, Google writer, reverse sync): the unit
// the wiring builds. Each brings its routes, jobs, start and stop hooks and its share of status and
// readiness, and knows nothing of the others; buildRuntime joins them.
import type { Hono } from 'hono';
import type { Shortcut } from '../net/hono-server.ts';
import type { Job } from '../jobs/job.ts';
import type { Readiness } from '../core/readiness.ts';
import type { StatusShare } from '../status/status-document.ts';

/**
 * What an account's push notifications reach: the one `/google/notifications` route and the two
 * Microsoft routes ask each account's receiver in turn (wiring/target-accounts.ts), so an account
 * added while serving is reached by routes mounted at start.
 */
export interface PushReceiver {
  kind: 'google' | 'microsoft';
  /** Google: the token of this account's live channel with that id; Microsoft: the clientState of its subscription. */
  secretOf(id: string): string | undefined;
  /** Something changed in that channel's or subscription's calendar. */
  changed(id: string): void;
  /** Microsoft's lifecycle notifications (reauthorizationRequired, subscriptionRemoved, missed). */
  lifecycle?(id: string, event: string): void;
}

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
  /** A calendar account's push notifications, reached through the shared routes. */
  push?: PushReceiver;
}
