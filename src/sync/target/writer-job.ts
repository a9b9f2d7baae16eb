// A calendar target's writer as a job, for any target: its metrics (calbridge_<target>_writes_total,
// _pending, _failed_items), one pass per run, a cheap probe when the target has been quiet (so
// readiness stays honest), and the writer's state saved for a `status` run in another process.
import type { Job, JobName } from '../../jobs/job.ts';
import type { Metrics } from '../../metrics.ts';
import type { LinkStore } from '../../store/link-store.ts';
import type { KvStore } from '../../store/kv-store.ts';
import type { AppointmentStore } from '../../store/appointment-store.ts';
import type { Clock } from '../../core/clock.ts';
import type { MirrorWriter, WriterHooks, WriterStatus } from '../mirror-writer.ts';
import type { ActivityEntry, BackfillEntry } from '../../store/activity-store.ts';

export interface WriterCounting {
  hooks: WriterHooks;
  /** Writes attempted since the last reset (a pass with none is idle). */
  writesThisPass(): number;
  resetPass(): void;
  /** A pass is over; `more`: the writer carries on at once (the backfill, if one runs, goes on). */
  passEnded(more: boolean): void;
}

/** What a target's writes tell the activity. */
export interface WriterActivity {
  /** A new entry for a backfill (ActivityStore.backfillEntry with the target's place). */
  backfill(): BackfillEntry;
  /** An appointment's own entry for a write (none for a target whose writes are not told one by one). */
  record?(kind: string, key: string): ActivityEntry | undefined;
}

/**
 * `prefix`: google or caldav; `what`: "Google event", "CalDAV object". New events written by the
 * passes until the writer has caught up are one backfill: more than BULK_ABOVE of them are told in
 * one entry; every other write (changes, moves, deletions) keeps its own entry.
 */
export function writerCounting(metrics: Metrics, prefix: string, what: string, activity?: WriterActivity): WriterCounting {
  const target = what.split(' ')[0];
  const writes = metrics.counter(`${prefix}_writes_total`, `${what} writes by kind and outcome`, ['kind', 'outcome']);
  const pendingGauge = metrics.gauge(`${prefix}_pending`, `Appointments whose ${what} differs from what was last written`);
  const failedGauge = metrics.gauge(`${prefix}_failed_items`, `Appointments whose last ${target} write failed`);
  let count = 0;
  let backfill: BackfillEntry | undefined;
  const told = (kind: string, key: string) => {
    if (!activity) return;
    const record = activity.record;
    const one = record && (() => record(kind, key));
    if (kind !== 'insert') return void one?.();
    backfill ??= activity.backfill();
    backfill.added(one);
  };
  return {
    hooks: {
      onWrite: (kind, outcome, key) => {
        count++;
        writes.inc({ kind, outcome });
        if (outcome === 'ok') told(kind, key);
      },
      onPending: (pending, failed) => {
        pendingGauge.set(pending);
        failedGauge.set(failed);
      },
    },
    writesThisPass: () => count,
    resetPass: () => void (count = 0),
    passEnded: (more) => {
      if (more) return;
      backfill?.done();
      backfill = undefined;
    },
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
  /** Runs the job again at once: a pass that ran out of time carries on (the pacer holds the rate). */
  wake?(): void;
}

/** The saved state is rewritten when it changed, and at least this often (its lastPassAt). */
const SAVE_EVERY_MS = 60_000;

export function writerJob<B>(o: WriterJobOptions<B>): Job {
  let lastSaved = '';
  let savedAt = -Infinity;
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
      // Saved when it changed beyond the pass's time, not for every change carried to the target.
      const saved = JSON.stringify({ ...state, lastPassAt: null } satisfies WriterStatus);
      if (saved !== lastSaved || Date.now() - savedAt >= SAVE_EVERY_MS) {
        o.cursors.set(o.stateKey, state);
        lastSaved = saved;
        savedAt = Date.now();
      }
      o.counting.passEnded(result.more === true);
      if (result.more) o.wake?.();
      return { ...result, ...(result.status === 'success' && o.counting.writesThisPass() === 0 && !result.more ? { idle: true } : {}) };
    },
  };
}

/**
 * What status shows of a writer: this process's state once its writer has passed; before that, as
 * the last pass (maybe of `serve`) saved it; and the counts from the links.
 */
export function writerFacts<B>(o: { writer: MirrorWriter<B>; links: LinkStore; cursors: KvStore; stateKey: string }) {
  const counts = o.links.counts();
  const own = o.writer.status();
  const state: WriterStatus = own.lastPassAt !== null ? own : (o.cursors.get<WriterStatus>(o.stateKey) ?? own);
  return {
    state,
    counts: {
      mirrored: counts.mirrored,
      pending: own.lastPassAt !== null ? own.pending : o.writer.plan().length,
      failed: counts.failed,
      failures: o.links.failures(20).map((f) => ({
        appointment_key: f.appointmentKey,
        event_id: f.eventId,
        attempts: f.attempts,
        next_attempt_at: new Date(f.nextAttemptMs).toISOString(),
        last_error: f.lastError,
      })),
    },
  };
}

/**
 * The store's change signal is how a new or changed appointment reaches a target's writer: at once,
 * and into a pass already running (a backfill) ahead of its older work. Returns the unsubscribe.
 */
export function followChanges<B>(appointments: AppointmentStore, writer: MirrorWriter<B>, wake: () => void): () => void {
  return appointments.changes.subscribe(({ key }) => {
    writer.noteChange(key);
    wake();
  });
}

/** Milliseconds since the target last answered well (since start, before its first answer). */
export function silenceOf(clock: Clock, lastSuccessAt: () => number | null): () => number {
  const startedAt = clock.now();
  return () => clock.now() - (lastSuccessAt() ?? startedAt);
}

/** A quiet target gets one cheap request after half the readiness window, at most a minute. */
export const probeAfterMs = (readinessWindow: number): number => Math.min(readinessWindow / 2, 60_000);
