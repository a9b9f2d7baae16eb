// The retention job as its tests drive it: a real database in a test context on a manual clock at
// 2026-01-01, the runtime's retention part and its job. One opener for every retention test file.
import { afterEach } from 'vitest';
import type { Config } from '../../src/config/schema.ts';
import { ManualClock } from '../../src/core/clock.ts';
import type { Job } from '../../src/jobs/job.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';

/** Call at a test file's top level: each context opened is closed after its test. */
export function retentionContexts() {
  let t: TestContext | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  return (config?: Config) => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    t = createTestContext({ clock, ...(config ? { config } : {}) });
    const part = t.runtime.parts.find((p) => p.name === 'retention')!;
    const job = part.jobs!.find((j): j is Job => j.name === 'retention')!;
    return { t, clock, part, job };
  };
}
