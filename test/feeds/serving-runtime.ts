// Runtimes built as `serve` builds them, with two feeds (one of what is on, one with the cancelled
// too) over a real SQLite file in a temporary folder; closed, and the folder removed, after each test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterEach, expect } from 'vitest';
import { buildRuntime, type Runtime } from '../../src/wiring/runtime.ts';
import { silentLogger } from '../../src/log.ts';
import { testConfig, unreachableBooking } from '../helpers/context.ts';

export const TOKEN = 'sliced-feed-token-0123456789';
export const ALL_TOKEN = 'sliced-all-token-0123456789';

type FeedEntry = Record<string, unknown>;

export const BOTH_FEEDS: FeedEntry[] = [
  { name: 'Clinic', token: TOKEN },
  { name: 'Everything', token: ALL_TOKEN, include_cancelled: true },
];

export interface ServingRuntimes {
  /** A new temporary folder's database file. */
  newPath(prefix: string): string;
  /** A runtime that has not started the feeds part (as `calbridge status` beside serve). */
  open(path: string, feeds?: FeedEntry[]): Runtime;
  /** As `serve` does: the feeds part started, so it keeps the members and counts from them. */
  serving(path: string, feeds?: FeedEntry[]): Promise<Runtime>;
}

/** Call at a test file's top level: registers the clean-up after each test. */
export function servingRuntimes(): ServingRuntimes {
  const runtimes: Runtime[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const r of runtimes.splice(0)) await r.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const open = (path: string, feeds = BOTH_FEEDS): Runtime => {
    const config = testConfig({ database: { path }, feeds });
    const runtime = buildRuntime(config, { log: silentLogger(), booking: unreachableBooking, processMetrics: false });
    runtimes.push(runtime);
    return runtime;
  };
  return {
    newPath(prefix) {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(dir);
      return join(dir, 'db.sqlite');
    },
    open,
    async serving(path, feeds) {
      const runtime = open(path, feeds);
      await runtime.parts.find((p) => p.name === 'feeds')!.start?.();
      return runtime;
    },
  };
}

/** Each feed's event count, as status shows it. */
export function feedCounts(runtime: Runtime): Record<string, number> {
  const feeds = (runtime.status() as { feeds: { feeds: { name: string; events: number }[] } }).feeds.feeds;
  return Object.fromEntries(feeds.map((f) => [f.name, f.events]));
}

/** One turn of the event loop: what was scheduled before runs first. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Lets the event loop turn until status shows these counts (status never waits for a pass over every
 * row; a pass ends within a bounded number of slices), and checks them.
 */
export async function countsBecome(runtime: Runtime, expected: Record<string, number>): Promise<void> {
  for (let turns = 0; turns < 10_000 && !isDeepStrictEqual(feedCounts(runtime), expected); turns++) await nextTurn();
  expect(feedCounts(runtime)).toEqual(expected);
}
