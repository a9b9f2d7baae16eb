// The Google writer, level-triggered (design principle 1): each pass compares the event every
// appointment should have with what we last wrote, and writes only the difference. A crash, a
// restart or a failed call loses nothing: the next pass finds the same difference again.
import type { Clock } from '../core/clock.ts';
import type { Logger } from '../log.ts';
import type { Db } from '../store/db.ts';
import type { AppointmentStore } from '../store/appointment-store.ts';
import type { GoogleLinkStore } from '../store/google-link-store.ts';
import type { JobResult, Progress } from '../jobs/job.ts';
import { breakerTrips, desiredEvent, isDesired, planAction, type DesiredEvent, type GoogleAction, type GoogleMapping, type NoEventReason } from '../core/google-plan.ts';
import { errorMessage } from '../core/errors.ts';
import { GoogleError, translateGoogleError } from '../google/errors.ts';
import type { CalendarApi } from '../google/port.ts';
import { backoffMs } from '../google/retry.ts';
import { applyAction, ChangedInGoogle } from './google-apply.ts';

export interface WriterHooks {
  onWrite?(kind: GoogleAction['kind'], outcome: 'ok' | GoogleError['kind']): void;
  onPending?(pending: number, failed: number): void;
}

export interface GoogleWriterDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  appointments: AppointmentStore;
  links: GoogleLinkStore;
  /** Built lazily: credentials may appear (google auth) while serve runs. Throws GoogleError('auth'). */
  api: () => CalendarApi;
  mapping: GoogleMapping;
  breakerShare: number;
  concurrency?: number;
  /** A pass stops taking new items after this long (the job's lease must outlast it); the rest waits for the next pass. */
  passBudgetMs?: number;
  /** Per-item backoff after a failed write (the call itself already retried). */
  itemBackoff?: { baseMs: number; maxMs: number };
  hooks?: WriterHooks;
  random?: () => number;
  /**
   * Set when reverse sync is on: an event a person moved or deleted in Google is left for it (woken
   * through this call) instead of being overwritten; the writer looks again after a short wait.
   */
  onChangedInGoogle?: (key: string) => void;
  /** With on_delete: ignore, a deleted event is revived by our next write rather than left to the reverse sync. */
  deletionsIgnored?: boolean;
  /** Whether the reverse sync already decided on this state (etag) of the event; deferring again would never end. */
  reverseDecided?: (key: string, etag: string) => boolean;
}

/** How soon the writer looks again at an event it left to the reverse sync. */
const CHANGED_IN_GOOGLE_WAIT_MS = 5_000;
/**
 * How long one state of an event is left to the reverse sync (woken at once) before the booking
 * service's state is written anyway: whatever the reverse sync decides, nothing waits forever.
 */
const CHANGED_IN_GOOGLE_GRACE_MS = 60_000;

export interface BreakerState {
  deletes: number;
  mirrored: number;
  at: number;
}

interface Work {
  key: string;
  revision: number;
  action: Exclude<GoogleAction, { kind: 'none' }>;
  desired: DesiredEvent | null;
  nextAttemptMs: number;
  attempts: number;
}

const QUOTA_BACKOFF_MS = 60 * 60_000;

export class GoogleWriter {
  /** Last desired event per appointment and revision, so unchanged ones are not re-rendered each pass. */
  private readonly memo = new Map<string, { revision: number; desired: DesiredEvent | { none: NoEventReason } }>();
  authError: string | null = null;
  lastError: string | null = null;
  lastPassAt: number | null = null;
  breaker: BreakerState | null = null;
  pending = 0;

  constructor(private readonly deps: GoogleWriterDeps) {}

  /** Every appointment whose desired event differs from what we last wrote. */
  plan(): Work[] {
    const { appointments, links: linkStore, mapping } = this.deps;
    const rows = this.deps.db.prepare('SELECT appointment_key AS key, revision, gone_at_ms AS gone FROM appointments').all() as {
      key: string;
      revision: number;
      gone: number | null;
    }[];
    const links = linkStore.all();
    const work: Work[] = [];
    for (const row of rows) {
      const link = links.get(row.key);
      let memo = this.memo.get(row.key);
      if (!memo || memo.revision !== row.revision) {
        const stored = appointments.get(row.key);
        if (!stored) continue;
        memo = { revision: stored.revision, desired: desiredEvent(stored.appointment, stored.revision, stored.goneAt !== null, mapping) };
        this.memo.set(row.key, memo);
      }
      const desired = isDesired(memo.desired) ? memo.desired : null;
      const action = planAction(row.key, desired, link);
      if (action.kind === 'none') {
        // Nothing Google shows changed (or an old failure no longer matters): note it, no call.
        if (link && (link.writtenRevision !== row.revision || link.lastError !== null)) linkStore.recordRevision(row.key, row.revision);
        continue;
      }
      work.push({ key: row.key, revision: memo.revision, action, desired, nextAttemptMs: link?.nextAttemptMs ?? 0, attempts: link?.attempts ?? 0 });
    }
    return work;
  }

  async pass(progress?: Progress): Promise<JobResult> {
    const { clock, log, links } = this.deps;
    const now = clock.now();
    this.lastPassAt = now;
    let work = this.plan();
    const deletes = work.filter((w) => w.action.kind === 'delete').length;
    const mirrored = links.counts().mirrored;
    this.breaker = null;
    if (breakerTrips(deletes, mirrored, this.deps.breakerShare)) {
      this.breaker = { deletes, mirrored, at: now };
      log.warn({ deletes, mirrored, share: this.deps.breakerShare }, 'Google breaker: too many deletions in one pass; deletions held, nothing deleted');
      work = work.filter((w) => w.action.kind !== 'delete');
    }
    const due = work.filter((w) => w.nextAttemptMs <= now);
    this.pending = work.length;
    let api: CalendarApi;
    try {
      api = this.deps.api();
    } catch (e) {
      return this.stopForAuth(translateGoogleError(e));
    }

    let done = 0;
    let written = 0;
    let failed = 0;
    let stop: GoogleError | null = null;
    const queue = [...due];
    const started = Date.now();
    const budget = this.deps.passBudgetMs ?? 90_000;
    const worker = async () => {
      for (let w = queue.shift(); w && !stop && Date.now() - started < budget; w = queue.shift()) {
        try {
          const reverse = this.deps.onChangedInGoogle !== undefined;
          const allowed = (key: string, etag: string) => this.mayDefer(key, etag);
          await applyAction({ api, links, defer: { moves: reverse, deletions: reverse && !this.deps.deletionsIgnored, allowed } }, w);
          this.deferrals.delete(w.key);
          written++;
          this.pending--;
          this.deps.hooks?.onWrite?.(w.action.kind, 'ok');
        } catch (e) {
          if (e instanceof ChangedInGoogle) {
            links.postpone(w.key, this.deps.clock.now() + CHANGED_IN_GOOGLE_WAIT_MS);
            this.deps.onChangedInGoogle?.(w.key);
            progress?.(++done, due.length);
            continue;
          }
          const err = translateGoogleError(e);
          failed++;
          this.deps.hooks?.onWrite?.(w.action.kind, err.kind);
          this.recordFailure(w, err);
          if (err.kind === 'auth' || err.kind === 'quota_exceeded') stop = err;
        }
        progress?.(++done, due.length);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, this.deps.concurrency ?? 4) }, worker));
    this.deps.hooks?.onPending?.(this.pending, links.counts().failed);
    if (stop && (stop as GoogleError).kind === 'auth') return this.stopForAuth(stop);
    this.authError = null;
    const waiting = work.length - due.length;
    const unreached = stop ? 0 : queue.length; // the time budget ran out before these
    const summary = `${written} written, ${failed} failed, ${waiting} waiting for a retry${unreached ? `, ${unreached} left for the next pass` : ''}${this.breaker ? `, ${deletes} deletions held by the breaker` : ''}`;
    return { status: 'success', summary, failed: failed + (this.breaker ? deletes : 0), more: unreached > 0 };
  }

  private readonly deferrals = new Map<string, { etag: string; since: number }>();

  /** Leave this state of the event to the reverse sync while it has not decided on it, for a grace period. */
  private mayDefer(key: string, etag: string): boolean {
    if (this.deps.reverseDecided?.(key, etag)) return false;
    const now = this.deps.clock.now();
    const seen = this.deferrals.get(key);
    if (seen?.etag !== etag) {
      this.deferrals.set(key, { etag, since: now });
      return true;
    }
    return now - seen.since < CHANGED_IN_GOOGLE_GRACE_MS;
  }

  private recordFailure(w: Work, err: GoogleError): void {
    const { clock, links, log } = this.deps;
    const base = this.deps.itemBackoff ?? { baseMs: 30_000, maxMs: 60 * 60_000 };
    const delay = err.kind === 'quota_exceeded' ? QUOTA_BACKOFF_MS : backoffMs(w.attempts, base.baseMs, base.maxMs, this.deps.random);
    const target = w.action.kind === 'move' || w.action.kind === 'insert'
      ? { calendarId: w.action.calendarId, eventId: w.action.eventId, generation: w.action.generation }
      : { calendarId: w.action.calendarId, eventId: w.action.eventId, generation: 0 };
    links.recordFailure(w.key, target, err.message, clock.now() + delay);
    this.lastError = err.message;
    log.warn({ appointment: w.key, action: w.action.kind, kind: err.kind, err: err.message, retryInMs: delay }, 'Google write failed');
  }

  private stopForAuth(err: GoogleError): JobResult {
    this.authError = err.message;
    this.lastError = err.message;
    this.deps.log.error({ err: err.message }, 'Google authorisation failed');
    return { status: 'failed', summary: `Google authorisation failed: ${errorMessage(err)}` };
  }
}
