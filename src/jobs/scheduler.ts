// Runs jobs on their schedules, never two runs of one job at once, and lets anyone wake a job early
// (a new webhook delivery, a Google push notification). stop() waits for running jobs to finish.
import cron, { type ScheduledTask } from 'node-cron';
import type { Logger } from '../log.ts';
import type { Leases } from '../store/leases.ts';
import type { Metrics } from '../metrics.ts';
import type { Job, JobResult, Progress } from './job.ts';

const DEFAULT_LEASE_MS = 10 * 60_000;
const HELD = 'another process is running it';

interface Slot {
  job: Job;
  running: Promise<JobResult> | null;
  again: boolean;
  task?: ScheduledTask;
  timer?: NodeJS.Timeout;
}

export class Scheduler {
  private readonly slots = new Map<string, Slot>();
  private stopped = false;
  private readonly runs;

  constructor(
    private readonly leases: Leases,
    private readonly log: Logger,
    metrics: Metrics,
  ) {
    this.runs = metrics.counter('job_runs_total', 'Job runs by job and outcome', ['job', 'status']);
  }

  get jobs(): Job[] {
    return [...this.slots.values()].map((s) => s.job);
  }

  add(job: Job): void {
    this.slots.set(job.name, { job, running: null, again: false });
  }

  start(): void {
    for (const slot of this.slots.values()) {
      const { schedule } = slot.job;
      if (typeof schedule === 'string') {
        slot.task = cron.schedule(schedule, () => void this.trigger(slot.job.name), { name: slot.job.name, noOverlap: true });
      } else {
        slot.timer = setInterval(() => void this.trigger(slot.job.name), schedule.everyMs);
        slot.timer.unref();
      }
    }
  }

  /** Runs the job now, or once more right after the current run if one is going. */
  wake(name: string): void {
    void this.trigger(name);
  }

  /**
   * Runs the job now and waits for it (the `sync` command, tests). When another process holds the
   * job's lease, waits up to waitMs for it to finish rather than skipping.
   */
  async runNow(name: string, options: { waitMs?: number; progress?: Progress } = {}): Promise<JobResult> {
    const slot = this.slots.get(name);
    if (!slot) throw new Error(`no job named ${name}`);
    const deadline = Date.now() + (options.waitMs ?? 0);
    for (;;) {
      // A run that ends may start the next one at once (a wake during it): wait for all of them.
      while (slot.running) await slot.running;
      const result = await this.execute(slot, options.progress);
      if (result.status !== 'skipped' || result.summary !== HELD || Date.now() >= deadline) return result;
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  private trigger(name: string): Promise<JobResult> | undefined {
    const slot = this.slots.get(name);
    if (!slot || this.stopped) return undefined;
    if (slot.running) {
      slot.again = true;
      return slot.running;
    }
    return this.execute(slot);
  }

  private execute(slot: Slot, progress?: Progress): Promise<JobResult> {
    const { job } = slot;
    const run = (async (): Promise<JobResult> => {
      const started = Date.now();
      let result: JobResult;
      try {
        const held = await this.leases.with(`job:${job.name}`, job.leaseMs ?? DEFAULT_LEASE_MS, () => job.run(progress));
        result = held ?? { status: 'skipped', summary: HELD };
      } catch (e) {
        result = { status: 'failed', summary: e instanceof Error ? e.message : String(e) };
      }
      this.runs.inc({ job: job.name, status: result.status });
      const level = result.status === 'failed' ? 'warn' : 'debug';
      this.log[level]({ job: job.name, status: result.status, ms: Date.now() - started, summary: result.summary }, 'job run');
      return result;
    })();
    slot.running = run;
    void run.finally(() => {
      slot.running = null;
      if (slot.again && !this.stopped) {
        slot.again = false;
        void this.trigger(job.name);
      }
    });
    return run;
  }

  /** Stops schedules and waits for runs in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const slot of this.slots.values()) {
      await slot.task?.stop();
      if (slot.timer) clearInterval(slot.timer);
    }
    await Promise.allSettled([...this.slots.values()].map((s) => s.running).filter(Boolean));
  }
}
