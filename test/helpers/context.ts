// The runtime for tests, through the same builder as `serve` (wiring/runtime.ts) on a real SQLite
// file in a temp dir, with fakes swapped in: a booking API, a clock, a wake that records.
// Every test that builds one awaits `close()` (afterEach) to close the database and remove the dir.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configSchema, type Config } from '../../src/config/schema.ts';
import { ManualClock, type Clock } from '../../src/core/clock.ts';
import type { BookingApi } from '../../src/booking/port.ts';
import { BookingError } from '../../src/booking/errors.ts';
import type { JobName, Wake } from '../../src/jobs/job.ts';
import { silentLogger, type Logger } from '../../src/log.ts';
import { buildRuntime, type Runtime } from '../../src/wiring/runtime.ts';
import type { Tuning } from '../../src/wiring/parts.ts';
import type { Services } from '../../src/wiring/services.ts';
import type { ConnectedAccounts } from '../../src/sync/target/connected-account.ts';

export const TEST_WEBHOOK_SECRET = 'test-webhook-secret-0123456789';

/** The minimal valid config (google off, no feeds) with `overrides` merged in section by section. */
export function testConfig(overrides: Record<string, unknown> = {}): Config {
  const base: Record<string, Record<string, unknown>> = {
    server: { host: '127.0.0.1', port: 0, public_url: 'http://127.0.0.1:8080' },
    database: { path: ':memory:' },
    booking: { base_url: 'http://127.0.0.1:9', token: 'test-booking-token', timezone: 'America/Sao_Paulo' },
    webhook: { secret: TEST_WEBHOOK_SECRET, register: false },
    poll: {},
  };
  const merged: Record<string, unknown> = { ...base };
  for (const [section, value] of Object.entries(overrides)) {
    const current = base[section];
    merged[section] = current && value && typeof value === 'object' && !Array.isArray(value) ? { ...current, ...value } : value;
  }
  return configSchema.parse(merged);
}

/** A booking API that refuses everything: for tests that must not reach the booking service. */
export const unreachableBooking: BookingApi = {
  listPages: () => ({
    [Symbol.asyncIterator]: () => ({
      next: () => Promise.reject(new BookingError('transient', 'the booking service is unreachable in this test')),
    }),
  }),
  getAppointment: () => Promise.reject(new BookingError('transient', 'the booking service is unreachable in this test')),
  updateStatus: () => Promise.reject(new BookingError('transient', 'unreachable')),
  reschedule: () => Promise.reject(new BookingError('transient', 'unreachable')),
  cancel: () => Promise.reject(new BookingError('transient', 'unreachable')),
  listWebhooks: () => Promise.reject(new BookingError('transient', 'unreachable')),
  createWebhook: () => Promise.reject(new BookingError('transient', 'unreachable')),
  updateWebhook: () => Promise.reject(new BookingError('transient', 'unreachable')),
  deleteWebhook: () => Promise.reject(new BookingError('transient', 'unreachable')),
};

export interface TestContext {
  /** The runtime's services: config, clock, stores over the real database, the booking client. */
  ctx: Services;
  /** The whole runtime, built by the same builder as `serve` (nothing started). */
  runtime: Runtime;
  clock: Clock;
  dir: string;
  /** Job names passed to wake, in order (unless a test gave its own wake). */
  woken: JobName[];
  close(): Promise<void>;
}

export interface TestContextOptions {
  config?: Config;
  booking?: BookingApi;
  clock?: Clock;
  /** Replaces the default wake (which records names in `woken`). */
  wake?: Wake;
  /** A wake runs the job on the runtime's scheduler, as in serve (instead of being recorded). */
  runJobs?: boolean;
  tuning?: Tuning;
  /** Log lines go here (default: nowhere). */
  log?: Logger;
  /** The calendar accounts connected on the web (default: none). */
  connectedAccounts?: ConnectedAccounts;
}

/** The runtime on a real SQLite file in a temp dir, fakes swapped in; `close()` (afterEach) removes it. */
export function createTestContext(options: TestContextOptions = {}): TestContext {
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-test-'));
  const base = options.config ?? testConfig();
  const config: Config = { ...base, database: { ...base.database, path: join(dir, 'calbridge.db') } };
  const clock = options.clock ?? new ManualClock();
  const woken: JobName[] = [];
  const runtime = buildRuntime(config, {
    log: options.log ?? silentLogger(),
    clock,
    booking: options.booking ?? unreachableBooking,
    ...(options.runJobs ? {} : { wake: options.wake ?? ((job) => void woken.push(job)) }),
    processMetrics: false,
    ...(options.tuning ? { tuning: options.tuning } : {}),
    ...(options.connectedAccounts ? { connectedAccounts: options.connectedAccounts } : {}),
  });
  return {
    ctx: runtime.services,
    runtime,
    clock,
    dir,
    woken,
    async close() {
      await runtime.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
