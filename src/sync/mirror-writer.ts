// The writer of a calendar target, level-triggered (ARCHITECTURE.md, principle 1): each pass compares the
// event every appointment should have with what we last wrote, and writes only the difference. A
// crash, a restart or a failed call loses nothing: the next pass finds the same difference again.
// Written for any target (core/mirror/target.ts); the decisions are the mirror core's.
import type { Appointment } from '../core/appointment.ts';
import { backoffMs, type BackoffPolicy } from '../core/backoff.ts';
import type { Clock } from '../core/clock.ts';
import { breakerTrips } from '../core/mirror/breakers.ts';
import { isDesired, type Desired, type DesiredEvent } from '../core/mirror/desired-event.ts';
import { contentOf, failedContentOf, retryDueAt } from '../core/mirror/retry-due.ts';
import { asTargetError, provesAccess, type CalendarTarget, type TargetErrorKind } from '../core/mirror/target.ts';
import { takesPersonsEdit } from '../core/mirror/write-decide.ts';
import { failureSuperseded, notesRevision, planWrite, type EventIdOf, type WriteAction } from '../core/mirror/write-plan.ts';
import type { JobResult, Progress } from '../jobs/job.ts';
import type { Logger } from '../log.ts';
import type { AppointmentStore } from '../store/appointment-store.ts';
import type { LinkStore, PlanRow } from '../store/link-store.ts';
import type { RescheduleStore } from '../store/reschedule-store.ts';
import { applyWrite, type WriteDeps, type WriteOutcome } from './mirror-apply.ts';

export interface WriterHooks {
  /** `key`: the appointment whose event was written (the activity names it). */
  onWrite?(kind: WriteAction['kind'], outcome: 'ok' | TargetErrorKind, key: string): void;
  onPending?(pending: number, failed: number): void;
}

export interface MirrorWriterDeps<B> {
  clock: Clock;
  log: Logger;
  appointments: AppointmentStore;
  links: LinkStore;
  /** Built lazily: credentials may appear (google auth) while serve runs. Throws TargetError('auth'). */
  target: () => CalendarTarget<B>;
  /** The event an appointment should have in this target, or why none. */
  desire: (a: Appointment, revision: number, gone: boolean) => Desired<B>;
  /** The target's event id of an appointment (Google's derived id unless given). */
  idOf?: EventIdOf;
  breakerShare: number;
  /** The booking calendars the account maps (its mapping's calendar_key values); "*" or none: every one. */
  calendarKeys?: readonly string[];
  concurrency?: number;
  /** A pass stops taking new items after this long (the job's lease must outlast it); the rest waits for the next pass. */
  passBudgetMs?: number;
  /**
   * Within this long (real time) of a pass over every appointment, a pass that has changes noted
   * (noteChange) plans only those: a change costs one row's planning, not a pass over all of them.
   * Default 0: every pass looks at every appointment.
   */
  fullPassEveryMs?: number;
  /** Per-item backoff after a failed write (the call itself already retried). */
  itemBackoff?: BackoffPolicy;
  hooks?: WriterHooks;
  random?: () => number;
  /**
   * Set when the reverse sync is on: a move (and, unless on_delete is ignore, a deletion) a person
   * made in the target is left to it, by the rules of core/mirror/write-decide.ts.
   */
  reverse?: {
    /** Its decisions (what it last decided per appointment, and whether that is carried out). */
    actions: Pick<RescheduleStore, 'latestDecision'>;
    deletions: boolean;
    /** Wakes it when the writer leaves it a change. */
    wake(): void;
  };
}

export interface BreakerState {
  deletes: number;
  mirrored: number;
  at: number;
}

/** The writer's part of `status`: plain data, also saved for a `status` run in another process. */
export interface WriterStatus {
  lastPassAt: number | null;
  authError: string | null;
  lastError: string | null;
  breaker: BreakerState | null;
  pending: number;
}

interface Work<B> {
  key: string;
  revision: number;
  action: Exclude<WriteAction, { kind: 'none' }>;
  desired: DesiredEvent<B> | null;
  /** What this write makes the target show (contentOf): recorded if it fails. */
  content: string;
  /** When it is due: a failed write's backoff, unless the appointment wants something else by now. */
  nextAttemptMs: number;
  attempts: number;
}

const QUOTA_BACKOFF_MS = 60 * 60_000;
const DEFAULT_ITEM_BACKOFF: BackoffPolicy = { baseMs: 30_000, maxMs: 60 * 60_000 };

/** One write, its failures as outcomes too; `proves`: the target answered and took our credentials. */
async function attempt<B>(deps: WriteDeps<B>, w: Work<B>): Promise<{ outcome: WriteOutcome; proves: boolean }> {
  try {
    return { outcome: await applyWrite(deps, w), proves: true };
  } catch (e) {
    const err = asTargetError(e);
    return { outcome: { kind: 'failed', error: err.kind, message: err.message }, proves: provesAccess(err) };
  }
}

export class MirrorWriter<B> {
  /** Last desired event per appointment and revision, so unchanged ones are not re-rendered each pass. */
  private readonly memo = new Map<string, { revision: number; desired: Desired<B> }>();
  private state: WriterStatus = { lastPassAt: null, authError: null, lastError: null, breaker: null, pending: 0 };
  /** Appointments changed since they were last planned: the running pass (or the next) takes them first. */
  private readonly changed = new Set<string>();
  /** performance.now() of the last pass over every appointment. */
  private fullAt = -Infinity;
  /** A deletion turned up among the changes: only a pass over everything may decide it (the breaker). */
  private fullNeeded = false;
  /** A write failed or was left for later: its retry is found by the next pass over everything. */
  private retryLater = false;
  /** While a pass runs: starts another of its workers (up to its concurrency) for a change just noted. */
  private grow: (() => void) | null = null;

  constructor(private readonly deps: MirrorWriterDeps<B>) {}

  status(): WriterStatus {
    return { ...this.state };
  }

  /** A committed change to one appointment: the pass running now, or the next, writes it first. */
  noteChange(key: string): void {
    this.changed.add(key);
    this.grow?.();
  }

  /** Every appointment whose desired event differs from what we last wrote. */
  plan(): Work<B>[] {
    return this.deps.links.plannable(this.deps.calendarKeys).flatMap((row) => this.planRow(row) ?? []);
  }

  /** The write one appointment needs, or null. */
  private planRow(row: PlanRow): Work<B> | null {
    const { appointments, links } = this.deps;
    let memo = this.memo.get(row.key);
    if (!memo || memo.revision !== row.revision) {
      const stored = appointments.get(row.key);
      if (!stored) return null;
      memo = { revision: stored.revision, desired: this.deps.desire(stored.appointment, stored.revision, stored.goneAt !== null) };
      this.memo.set(row.key, memo);
    }
    const desired = isDesired(memo.desired) ? memo.desired : null;
    const action = planWrite(row.key, desired, row.link, this.deps.idOf);
    if (action.kind === 'none') {
      // Nothing the target shows changed (or an old failure no longer matters): note it, no call.
      if (notesRevision(row.link, row.revision)) links.recordRevision(row.key, row.revision);
      return null;
    }
    if (action.kind === 'update' && desired && row.link) {
      // A person's move the booking service took: the event shows what we want; taken, not written.
      const edit = takesPersonsEdit(row.link, this.deps.reverse?.actions.latestDecision(row.key), desired.hash);
      if (edit) {
        const { calendarId, eventId, generation } = row.link;
        links.recordWrite(row.key, {
          calendarId,
          eventId,
          generation,
          present: true,
          hash: desired.hash,
          etag: edit.etag,
          start: desired.start,
          end: desired.end,
          revision: row.revision,
        });
        this.deps.log.debug({ appointment: row.key }, "calendar event taken as the person left it: it shows the booking service's state");
        return null;
      }
    }
    if (failureSuperseded(row.link, action)) links.forgetError(row.key);
    const content = contentOf(desired);
    return {
      key: row.key,
      revision: memo.revision,
      action,
      desired,
      content,
      nextAttemptMs: retryDueAt(row.link, content),
      attempts: row.link?.attempts ?? 0,
    };
  }

  /**
   * Plans the noted changes, except keys being written right now (they stay noted for later).
   * A deletion is left to a pass over everything, where the breaker sees all deletions together.
   */
  private planChanged(busy: ReadonlySet<string>): Work<B>[] {
    const work: Work<B>[] = [];
    for (const key of this.changed) {
      if (busy.has(key)) continue;
      this.changed.delete(key);
      const row = this.deps.links.plannableOne(key, this.deps.calendarKeys);
      const w = row && this.planRow(row);
      if (!w) continue;
      if (w.action.kind === 'delete') this.fullNeeded = true;
      else work.push(w);
    }
    return work;
  }

  async pass(progress?: Progress): Promise<JobResult> {
    const { clock, log, links } = this.deps;
    const now = clock.now();
    let work: Work<B>[] = [];
    // Planned on their own: changes noted since a recent pass over everything. A pass with nothing
    // noted was started by the schedule or by hand, and looks at everything.
    let full =
      this.changed.size === 0 || this.fullNeeded || this.retryLater || performance.now() - this.fullAt >= (this.deps.fullPassEveryMs ?? 0);
    if (!full) {
      work = this.planChanged(new Set());
      full = this.fullNeeded;
    }
    let deletes = 0;
    let breaker = this.state.breaker;
    let pending = this.state.pending;
    if (full) {
      this.fullAt = performance.now();
      this.fullNeeded = false;
      this.retryLater = false;
      this.changed.clear();
      work = this.plan();
      deletes = work.filter((w) => w.action.kind === 'delete').length;
      const mirrored = deletes ? links.counts().mirrored : 0;
      breaker = null;
      if (breakerTrips(deletes, mirrored, this.deps.breakerShare)) {
        breaker = { deletes, mirrored, at: now };
        log.warn(
          { deletes, mirrored, share: this.deps.breakerShare },
          'breaker: too many deletions in one pass; deletions held, nothing deleted',
        );
        work = work.filter((w) => w.action.kind !== 'delete');
      }
      pending = work.length;
    } else {
      // A change planned on its own is pending until written too (status, and whoever waits for 0);
      // the next pass over everything counts exactly again.
      pending += work.filter((w) => w.nextAttemptMs <= now).length;
    }
    const due = work.filter((w) => w.nextAttemptMs <= now);
    this.state = { ...this.state, lastPassAt: now, breaker, pending };
    let target: CalendarTarget<B>;
    try {
      target = this.deps.target();
    } catch (e) {
      return this.stopForAuth(asTargetError(e).message);
    }
    const reverse = this.deps.reverse;
    const writeDeps: WriteDeps<B> = {
      target,
      links,
      clock,
      reverse: reverse ? { moves: true, deletions: reverse.deletions } : null,
      decision: (key) => reverse?.actions.latestDecision(key),
      ...(this.deps.idOf ? { idOf: this.deps.idOf } : {}),
    };

    let done = 0;
    let total = due.length;
    let written = 0;
    let failed = 0;
    let stop: { kind: TargetErrorKind; message: string } | null = null;
    // Only an answer from the target clears an auth failure: a pass with nothing due proves nothing.
    let answered = false;
    const queue = [...due];
    const busy = new Set<string>();
    // Changes committed while this pass runs go first: a person's new booking does not wait behind a backfill.
    const next = (): Work<B> | undefined => {
      if (this.changed.size) {
        const fresh = this.planChanged(busy).filter((w) => w.nextAttemptMs <= clock.now());
        if (fresh.length) {
          const keys = new Set(fresh.map((w) => w.key));
          const before = queue.length;
          for (let i = queue.length - 1; i >= 0; i--) if (keys.has((queue[i] as Work<B>).key)) queue.splice(i, 1);
          const added = fresh.length - (before - queue.length);
          total += added;
          this.state.pending = pending += added;
          queue.unshift(...fresh);
        }
      }
      return queue.shift();
    };
    const started = Date.now();
    const budget = this.deps.passBudgetMs ?? 90_000;
    const worker = async () => {
      while (!stop && Date.now() - started < budget) {
        const w = next();
        if (!w) return;
        busy.add(w.key);
        const { outcome, proves } = await attempt(writeDeps, w);
        busy.delete(w.key);
        answered ||= proves;
        if (outcome.kind === 'written') {
          written++;
          this.state.pending = pending = Math.max(0, pending - 1);
          this.deps.hooks?.onWrite?.(w.action.kind, 'ok', w.key);
        } else if (outcome.kind === 'left') {
          this.retryLater = true;
          reverse?.wake();
        } else {
          this.retryLater = true;
          failed++;
          this.deps.hooks?.onWrite?.(w.action.kind, outcome.error, w.key);
          this.recordFailure(w, outcome.error, outcome.message);
          if (outcome.error === 'auth' || outcome.error === 'quota_exceeded') stop = { kind: outcome.error, message: outcome.message };
        }
        progress?.(++done, total);
      }
    };
    // A worker ends when it finds the queue empty; a change noted later starts one again, so changes
    // arriving one by one during a long pass are not left to a single worker, one call after another.
    const width = Math.max(1, this.deps.concurrency ?? 4);
    const workers = new Set<Promise<void>>();
    const spawn = () => {
      if (workers.size >= width || stop || Date.now() - started >= budget) return;
      const p: Promise<void> = worker().finally(() => workers.delete(p));
      workers.add(p);
    };
    // Deferred: the change signal may come from inside the store's transaction.
    this.grow = () => queueMicrotask(spawn);
    try {
      for (let i = 0; i < width; i++) spawn();
      while (workers.size) await Promise.all([...workers]);
    } finally {
      this.grow = null;
    }
    if (full) this.deps.hooks?.onPending?.(pending, links.counts().failed);
    const stopped = stop as { kind: TargetErrorKind; message: string } | null;
    if (stopped?.kind === 'auth') return this.stopForAuth(stopped.message);
    if (answered) this.state.authError = null;
    const waiting = work.length - due.length;
    const unreached = stopped ? 0 : queue.length; // the time budget ran out before these
    // Changes noted too late for this pass's workers, or a deletion only a full pass may decide.
    const more = unreached > 0 || this.fullNeeded || (!stopped && this.changed.size > 0);
    const summary = `${written} written, ${failed} failed, ${waiting} waiting for a retry${unreached ? `, ${unreached} left for the next pass` : ''}${breaker && full ? `, ${deletes} deletions held by the breaker` : ''}`;
    return { status: 'success', summary, failed: failed + (breaker && full ? deletes : 0), more };
  }

  private recordFailure(w: Work<B>, kind: TargetErrorKind, message: string): void {
    const { clock, links, log } = this.deps;
    const delay =
      kind === 'quota_exceeded'
        ? QUOTA_BACKOFF_MS
        : backoffMs(w.attempts, this.deps.itemBackoff ?? DEFAULT_ITEM_BACKOFF, this.deps.random ?? Math.random);
    const target =
      w.action.kind === 'move' || w.action.kind === 'insert'
        ? { calendarId: w.action.calendarId, eventId: w.action.eventId, generation: w.action.generation }
        : { calendarId: w.action.calendarId, eventId: w.action.eventId, generation: 0 };
    links.recordFailure(w.key, target, message, clock.now() + delay, failedContentOf(kind, w.content));
    this.state.lastError = message;
    log.warn({ appointment: w.key, action: w.action.kind, kind, err: message, retryInMs: delay }, 'calendar write failed');
  }

  private stopForAuth(message: string): JobResult {
    this.state = { ...this.state, authError: message, lastError: message };
    this.deps.log.error({ err: message }, 'calendar authorisation failed');
    return { status: 'failed', summary: `authorisation failed: ${message}` };
  }
}
