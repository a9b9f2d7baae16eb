import { afterEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { Scheduler } from '../../src/jobs/scheduler.ts';
import { silentLogger } from '../../src/log.ts';
import { createMetrics } from '../../src/metrics.ts';

let t: TestContext | undefined;
afterEach(() => {
  t?.close();
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
      name: 'reschedules',
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
    scheduler.wake('reschedules');
    scheduler.wake('reschedules'); // during the first run: one more run right after it
    const result = await scheduler.runNow('reschedules');
    expect(result.status).toBe('success');
    expect(maxRunning).toBe(1);
    expect(runs).toBe(3);
    await scheduler.stop();
  });
});
