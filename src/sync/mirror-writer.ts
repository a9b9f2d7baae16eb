// The writer of a calendar target, level-triggered (design principle 1): each pass compares the
// event every appointment should have with what we last wrote, and writes only the difference. A
// crash, a restart or a failed call loses nothing: the next pass finds the same difference again.
// Written for any target (core/mirror/target.ts); the decisions are the mirror core's.
import type { Appointment } from '../core/appointment.ts';
import { backoffMs, type BackoffPolicy } from '../core/backoff.ts';
import type { Clock } from '../core/clock.ts';
import { breakerTrips } from '../core/mirror/breakers.ts';
import { isDesired, type Desired, type DesiredEvent } from '../core/mirror/desired-event.ts';
import { asTargetError, provesAccess, type CalendarTarget, type TargetErrorKind } from '../core/mirror/target.ts';
import { failureSuperseded, notesRevision, planWrite, type EventIdOf, type WriteAction } from '../core/mirror/write-plan.ts';
import type { JobResult, Progress } from '../jobs/job.ts';
import type { Logger } from '../log.ts';
import type { AppointmentStore } from '../store/appointment-store.ts';
import type { GoogleLinkStore } from '../store/google-link-store.ts';
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
  links: GoogleLinkStore;
  /** Built lazily: credentials may appear (google auth) while serve runs. Throws TargetError('auth'). */
  target: () => CalendarTarget<B>;
  /** The event an appointment should have in this target, or why none. */
  desire: (a: Appointment, revision: number, gone: boolean) => Desired<B>;
  /** The target's event id of an appointment (Google's derived id unless given). */
  idOf?: EventIdOf;
  breakerShare: number;
  concurrency?: number;
  /** A pass stops taking new items after this long (the job's lease must outlast it); the rest waits for the next pass. */
  passBudgetMs?: number;
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

  constructor(private readonly deps: MirrorWriterDeps<B>) {}

  status(): WriterStatus {
    return { ...this.state };
  }

  /** Every appointment whose desired event differs from what we last wrote. */
  plan(): Work<B>[] {
    const { appointments, links } = this.deps;
    const work: Work<B>[] = [];
    for (const row of links.plannable()) {
      let memo = this.memo.get(row.key);
      if (!memo || memo.revision !== row.revision) {
        const stored = appointments.get(row.key);
        if (!stored) continue;
        memo = { revision: stored.revision, desired: this.deps.desire(stored.appointment, stored.revision, stored.goneAt !== null) };
        this.memo.set(row.key, memo);
      }
      const desired = isDesired(memo.desired) ? memo.desired : null;
      const action = planWrite(row.key, desired, row.link, this.deps.idOf);
      if (action.kind === 'none') {
        // Nothing the target shows changed (or an old failure no longer matters): note it, no call.
        if (notesRevision(row.link, row.revision)) links.recordRevision(row.key, row.revision);
        continue;
      }
      if (failureSuperseded(row.link, action)) links.forgetError(row.key);
      work.push({ key: row.key, revision: memo.revision, action, desired, nextAttemptMs: row.link?.nextAttemptMs ?? 0, attempts: row.link?.attempts ?? 0 });
    }
    return work;
  }

  async pass(progress?: Progress): Promise<JobResult> {
    const { clock, log, links } = this.deps;
    const now = clock.now();
    let work = this.plan();
    const deletes = work.filter((w) => w.action.kind === 'delete').length;
    const mirrored = links.counts().mirrored;
    let breaker: BreakerState | null = null;
    if (breakerTrips(deletes, mirrored, this.deps.breakerShare)) {
      breaker = { deletes, mirrored, at: now };
      log.warn({ deletes, mirrored, share: this.deps.breakerShare }, 'breaker: too many deletions in one pass; deletions held, nothing deleted');
      work = work.filter((w) => w.action.kind !== 'delete');
    }
    const due = work.filter((w) => w.nextAttemptMs <= now);
    let pending = work.length;
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
    let written = 0;
    let failed = 0;
    let stop: { kind: TargetErrorKind; message: string } | null = null;
    // Only an answer from the target clears an auth failure: a pass with nothing due proves nothing.
    let answered = false;
    const queue = [...due];
    const started = Date.now();
    const budget = this.deps.passBudgetMs ?? 90_000;
    const worker = async () => {
      for (let w = queue.shift(); w && !stop && Date.now() - started < budget; w = queue.shift()) {
        const { outcome, proves } = await attempt(writeDeps, w);
        answered ||= proves;
        if (outcome.kind === 'written') {
          written++;
          this.state.pending = --pending;
          this.deps.hooks?.onWrite?.(w.action.kind, 'ok', w.key);
        } else if (outcome.kind === 'left') {
          reverse?.wake();
        } else {
          failed++;
          this.deps.hooks?.onWrite?.(w.action.kind, outcome.error, w.key);
          this.recordFailure(w, outcome.error, outcome.message);
          if (outcome.error === 'auth' || outcome.error === 'quota_exceeded') stop = { kind: outcome.error, message: outcome.message };
        }
        progress?.(++done, due.length);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, this.deps.concurrency ?? 4) }, worker));
    this.deps.hooks?.onPending?.(pending, links.counts().failed);
    const stopped = stop as { kind: TargetErrorKind; message: string } | null;
    if (stopped?.kind === 'auth') return this.stopForAuth(stopped.message);
    if (answered) this.state.authError = null;
    const waiting = work.length - due.length;
    const unreached = stopped ? 0 : queue.length; // the time budget ran out before these
    const summary = `${written} written, ${failed} failed, ${waiting} waiting for a retry${unreached ? `, ${unreached} left for the next pass` : ''}${breaker ? `, ${deletes} deletions held by the breaker` : ''}`;
    return { status: 'success', summary, failed: failed + (breaker ? deletes : 0), more: unreached > 0 };
  }

  private recordFailure(w: Work<B>, kind: TargetErrorKind, message: string): void {
    const { clock, links, log } = this.deps;
    const delay = kind === 'quota_exceeded' ? QUOTA_BACKOFF_MS : backoffMs(w.attempts, this.deps.itemBackoff ?? DEFAULT_ITEM_BACKOFF, this.deps.random ?? Math.random);
    const target = w.action.kind === 'move' || w.action.kind === 'insert'
      ? { calendarId: w.action.calendarId, eventId: w.action.eventId, generation: w.action.generation }
      : { calendarId: w.action.calendarId, eventId: w.action.eventId, generation: 0 };
    links.recordFailure(w.key, target, message, clock.now() + delay);
    this.state.lastError = message;
    log.warn({ appointment: w.key, action: w.action.kind, kind, err: message, retryInMs: delay }, 'calendar write failed');
  }

  private stopForAuth(message: string): JobResult {
    this.state = { ...this.state, authError: message, lastError: message };
    this.deps.log.error({ err: message }, 'calendar authorisation failed');
    return { status: 'failed', summary: `authorisation failed: ${message}` };
  }
}
