// The runtime (the same builder as serve) with feeds configured, on a real SQLite file, requested
// through the app's own request() (no socket). `restart()` builds a new runtime on the same file:
// what a restarted daemon has.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../src/core/clock.ts';
import { silentLogger } from '../../src/log.ts';
import { buildRuntime, type Runtime } from '../../src/wiring/runtime.ts';
import type { Part } from '../../src/wiring/part.ts';
import type { Services } from '../../src/wiring/services.ts';
import { testConfig, unreachableBooking } from '../helpers/context.ts';

export const TOKEN = 'feed-token-0123456789-abcdef';
export const OTHER_TOKEN = 'other-feed-token-9876543210';

export interface FeedHarness {
  ctx: Services;
  clock: ManualClock;
  /** The feeds part. */
  part: Part;
  /** The runtime as it is now (a new one after restart()). */
  runtime: Runtime;
  get(path: string, headers?: Record<string, string>, method?: string): Promise<Response>;
  /** A new runtime over the same database: what a restarted daemon has (with other feeds, if given). */
  restart(feeds?: Record<string, unknown>[]): Promise<void>;
  /** The folder beside the database where assembled bodies are kept. */
  bodiesDir: string;
  rendered(): Promise<number>;
  close(): Promise<void>;
}

export function feedHarness(feeds: Record<string, unknown>[] = [{ name: 'Clinic', token: TOKEN }]): FeedHarness {
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-feeds-'));
  const configOf = (f: Record<string, unknown>[]) =>
    testConfig({ server: { public_url: 'https://cal.example.com/' }, database: { path: join(dir, 'calbridge.db') }, feeds: f });
  const clock = new ManualClock();
  const build = (f = feeds) =>
    buildRuntime(configOf(f), { log: silentLogger(), clock, booking: unreachableBooking, wake: () => undefined, processMetrics: false });
  let runtime: Runtime = build();
  return {
    get ctx() {
      return runtime.services;
    },
    clock,
    get runtime() {
      return runtime;
    },
    get part() {
      return runtime.parts.find((p) => p.name === 'feeds')!;
    },
    get: (path, headers = {}, method = 'GET') => Promise.resolve(runtime.app.request(path, { method, headers })),
    async restart(f) {
      await runtime.close();
      runtime = build(f);
    },
    bodiesDir: join(dir, 'calbridge.db-feeds'),
    async rendered() {
      const metric = await runtime.services.metrics.registry.getSingleMetric('calbridge_feed_events_rendered_total')?.get();
      return metric?.values[0]?.value ?? 0;
    },
    async close() {
      await runtime.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
