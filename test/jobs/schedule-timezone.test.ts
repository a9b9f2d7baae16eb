// Schedules run in the business's time zone (booking.timezone) unless they name one with CRON_TZ=,
// as node-cron itself evaluates them, whatever zone this machine's clock is in.
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { createTestContext, testConfig, type TestContext } from '../helpers/context.ts';
import { Scheduler } from '../../src/jobs/scheduler.ts';
import { silentLogger } from '../../src/log.ts';
import { createMetrics } from '../../src/metrics.ts';
import { buildRuntime, type Runtime } from '../../src/wiring/runtime.ts';
import { type ConfigError, parseConfig } from '../../src/config/load.ts';

let t: TestContext | undefined;
let scheduler: Scheduler | undefined;
let runtime: Runtime | undefined;
afterEach(async () => {
  await scheduler?.stop();
  await runtime?.close();
  await t?.close();
  t = scheduler = runtime = undefined;
});

/** The local wall-clock time of an instant in a zone, e.g. "09:00". */
const wallClock = (at: Date | null, zone: string) => (at ? DateTime.fromJSDate(at, { zone }).toFormat('HH:mm') : 'never');

function nextNine(schedule: string, timezone: string): Date | null {
  t = createTestContext();
  scheduler = new Scheduler(t.ctx.leases, silentLogger(), createMetrics({ processMetrics: false }), { timezone });
  scheduler.add({ name: 'poll', schedule, run: async () => ({ status: 'success' }) });
  scheduler.start();
  return scheduler.nextRun('poll');
}

describe('schedules in the business time zone', () => {
  // Two zones twelve hours apart: whatever zone this machine is in, it can be at most one of them.
  it.each(['Asia/Tokyo', 'America/Sao_Paulo'])('"0 9 * * *" fires at nine in the morning in %s', (zone) => {
    expect(wallClock(nextNine('0 9 * * *', zone), zone)).toBe('09:00');
  });

  it('follows CRON_TZ= when the schedule names its own zone', () => {
    const next = nextNine('CRON_TZ=Asia/Tokyo 0 9 * * *', 'America/Sao_Paulo');
    expect(wallClock(next, 'Asia/Tokyo')).toBe('09:00');
    expect(wallClock(next, 'America/Sao_Paulo')).toBe('21:00');
  });

  it('runs the poll of a daemon at nine where the business is', async () => {
    t = createTestContext(); // for its temp folder: the runtime opens its own database there
    const dir = t.dir;
    const config = testConfig({
      booking: { timezone: 'Asia/Tokyo' },
      poll: { schedule: '0 9 * * *' },
      database: { path: join(dir, 'rt.db') },
    });
    runtime = await buildRuntime(config, { log: silentLogger(), processMetrics: false });
    runtime.scheduler.start();
    expect(wallClock(runtime.scheduler.nextRun('poll'), 'Asia/Tokyo')).toBe('09:00');
  });

  it('refuses an unknown zone in CRON_TZ= with its YAML path', () => {
    const text = [
      'server: {public_url: https://cal.example.com}',
      'booking: {base_url: https://booking.example.com, token: t}',
      'webhook: {secret: webhook-secret-0123456789}',
      'poll: {schedule: "CRON_TZ=Mars/Olympus 0 9 * * *"}',
    ].join('\n');
    let problems: ConfigError['problems'] = [];
    try {
      parseConfig(text, '/c.yaml', {});
    } catch (e) {
      problems = (e as ConfigError).problems;
    }
    expect(problems).toEqual([
      { path: 'poll.schedule', line: 4, message: 'CRON_TZ=Mars/Olympus is not an IANA time zone (e.g. CRON_TZ=Europe/Lisbon)' },
    ]);
  });
});
