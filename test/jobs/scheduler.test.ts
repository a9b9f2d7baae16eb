import { afterEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { Scheduler } from '../../src/jobs/scheduler.ts';
import { createLogger, silentLogger } from '../../src/log.ts';
import type { JobResult } from '../../src/jobs/job.ts';
import { createMetrics } from '../../src/metrics.ts';

let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('scheduler', () => {
  it('never runs one job twice at once, however wakes and runNow interleave', async () => {
    t = createTestContext();
    const scheduler = new Scheduler(t.ctx.leases, silentLogger(), createMetrics({ processMetrics: false }));
    let running = 0;
    let maxRunning = 0;
    let runs = 0;
    scheduler.add({
      name: 'google-reschedules',
      schedule: { everyMs: 3_600_000 },
      run: async () => {
        running++;
        runs++;
        maxRunning = Math.max(maxRunning, running);
        await new Promise((r) => setTimeout(r, 20));
        running--;
        return { status: 'success' };
      },
    });
    scheduler.wake('google-reschedules');
    scheduler.wake('google-reschedules'); // during the first run: one more run right after it
    const result = await scheduler.runNow('google-reschedules');
    expect(result.status).toBe('success');
    expect(maxRunning).toBe(1);
    expect(runs).toBe(3);
    await scheduler.stop();
  });

  it('idle() waits for the run in flight and for the one a wake during it queued', async () => {
    t = createTestContext();
    const scheduler = new Scheduler(t.ctx.leases, silentLogger(), createMetrics({ processMetrics: false }));
    const ends: (() => void)[] = [];
    scheduler.add({
      name: 'google-reschedules',
      schedule: { everyMs: 3_600_000 },
      run: () => new Promise<JobResult>((r) => ends.push(() => r({ status: 'success' }))),
    });
    await scheduler.idle(); // nothing running: at once
    scheduler.wake('google-reschedules');
    scheduler.wake('google-reschedules'); // during the first run: one more right after it
    let idle = false;
    const idled = scheduler.idle().then(() => (idle = true));
    await new Promise((r) => setImmediate(r));
    ends[0]!();
    await new Promise((r) => setImmediate(r));
    expect(ends).toHaveLength(2); // the queued run has started
    expect(idle).toBe(false);
    ends[1]!();
    await idled;
    expect(ends).toHaveLength(2);
    await scheduler.stop();
  });
});

describe('one log line per job run', () => {
  function logged(): { log: ReturnType<typeof createLogger>; lines: () => Record<string, unknown>[] } {
    const written: string[] = [];
    const log = createLogger({ level: 'debug', stream: { write: (l) => written.push(l) } });
    return { log, lines: () => written.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'job run') };
  }

  it('at info with the job, its outcome, summary and milliseconds, under the module key; warn when failed; debug when idle', async () => {
    t = createTestContext();
    const { log, lines } = logged();
    const scheduler = new Scheduler(t.ctx.leases, log, createMetrics({ processMetrics: false }));
    let next: JobResult = { status: 'success', summary: '3 written', failed: 1 };
    scheduler.add({ name: 'google-writer', schedule: { everyMs: 3_600_000 }, run: async () => next });
    await scheduler.runNow('google-writer');
    next = { status: 'failed', summary: 'Google authorisation failed' };
    await scheduler.runNow('google-writer');
    next = { status: 'success', summary: 'nothing to write', idle: true };
    await scheduler.runNow('google-writer');
    expect(lines().map(({ level, module, job, outcome, summary, failed }) => ({ level, module, job, outcome, summary, failed }))).toEqual([
      { level: 'info', module: 'jobs', job: 'google-writer', outcome: 'success', summary: '3 written', failed: 1 },
      { level: 'warn', module: 'jobs', job: 'google-writer', outcome: 'failed', summary: 'Google authorisation failed', failed: undefined },
      { level: 'debug', module: 'jobs', job: 'google-writer', outcome: 'success', summary: 'nothing to write', failed: undefined },
    ]);
    expect(lines().every((l) => typeof l.ms === 'number')).toBe(true);
    await scheduler.stop();
  });
});

describe('job names', () => {
  it('are the JobName union: a misspelt name does not compile, and an unknown one is refused at run time', async () => {
    t = createTestContext();
    const scheduler = new Scheduler(t.ctx.leases, silentLogger(), createMetrics({ processMetrics: false }));
    const misspelt = () => {
      // @ts-expect-error `npm run typecheck` fails here the day wake() takes any string again
      scheduler.wake('pol');
      // @ts-expect-error and the same for runNow()
      return scheduler.runNow('deliverys');
    };
    await expect(misspelt()).rejects.toThrow('no job named deliverys');
  });

  it('a job added after start runs on its schedule; one removed stops, its run in flight awaited, and is unknown from then on', async () => {
    t = createTestContext();
    const scheduler = new Scheduler(t.ctx.leases, silentLogger(), createMetrics({ processMetrics: false }));
    scheduler.start();
    let runs = 0;
    let release: (() => void) | undefined;
    const ran = new Promise<void>((seen) =>
      scheduler.add({
        name: 'google.ana-writer',
        schedule: { everyMs: 20 },
        run: async () => {
          runs++;
          seen();
          if (runs === 1) await new Promise<void>((r) => (release = r));
          return { status: 'success' };
        },
      }),
    );
    await ran; // its interval started at once, though the scheduler started before it was added
    let removed = false;
    const removing = scheduler.remove('google.ana-writer').then(() => (removed = true));
    await new Promise((r) => setImmediate(r));
    expect(removed).toBe(false); // the run in flight is waited for
    release!();
    await removing;
    // Neither its schedule nor a wake reaches it any more.
    const after = runs;
    scheduler.wake('google.ana-writer');
    expect(runs).toBe(after);
    await expect(scheduler.runNow('google.ana-writer')).rejects.toThrow(/no job named google.ana-writer/);
    // The name is free again: the same account added back gets its job.
    scheduler.add({ name: 'google.ana-writer', schedule: { everyMs: 3_600_000 }, run: async () => ({ status: 'success' }) });
    expect((await scheduler.runNow('google.ana-writer')).status).toBe('success');
    await scheduler.stop();
  });
});
