// One life of the daemon, in this process: the real parts (ingest, feeds, the Google, CalDAV and
// Outlook writers and reverse syncs) on a real SQLite file, built by the same builder as serve, with three test seams the other
// scenario tests use too: a clock the test moves, fast Google retries, and wakes that are recorded
// (the history decides when woken jobs run, so a failing history replays the same way).
// kill() is the crash: both APIs cut, the database closed under whatever was running, nothing
// stopped in order. The next life opens the same file.
import { hostname } from 'node:os';
import type { Hono } from 'hono';
import type { Config } from '../../src/config/schema.ts';
import type { Clock } from '../../src/core/clock.ts';
import type { BookingApi } from '../../src/booking/port.ts';
import { openDatabase } from '../../src/store/db.ts';
import { leaseOwner } from '../../src/store/leases.ts';
import { silentLogger } from '../../src/log.ts';
import type { JobResult } from '../../src/jobs/job.ts';
import { buildRuntime } from '../../src/wiring/runtime.ts';
import type { Services } from '../../src/wiring/services.ts';

export const JOBS = [
  'poll',
  'deliveries',
  'google-writer',
  'google-reverse-sync',
  'google-reschedules',
  'caldav-writer',
  'caldav-reverse-sync',
  'caldav-reschedules',
  'microsoft-writer',
  'microsoft-reverse-sync',
  'microsoft-reschedules',
] as const;
export type JobName = (typeof JOBS)[number];

/** A pid no process can have (above Linux's pid_max): how the next life sees a killed one's leases. */
const DEAD_PID = 4_194_305;

export interface DaemonLife {
  life: number;
  ctx: Services;
  app: Hono;
  /** Jobs woken (by a stored webhook, a change, a reverse round) and not run yet. */
  woken: Set<string>;
  run(job: JobName): Promise<JobResult>;
  /** Runs every woken job at once, as the scheduler would. */
  runWoken(): Promise<void>;
  /** Runs woken jobs until none is left (bounded): what the scheduler does before any time passes. */
  drainWakes(): Promise<void>;
  /** Work the daemon knows it still has: pending deliveries, writes to each calendar, reschedules. */
  pending(): { deliveries: number; google: number; caldav: number; outlook: number; reschedules: number };
  kill(): void;
  close(): Promise<void>;
}

export interface LifeOptions {
  life: number;
  config: Config;
  clock: Clock;
  booking: BookingApi;
}

export function startLife(o: LifeOptions): DaemonLife {
  // The life before was killed: the OS would report its pid gone, so its leases are taken over at once.
  const before = openDatabase(o.config.database.path, { synchronous: o.config.database.synchronous });
  // Owned as serve owns them (host, pid, pid namespace, boot), by a pid that no longer exists.
  before.prepare('UPDATE leases SET owner = ? WHERE owner LIKE ?').run(leaseOwner('killed', DEAD_PID), `${hostname()}:${process.pid}:%`);
  before.close();
  const woken = new Set<string>();
  const runtime = buildRuntime(o.config, {
    log: silentLogger(),
    clock: o.clock,
    booking: o.booking,
    wake: (job) => void woken.add(job),
    processMetrics: false,
    tuning: {
      googleRetry: { retries: 1, baseMs: 1, maxMs: 5 },
      caldavRetry: { retries: 1, baseMs: 1, maxMs: 5 },
      microsoftRetry: { retries: 1, baseMs: 1, maxMs: 5 },
    },
  });
  const ctx = runtime.services;
  // What the parts' start() asks for on serve: catch up with the booking service and Google.
  for (const job of ['poll', 'deliveries', 'google-reverse-sync', 'caldav-reverse-sync', 'microsoft-reverse-sync']) woken.add(job);

  const google = runtime.parts.find((p) => p.name === 'google.default')!;
  const caldav = runtime.parts.find((p) => p.name === 'caldav.default')!;
  const outlook = runtime.parts.find((p) => p.name === 'microsoft.default')!;
  const targets = ['google.default', 'caldav.default', 'microsoft.default'];
  const run = (job: JobName) => runtime.scheduler.runNow(job);

  return {
    life: o.life,
    ctx,
    app: runtime.app,
    woken,
    run,
    async runWoken() {
      const jobs = [...woken].filter((j): j is JobName => (JOBS as readonly string[]).includes(j));
      woken.clear();
      await Promise.all(jobs.map(run));
    },
    async drainWakes() {
      for (let i = 0; i < 5 && woken.size; i++) await this.runWoken();
    },
    pending: () => ({
      deliveries: ctx.deliveries.counts().pending,
      google: google.status!().targets!['google.default']!.pending,
      caldav: caldav.status!().targets!['caldav.default']!.pending,
      outlook: outlook.status!().targets!['microsoft.default']!.pending,
      reschedules: targets.reduce((n, t) => n + ctx.targetStores(t).actions.counts().pending, 0),
    }),
    kill() {
      ctx.db.close();
    },
    async close() {
      await runtime.close();
    },
  };
}
