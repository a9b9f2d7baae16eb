// A real Context on a real SQLite file in a temp dir, for tests of parts and use-cases.
// Every test that builds one calls `close()` (afterEach) to close the database and remove the dir.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configSchema, type Config } from '../../src/config/schema.ts';
import { createContext, type Context } from '../../src/context.ts';
import { ManualClock, type Clock } from '../../src/core/clock.ts';
import type { BookingApi } from '../../src/booking/port.ts';
import { BookingError } from '../../src/booking/errors.ts';
import { openDatabase } from '../../src/store/db.ts';
import { createMetrics } from '../../src/metrics.ts';
import { silentLogger } from '../../src/log.ts';

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
    [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new BookingError('transient', 'the booking service is unreachable in this test')) }),
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
  ctx: Context;
  clock: Clock;
  dir: string;
  /** Job names passed to ctx.wake, in order. */
  woken: string[];
  close(): void;
}

export interface TestContextOptions {
  config?: Config;
  booking?: BookingApi;
  clock?: Clock;
  /** Replaces the default wake (which records names in `woken`). */
  wake?: (job: string) => void;
}

export function createTestContext(options: TestContextOptions = {}): TestContext {
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-test-'));
  const base = options.config ?? testConfig();
  const config: Config = { ...base, database: { ...base.database, path: join(dir, 'calbridge.db') } };
  const clock = options.clock ?? new ManualClock();
  const db = openDatabase(config.database.path, { synchronous: config.database.synchronous });
  const woken: string[] = [];
  const ctx: Context = createContext({
    config,
    db,
    clock,
    log: silentLogger(),
    metrics: createMetrics({ processMetrics: false }),
    booking: options.booking ?? unreachableBooking,
    leaseOwner: `test-${process.pid}`,
    wake: options.wake ?? ((job) => woken.push(job)),
  });
  return {
    ctx,
    clock,
    dir,
    woken,
    close() {
      if (db.open) db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
