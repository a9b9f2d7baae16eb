// A daemon whose alerts go to a local receiver: the runtime serve builds, on a database file in a
// temp dir that outlives a restart, on a manual clock, with retries cut to one attempt so a refused
// sign-in fails its write at once. Shared by the Google and Microsoft alert tests so both restart,
// tick and clean up the same way; each test keeps only its calendar simulator and its story.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../src/config/schema.ts';
import { ManualClock } from '../../src/core/clock.ts';
import type { JobResult } from '../../src/jobs/job.ts';
import { silentLogger } from '../../src/log.ts';
import type { Tuning } from '../../src/wiring/parts.ts';
import { buildRuntime, type Runtime } from '../../src/wiring/runtime.ts';
import { unreachableBooking } from '../helpers/context.ts';
import { startReceiver, type Receiver } from './receiver.ts';

/** One run of the daemon: its runtime, one pass of the target's writer, one tick of the alerts job. */
export interface AlertingRun {
  r: Runtime;
  writer(): Promise<JobResult>;
  tick(): Promise<JobResult>;
}

export interface AlertingDaemon {
  receiver: Receiver;
  /** The test's config with its database in this daemon's temp dir. */
  config: Config;
  clock: ManualClock;
  /** Builds the runtime on the same database (again, for a restart). */
  start(): AlertingRun;
  /** Closes every runtime started, the receiver, and removes the temp dir. */
  close(): Promise<void>;
}

const once = { retries: 0, baseMs: 1, maxMs: 1 };
const retryOnce: Record<'google' | 'microsoft', Tuning> = {
  google: { googleRetry: once, googleItemBackoff: { baseMs: 0, maxMs: 0 } },
  microsoft: { microsoftRetry: once, microsoftItemBackoff: { baseMs: 0, maxMs: 0 } },
};

/** `configFor` gets the receiver's URL (for `alerts.ntfy` and `alerts.webhook`). */
export async function startAlertingDaemon(
  target: 'google' | 'microsoft',
  configFor: (receiverUrl: string) => Config,
): Promise<AlertingDaemon> {
  const receiver = await startReceiver();
  const dir = mkdtempSync(join(tmpdir(), `calbridge-${target}-alerts-`));
  const base = configFor(receiver.url);
  const config: Config = { ...base, database: { ...base.database, path: join(dir, 'calbridge.db') } };
  const clock = new ManualClock();
  const runtimes: Runtime[] = [];
  return {
    receiver,
    config,
    clock,
    start() {
      const r = buildRuntime(config, {
        log: silentLogger(),
        clock,
        booking: unreachableBooking,
        wake: () => {},
        processMetrics: false,
        tuning: { ...retryOnce[target], alertRetry: once },
      });
      runtimes.push(r);
      const job = (name: string) => r.parts.flatMap((p) => p.jobs ?? []).find((j) => j.name === name)!;
      return { r, writer: () => job(`${target}-writer`).run(), tick: () => job('alerts').run() };
    },
    async close() {
      for (const r of runtimes.splice(0)) await r.close();
      await receiver.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
