// What /metrics says about the process and its jobs: standard process_*/nodejs_* names, the build,
// and when each job last succeeded (the scheduler sets it; a failed or skipped run does not).
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { Scheduler } from '../../src/jobs/scheduler.ts';
import { silentLogger } from '../../src/log.ts';
import { createMetrics, type Metrics } from '../../src/metrics.ts';
import { Leases } from '../../src/store/leases.ts';

let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const sample = async (metrics: Metrics, name: string, labels: string) =>
  new RegExp(`^${name}\\{${labels}\\} (\\S+)$`, 'm').exec(await metrics.registry.metrics())?.[1];

describe('metrics', () => {
  it('uses the standard process and Node.js names, without a prefix of ours', async () => {
    const text = await createMetrics({ processMetrics: true }).registry.metrics();
    expect(text).toMatch(/^process_cpu_seconds_total \d/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d/m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes \d/m);
    expect(text).not.toContain('calbridge_process_');
    expect(text).not.toContain('calbridge_nodejs_');
  });

  it('says which calbridge and which Node.js run, with a gauge of 1', async () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    const metrics = createMetrics({ processMetrics: false });
    expect(
      await sample(
        metrics,
        'calbridge_build_info',
        `version="${version.replace(/\./g, '\\.')}",node="${process.versions.node.replace(/\./g, '\\.')}"`,
      ),
    ).toBe('1');
  });

  it('records when each job last succeeded, and leaves it alone when a run fails or is skipped', async () => {
    t = createTestContext();
    const metrics = createMetrics({ processMetrics: false });
    const scheduler = new Scheduler(t.ctx.leases, silentLogger(), metrics);
    let outcome: 'success' | 'failed' | 'throw' = 'success';
    scheduler.add({
      name: 'poll',
      schedule: { everyMs: 3_600_000 },
      run: async () => {
        if (outcome === 'throw') throw new Error('the booking service is down');
        return { status: outcome };
      },
    });
    expect(await sample(metrics, 'calbridge_job_last_success_timestamp_seconds', 'job="poll"')).toBeUndefined();

    const before = Date.now() / 1000;
    await scheduler.runNow('poll');
    const first = Number(await sample(metrics, 'calbridge_job_last_success_timestamp_seconds', 'job="poll"'));
    expect(first).toBeGreaterThanOrEqual(before);
    expect(first).toBeLessThanOrEqual(Date.now() / 1000);

    for (const o of ['failed', 'throw'] as const) {
      outcome = o;
      await new Promise((r) => setTimeout(r, 5));
      await scheduler.runNow('poll');
      expect(Number(await sample(metrics, 'calbridge_job_last_success_timestamp_seconds', 'job="poll"'))).toBe(first);
    }

    // Another process (on another host) holds the job's lease: this one skips, which is no success of its own.
    outcome = 'success';
    expect(new Leases(t.ctx.db, t.clock, 'other-host:1:abcd').acquire('job:poll', 60_000)).toBe(true);
    expect((await scheduler.runNow('poll')).status).toBe('skipped');
    expect(Number(await sample(metrics, 'calbridge_job_last_success_timestamp_seconds', 'job="poll"'))).toBe(first);
    await scheduler.stop();
  });
});
