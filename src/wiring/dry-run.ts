// `sync --dry-run`: the same pass as `sync` (the same jobs, planners and mirror rules), run on a
// scratch copy of the database with every outward write held back. The copy is taken with SQLite's
// backup API (store/scratch-copy.ts), so the database itself is never written (not even migrated),
// and the copy is removed afterwards. Reads (the booking listing, Google's changes) go
// out as in a real pass; that is what the plan is made from.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../config/schema.ts';
import type { Clock } from '../core/clock.ts';
import type { JobName, JobResult } from '../jobs/job.ts';
import type { Logger } from '../log.ts';
import type { BookingApi } from '../booking/port.ts';
import { scratchCopy } from '../store/scratch-copy.ts';
import { planReport, snapshotOf, type PlanReport } from '../sync/dry-run/plan-report.ts';
import { HeldWrites } from '../sync/dry-run/planned.ts';
import { buildRuntime, type Runtime } from './runtime.ts';

export interface DryRunOptions {
  log: Logger;
  clock?: Clock;
  /** Replaces the HTTP booking client (tests). */
  booking?: BookingApi;
}

export interface StepResult {
  job: JobName;
  result: JobResult;
}

export interface DryRun extends PlanReport {
  steps: StepResult[];
}

/** Runs one job as `sync` does: again while it stopped at its time budget with work left. */
async function runJob(runtime: Runtime, name: JobName): Promise<JobResult> {
  const job = runtime.parts.flatMap((p) => p.jobs ?? []).find((j) => j.name === name)!;
  let result = await job.run();
  while (result.more && result.status === 'success') result = await job.run();
  return result;
}

export async function dryRunPass(config: Config, options: DryRunOptions): Promise<DryRun> {
  const scratch = mkdtempSync(join(tmpdir(), 'calbridge-dry-run-'));
  try {
    const copy = join(scratch, 'calbridge.db');
    // No database yet: a real pass would start from an empty one, and so does the plan.
    if (existsSync(config.database.path)) await scratchCopy(config.database.path, copy);
    const held = new HeldWrites();
    const woken = new Set<JobName>();
    const runtime = buildRuntime(
      { ...config, database: { ...config.database, path: copy } },
      {
        log: options.log,
        held,
        processMetrics: false,
        wake: (job) => void woken.add(job),
        ...(options.clock ? { clock: options.clock } : {}),
        ...(options.booking ? { booking: options.booking } : {}),
      },
    );
    try {
      const all = () => snapshotOf(runtime.services.appointments.listAll({ includeGone: true }));
      const before = all();
      // The jobs of a `sync` pass, in its order. The jobs a step wakes (the writer after a change,
      // the reschedules after a reverse round) run in the background during a real `sync`: here
      // they run once more after the pass, in the same order.
      const names = runtime.parts.flatMap((p) => (p.jobs ?? []).filter((j) => j.inSync !== false).map((j) => j.name));
      const steps: StepResult[] = [];
      for (const name of names) {
        woken.delete(name);
        steps.push({ job: name, result: await runJob(runtime, name) });
      }
      for (const name of names.filter((n) => woken.has(n))) {
        woken.delete(name);
        steps.push({ job: name, result: await runJob(runtime, name) });
      }
      const feeds = config.feeds.map((f) => ({ name: f.name, filters: f.filters, include_cancelled: f.include_cancelled }));
      return { ...planReport({ before, after: all(), held: held.writes, feeds }), steps };
    } finally {
      await runtime.close();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
