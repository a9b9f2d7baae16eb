// The one builder of the runtime: config → database → stores → booking client → parts (and the one
// Google connection) → scheduler → HTTP app. `serve`, the one-shot commands, the tests and the
// benchmarks all start calbridge through it; tests swap in fakes through RuntimeOptions.
// Nothing is opened or read at import time.
import { messagesOf, voiceOf } from '../config/voice.ts';
import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import type { Config } from '../config/schema.ts';
import { systemClock, type Clock } from '../core/clock.ts';
import { overallReadiness, type OverallReadiness } from '../core/readiness.ts';
import type { Logger } from '../log.ts';
import { createMetrics } from '../metrics.ts';
import { packageVersion } from '../version.ts';
import type { Wake } from '../jobs/job.ts';
import { Scheduler } from '../jobs/scheduler.ts';
import type { BookingApi } from '../booking/port.ts';
import { bookingClientFromConfig } from '../booking/client.ts';
import { feedUrls } from '../feeds/feed-urls.ts';
import { openDatabase } from '../store/db.ts';
import { Leases, leaseOwner } from '../store/leases.ts';
import { WriteCheck } from '../store/write-check.ts';
import { createApp } from '../http/app.ts';
import type { Shortcut } from '../net/hono-server.ts';
import { statusPageRoutes, type PageLink, type PageNotice } from '../http/status-page.ts';
import { agenda } from '../http/status-page/agenda.ts';
import { configuredSecrets } from '../http/status-page/redact.ts';
import { createAlertsPart } from './alerts-part.ts';
import { createLifecycle, type Lifecycle } from './lifecycle.ts';
import type { Part } from './part.ts';
import { configuredAccounts, createParts, type Tuning } from './parts.ts';
import { accountId } from '../sync/target/adapter.ts';
import type { ConnectedAccounts } from '../sync/target/connected-account.ts';
import type { ResolveHost } from '../net/address-guard.ts';
import { createServices, type Services } from './services.ts';
import { captureBooking } from '../sync/dry-run/capture-booking.ts';
import type { HeldWrites } from '../sync/dry-run/planned.ts';
import { readerOptions } from '../core/reader.ts';
import { assembleStatus, type StatusDocument } from '../status/status-document.ts';

export interface RuntimeOptions {
  log: Logger;
  clock?: Clock;
  /** Replaces the HTTP booking client (tests: the simulator's client, a broken or counting one). */
  booking?: BookingApi;
  /** Replaces waking jobs (tests that look at what would run instead of running it). */
  wake?: Wake;
  /** Process metrics are collected once per process; off for runtimes built inside tests. */
  processMetrics?: boolean;
  tuning?: Tuning;
  /**
   * A dry run: every write to the booking service and to calendar targets is held back here instead
   * of sent (reads still go out). Only `sync --dry-run` sets it, on a scratch copy of the database.
   */
  held?: HeldWrites;
  /** The calendar accounts connected on the web (default: none); read at start and when `accounts` is woken. */
  connectedAccounts?: ConnectedAccounts;
  /** How the address check of CalDAV accounts connected by a link resolves names (tests); the system's resolver by default. */
  resolveHost?: ResolveHost;
  /** Pages only the demo serves (its simulated Google calendar), and the status page's links to them. */
  demoPages?: { routes: Hono; links: PageLink[]; notice?: () => PageNotice | undefined };
}

export interface Runtime {
  config: Config;
  services: Services;
  parts: Part[];
  scheduler: Scheduler;
  app: Hono;
  /** What the HTTP server asks before the app (the parts' shortcuts, in order), or undefined if none. */
  shortcut: Shortcut | undefined;
  /** Starting until `serve` runs its schedules, stopping once it drains: /readyz answers 503 then. */
  lifecycle: Lifecycle;
  /** The whole status document: `status`, /api/status and the status page show it. */
  status(): StatusDocument;
  /** What /readyz answers (and the status page shows). */
  readiness(): OverallReadiness;
  close(): Promise<void>;
}

export function buildRuntime(config: Config, options: RuntimeOptions): Runtime {
  const clock = options.clock ?? systemClock;
  const log = options.log;
  const db = openDatabase(config.database.path, { synchronous: config.database.synchronous });
  const metrics = createMetrics({ processMetrics: options.processMetrics ?? true });
  const leases = new Leases(db, clock, leaseOwner(randomUUID().slice(0, 8)));
  const scheduler = new Scheduler(leases, log, metrics, { timezone: config.booking.timezone });
  const booking = options.booking ?? bookingClientFromConfig(config.booking, log);
  const services = createServices({
    config,
    db,
    clock,
    log,
    metrics,
    leases,
    booking: options.held ? captureBooking(booking, readerOptions(config.booking), options.held) : booking,
    ...(options.held ? { held: options.held } : {}),
    ...(options.connectedAccounts ? { connectedAccounts: options.connectedAccounts } : {}),
    ...(options.resolveHost ? { resolveHost: options.resolveHost } : {}),
    wake: options.wake ?? ((job) => scheduler.wake(job)),
  });
  const lifecycle = createLifecycle();
  const writable = new WriteCheck(db);
  const built = createParts(services, scheduler, options.tuning);
  // The calendar accounts may change while serving (wiring/target-accounts.ts): every list of parts is read anew.
  const own = (): Part[] => [...built.before, built.accounts.part, ...built.accounts.parts(), ...built.after, lifecycle.part];
  const statusOf = (of: readonly Part[]): StatusDocument =>
    assembleStatus(
      { version: packageVersion(), now: new Date(clock.now()).toISOString() },
      of.flatMap((p) => (p.status ? [p.status()] : [])),
    );
  // Alerts read every other part's status, so they come last and see all of it.
  const alerts = createAlertsPart(services, {
    status: () => statusOf(own()),
    databaseProblem: () => writable.problem(),
    ...(options.tuning?.alertRetry ? { retry: options.tuning.alertRetry } : {}),
  });
  const partsNow = (): Part[] => [...own(), alerts];
  for (const part of partsNow()) for (const job of part.jobs ?? []) scheduler.add(job);
  // Routes are mounted once: the accounts' push routes ask the accounts of the moment.
  const parts = partsNow();

  const status = (): StatusDocument => statusOf(partsNow());
  const readiness = (): OverallReadiness => {
    const problem = writable.problem();
    return overallReadiness([
      { reasons: problem ? [problem] : [], warnings: [] },
      ...partsNow().flatMap((p) => (p.readiness ? [p.readiness()] : [])),
    ]);
  };
  const secrets = configuredSecrets(config);
  // The agenda shows where an appointment is mirrored: in the first account of each kind.
  const firstGoogle = configuredAccounts(config).find((a) => a.kind === 'google');
  const firstCaldav = configuredAccounts(config).find((a) => a.kind === 'caldav');
  const firstMicrosoft = configuredAccounts(config).find((a) => a.kind === 'microsoft');
  const app = createApp({
    log,
    metrics,
    adminToken: config.server.admin_token,
    statusAuth: config.server.status_auth,
    metricsAuth: config.server.metrics_auth,
    messages: messagesOf(config),
    secrets,
    status,
    readiness,
    routes: [
      built.accounts.routes,
      ...parts.flatMap((p) => (p.routes ? [p.routes] : [])),
      ...(options.demoPages ? [options.demoPages.routes] : []),
      statusPageRoutes({
        clock,
        status,
        readiness,
        feeds: feedUrls(config),
        secrets,
        zone: config.booking.timezone,
        agenda: (now) =>
          agenda(
            {
              config,
              appointments: services.appointments,
              ...(firstGoogle ? { links: services.targetStores(accountId(firstGoogle)).links } : {}),
              ...(firstCaldav ? { caldavLinks: services.targetStores(accountId(firstCaldav)).links } : {}),
              ...(firstMicrosoft ? { microsoftLinks: services.targetStores(accountId(firstMicrosoft)).links } : {}),
            },
            now,
          ),
        voice: voiceOf(config),
        codeOf: (key) => services.appointments.get(key)?.appointment.searchCode,
        ...(options.demoPages?.notice ? { notice: options.demoPages.notice } : {}),
        links: [
          ...(options.demoPages?.links ?? []),
          ...(config.connect ? [{ href: '/status/connections', label: messagesOf(config).connect.admin.link }] : []),
        ],
      }),
    ],
  });

  const shortcuts = parts.flatMap((p) => (p.shortcut ? [p.shortcut] : []));
  const shortcut: Shortcut | undefined =
    shortcuts.length === 0 ? undefined : (incoming, outgoing) => shortcuts.some((s) => s(incoming, outgoing));

  let closed = false;
  return {
    config,
    services,
    get parts() {
      return partsNow();
    },
    scheduler,
    app,
    shortcut,
    lifecycle,
    status,
    readiness,
    async close() {
      if (closed) return;
      closed = true;
      await scheduler.stop();
      for (const part of partsNow().reverse()) {
        try {
          await part.stop?.();
        } catch (e) {
          log.warn({ err: e, module: part.name }, 'part did not stop cleanly');
        }
      }
      db.close();
    },
  };
}
