// WAL checkpoints off the event loop. SQLite's automatic checkpoint runs inside whichever commit
// crosses 1000 pages, copying pages and fsyncing the database file while the webhook receiver
// waits; measured, it is over half the cost of a stored delivery. In `serve`, once webhooks flood in,
// a worker thread with its own connection checkpoints instead (PASSIVE only: it never blocks a writer).
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import type { Db } from './db.ts';
import type { Logger } from '../log.ts';

// Plain JavaScript, so the worker needs no TypeScript loader.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 100');
function run() {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (e) {
    parentPort.postMessage({ error: String((e && e.message) || e) });
  }
}
const timer = setInterval(run, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  run();
  db.close();
  parentPort.postMessage({ stopped: true });
});
`;

const SQLITE_DEFAULT_AUTOCHECKPOINT = 1000;

export interface Checkpointer {
  stop(): Promise<void>;
}

export interface CheckpointerOptions {
  intervalMs?: number;
  /** WAL frames (pages) above which a WAL started over is truncated. */
  truncateFrames?: number;
  log: Logger;
}

/** Starts checkpointing `db` from a worker thread; undefined for an in-memory database. */
export function startCheckpointer(db: Db, options: CheckpointerOptions): Checkpointer | undefined {
  if (db.memory) return undefined;
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { driver, path: db.name, intervalMs: options.intervalMs ?? 200 },
  });
  worker.unref();
  const fallBack = () => {
    if (db.open) db.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
  };
  let warned = false;
  worker.on('message', (m: { error?: string }) => {
    if (m.error && !warned) {
      warned = true; // a busy checkpoint is retried on the next tick; say so once
      options.log.warn({ err: m.error }, 'background WAL checkpoint failed; retrying');
    }
  });
  worker.on('error', (e) => {
    options.log.warn({ err: e }, 'background WAL checkpointer stopped; SQLite checkpoints on its own again');
    fallBack();
  });
  db.pragma('wal_autocheckpoint = 0');
  // A WAL that grew under sustained load is cut back to this size when the writer starts it over
  // (once the checkpoints caught up): one ftruncate in that commit. A TRUNCATE checkpoint from the
  // thread did it before, but that kind blocks every writer while it copies and syncs, and no
  // webhook could be committed meanwhile.
  db.pragma(`journal_size_limit = ${(options.truncateFrames ?? 16_384) * (db.pragma('page_size', { simple: true }) as number)}`);
  return {
    async stop() {
      const stopped = new Promise<void>((resolve) => {
        worker.on('message', (m: { stopped?: boolean }) => m.stopped && resolve());
        worker.once('exit', () => resolve());
        setTimeout(resolve, 2000).unref();
      });
      worker.postMessage('stop');
      await stopped;
      await worker.terminate();
      fallBack();
    },
  };
}

/** Webhooks stored within FLOOD_WINDOW_MS that make a flood: 50 a second. */
export const FLOOD_DELIVERIES = 100;
const FLOOD_WINDOW_MS = 2000;

export interface BusyCheckpointer extends Checkpointer {
  /** The receiver committed `count` new deliveries. */
  stored(count: number): void;
}

/**
 * startCheckpointer once webhooks flood in, not before. The worker thread is its own V8 isolate:
 * starting it adds megabytes to the process's RSS, and terminating it gives back only part of
 * them (the pages Node touched to boot it stay resident). It is there for the receiver, whose
 * commits should not pay for a checkpoint while thousands of webhooks wait; other heavy writers (a
 * first import by the poll, a Google backfill) are background work, and SQLite's own checkpoint
 * inside their commits costs nobody a wait worth that memory. So it starts as soon as the receiver has stored
 * FLOOD_DELIVERIES within two seconds (counted as they are committed, so a flood has it from its
 * first tenth of a second), and then stays. stop() works either way.
 */
export function startCheckpointerWhenBusy(db: Db, options: CheckpointerOptions): BusyCheckpointer | undefined {
  if (db.memory) return undefined;
  let started: Checkpointer | undefined;
  let stopped = false;
  let windowStart = Number.NEGATIVE_INFINITY;
  let inWindow = 0;
  return {
    stored(count) {
      if (started || stopped || !db.open) return;
      const now = performance.now();
      if (now - windowStart > FLOOD_WINDOW_MS) {
        windowStart = now;
        inWindow = 0;
      }
      inWindow += count;
      if (inWindow >= FLOOD_DELIVERIES) started = startCheckpointer(db, options);
    },
    async stop() {
      stopped = true;
      await started?.stop();
    },
  };
}
