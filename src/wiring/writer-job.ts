// A calendar target's writer as a job, for any target: its metrics (calbridge_<target>_writes_total,
// _pending, _failed_items), one pass per run, a cheap probe when the target has been quiet (so
// readiness stays honest), and the writer's state saved for a `status` run in another process.
import type { Job, JobName } from '../jobs/job.ts';
import type { Metrics } from '../metrics.ts';
import type { GoogleLinkStore } from '../store/google-link-store.ts';
import type { KvStore } from '../store/kv-store.ts';
import type { MirrorWriter, WriterHooks, WriterStatus } from '../sync/mirror-writer.ts';

export interface WriterCounting {
  hooks: WriterHooks;
  /** Writes attempted since the last reset (a pass with none is idle). */
  writesThisPass(): number;
  resetPass(): void;
}

/** `prefix`: google or caldav; `what`: "Google event", "CalDAV object"; `onOk`: after each successful write. */
export function writerCounting(metrics: Metrics, prefix: string, what: string, onOk?: (kind: string, key: string) => void): WriterCounting {
  const target = what.split(' ')[0];
  const writes = metrics.counter(`${prefix}_writes_total`, `${what} writes by kind and outcome`, ['kind', 'outcome']);
  const pendingGauge = metrics.gauge(`${prefix}_pending`, `Appointments whose ${what} differs from what was last written`);
  const failedGauge = metrics.gauge(`${prefix}_failed_items`, `Appointments whose last ${target} write failed`);
  let count = 0;
  return {
    hooks: {
      onWrite: (kind, outcome, key) => {
        count++;
        writes.inc({ kind, outcome });
        if (outcome === 'ok') onOk?.(kind, key);
      },
      onPending: (pending, failed) => {
        pendingGauge.set(pending);
        failedGauge.set(failed);
      },
    },
    writesThisPass: () => count,
    resetPass: () => void (count = 0),
  };
}

export interface WriterJobOptions<B> {
  name: JobName;
  writer: MirrorWriter<B>;
  counting: WriterCounting;
  /** Where the state is saved (`status` runs in another process and reads it from there). */
  stateKey: string;
  cursors: KvStore;
  /** One cheap request, when the target has been quiet; undefined when none is due. */
  probe(): Promise<unknown> | undefined;
}

export function writerJob<B>(o: WriterJobOptions<B>): Job {
  return {
    name: o.name,
    schedule: { everyMs: 5_000 },
    // Short, so a killed process blocks the next one briefly; a pass stops taking new items well before.
    leaseMs: 60_000,
    async run(progress) {
      o.counting.resetPass();
      const result = await o.writer.pass(progress);
      let state = o.writer.status();
      if (result.status !== 'failed') {
        await o.probe()?.catch((e: unknown) => {
          state = { ...state, lastError: e instanceof Error ? e.message : String(e) };
        });
      }
      o.cursors.set(o.stateKey, state satisfies WriterStatus);
      return { ...result, ...(result.status === 'success' && o.counting.writesThisPass() === 0 && !result.more ? { idle: true } : {}) };
    },
  };
}

/**
 * What status shows of a writer: its state as the last pass (maybe of `serve`) saved it, or this
 * process's before its first pass, and the counts from the links.
 */
export function writerFacts<B>(o: { writer: MirrorWriter<B>; links: GoogleLinkStore; cursors: KvStore; stateKey: string }) {
  const counts = o.links.counts();
  const own = o.writer.status();
  const state: WriterStatus = o.cursors.get<WriterStatus>(o.stateKey) ?? own;
  return {
    state,
    counts: {
      mirrored: counts.mirrored,
      pending: own.lastPassAt !== null ? own.pending : o.writer.plan().length,
      failed: counts.failed,
      failures: o.links.failures(20).map((f) => ({ ...f, nextAttemptAt: new Date(f.nextAttemptMs).toISOString() })),
    },
  };
}
