// Runs jobs on their schedules, never two runs of one job at once, and lets anyone wake a job early
// (a new webhook delivery, a Google push notification). stop() waits for running jobs to finish.
// Every run is one log line (job, outcome, summary, ms): info, warn when it failed, debug when it
// found nothing to do or another process held it.
// Cron schedules run in the business's time zone (booking.timezone), so "0 9 * * *" is nine in the
// morning where the appointments happen, wherever the server's clock is set.
import cron, { type ScheduledTask } from 'node-cron';
import { parseCronSchedule } from './cron-schedule.ts';
import type { Logger } from '../log.ts';
import type { Leases } from '../store/leases.ts';
import type { Metrics } from '../metrics.ts';
import type { Job, JobName, JobResult, Progress } from './job.ts';

const DEFAULT_LEASE_MS = 10 * 60_000;
const HELD = 'another process is running it';

interface Slot {
  job: Job;
  running: Promise<JobResult> | null;
  again: boolean;
  /** Woken while wakes are held: to run once more at the end (takeWoken). */
  woken: boolean;
  task?: ScheduledTask;
  timer?: NodeJS.Timeout;
}

export class Scheduler {
  private readonly slots = new Map<JobName, Slot>();
  private stopped = false;
  private started = false;
  private wakesHeld = false;
  private readonly runs;
  private readonly lastSuccess;

  private readonly log: Logger;

  constructor(
    private readonly leases: Leases,
    log: Logger,
    metrics: Metrics,
    /** The zone of cron schedules that name none (CRON_TZ=); default: the process's own. */
    private readonly options: { timezone?: string } = {},
  ) {
    this.log = log.child({ module: 'jobs' });
    this.runs = metrics.counter('job_runs_total', 'Job runs by job and outcome', ['job', 'status']);
    // Alert on `time() - this > N * period`: a job that keeps failing or never gets its lease shows here.
    this.lastSuccess = metrics.gauge(
      'job_last_success_timestamp_seconds',
      'When each job last finished successfully in this process (Unix time)',
      ['job'],
    );
  }

  /** Adds a job; after start() (an account connected while serving) its schedule starts at once. */
  add(job: Job): void {
    if (this.slots.has(job.name)) throw new Error(`two jobs are named ${job.name}`);
    const slot: Slot = { job, running: null, again: false, woken: false };
    this.slots.set(job.name, slot);
    if (this.started && !this.stopped) this.schedule(slot);
  }

  /** Takes a job off (an account removed while serving): its schedule stops, and a run in flight is waited for. */
  async remove(name: JobName): Promise<void> {
    const slot = this.slots.get(name);
    if (!slot) return;
    this.slots.delete(name);
    slot.again = false;
    await slot.task?.stop();
    if (slot.timer) clearInterval(slot.timer);
    await slot.running?.catch(() => undefined);
  }

  start(): void {
    this.started = true;
    for (const slot of this.slots.values()) this.schedule(slot);
  }

  private schedule(slot: Slot): void {
    const { schedule } = slot.job;
    if (typeof schedule === 'string') {
      const { expression, timezone } = parseCronSchedule(schedule);
      const zone = timezone ?? this.options.timezone;
      slot.task = cron.schedule(expression, () => void this.trigger(slot.job.name), {
        name: slot.job.name,
        noOverlap: true,
        ...(zone ? { timezone: zone } : {}),
      });
    } else {
      slot.timer = setInterval(() => void this.trigger(slot.job.name), schedule.everyMs);
      slot.timer.unref();
    }
  }

  /** When a cron-scheduled job runs next (null before start(), or for an interval job). */
  nextRun(name: JobName): Date | null {
    return this.slots.get(name)?.task?.getNextRun() ?? null;
  }

  /** Runs the job now, or once more right after the current run if one is going. */
  wake(name: JobName): void {
    const slot = this.slots.get(name);
    if (this.wakesHeld && slot) slot.woken = true;
    else void this.trigger(name);
  }

  /**
   * From now on a wake only marks the job; the caller runs every job itself (`sync`), so a run it
   * waits for is the one that does the work, and its summary tells that work, not an empty pass
   * after a run in the background.
   */
  holdWakes(): void {
    this.wakesHeld = true;
  }

  /** Jobs woken (while held) since they last ran, in the order they were added; marks cleared. */
  takeWoken(): JobName[] {
    const woken = [...this.slots.values()].filter((s) => s.woken);
    for (const s of woken) s.woken = false;
    return woken.map((s) => s.job.name);
  }

  /**
   * Runs the job now and waits for it (the `sync` command, tests). When another process holds the
   * job's lease, waits up to waitMs for it to finish rather than skipping.
   */
  async runNow(name: JobName, options: { waitMs?: number; progress?: Progress } = {}): Promise<JobResult> {
    const slot = this.slots.get(name);
    if (!slot) throw new Error(`no job named ${name}`);
    const deadline = Date.now() + (options.waitMs ?? 0);
    for (;;) {
      // A run that ends may start the next one at once (a wake during it): wait for all of them.
      while (slot.running) await slot.running;
      slot.woken = false; // this run does what the wake asked for
      const result = await this.execute(slot, options.progress);
      if (result.status !== 'skipped' || result.summary !== HELD || Date.now() >= deadline) return result;
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  private trigger(name: JobName): Promise<JobResult> | undefined {
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
      if (result.status === 'success') this.lastSuccess.set({ job: job.name }, Date.now() / 1000);
      const level = result.status === 'failed' ? 'warn' : result.status === 'skipped' || result.idle ? 'debug' : 'info';
      const failed = result.failed ? { failed: result.failed } : {};
      this.log[level]({ job: job.name, outcome: result.status, summary: result.summary, ms: Date.now() - started, ...failed }, 'job run');
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

  /** Resolves once no job is running, including the runs that wakes during them start next. */
  async idle(): Promise<void> {
    for (;;) {
      const running = [...this.slots.values()].flatMap((s) => (s.running ? [s.running] : []));
      if (!running.length) return;
      await Promise.allSettled(running);
    }
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
