// The Google mirror as a part of the daemon: the writer job, its status, readiness and metrics.
// A committed appointment change wakes the writer through the store's change signal.
import type { GoogleConfig } from '../config/schema.ts';
import { desiredEvent } from '../core/mirror/desired-event.ts';
import type { Readiness } from '../core/readiness.ts';
import type { Job } from '../jobs/job.ts';
import { AUTH_HELP } from '../google/errors.ts';
import { MirrorWriter, type WriterStatus } from '../sync/mirror-writer.ts';
import { readinessWindowMs } from '../sync/readiness-window.ts';
import type { GoogleConnection } from './google-connection.ts';
import type { Part } from './part.ts';
import type { Services } from './services.ts';

const STATE_KEY = 'google.writer';

export interface GooglePartOptions {
  /** Per-item backoff after a failed write (tests: none). */
  itemBackoff?: { baseMs: number; maxMs: number };
}

export function createGooglePart(s: Services, google: GoogleConnection, cfg: GoogleConfig, options: GooglePartOptions = {}): Part {
  const { metrics, clock, links, actions } = s;
  const writes = metrics.counter('google_writes_total', 'Google event writes by kind and outcome', ['kind', 'outcome']);
  const pendingGauge = metrics.gauge('google_pending', 'Appointments whose Google event differs from what was last written');
  const failedGauge = metrics.gauge('google_failed_items', 'Appointments whose last Google write failed');

  const startedAt = clock.now();
  let writesThisPass = 0;
  const writer = new MirrorWriter({
    passBudgetMs: 45_000,
    // Calls overlap: the pacer, not one-at-a-time round trips, holds a backfill at the quota.
    concurrency: 10,
    // Between the schedule's passes over everything, a change is planned on its own (noteChange below).
    fullPassEveryMs: 4_000,
    clock,
    log: s.log.child({ module: 'google' }),
    appointments: s.appointments,
    links,
    target: () => google.target(),
    desire: (a, revision, gone) => desiredEvent(a, revision, gone, cfg),
    breakerShare: cfg.breaker_share,
    ...(cfg.reverse_sync.enabled
      ? { reverse: { actions, deletions: cfg.reverse_sync.on_delete !== 'ignore', wake: () => s.wake('reverse-sync') } }
      : {}),
    ...(options.itemBackoff ? { itemBackoff: options.itemBackoff } : {}),
    hooks: {
      onWrite: (kind, outcome, key) => {
        writesThisPass++;
        writes.inc({ kind, outcome });
        if (outcome === 'ok') s.activity.record({ kind: 'google-write', key, action: kind });
      },
      onPending: (pending, failed) => {
        pendingGauge.set(pending);
        failedGauge.set(failed);
      },
    },
  });
  const window = readinessWindowMs(s.config.poll.schedule);
  let lastSaved = '';
  let savedAt: number | null = null;

  const job: Job = {
    name: 'google-writer',
    schedule: { everyMs: 5_000 },
    // Short, so a killed process blocks the next one briefly; a pass stops taking new items well before.
    leaseMs: 60_000,
    async run(progress) {
      writesThisPass = 0;
      const result = await writer.pass(progress);
      let state = writer.status();
      // Nothing to write for a while: one cheap read keeps readiness honest about Google.
      const quiet = clock.now() - (google.lastSuccessAt() ?? startedAt) > Math.min(window / 2, 60_000);
      if (result.status !== 'failed' && quiet && google.connected()) {
        await google
          .api()
          .list(cfg.calendars[0]!.calendar_id, { maxResults: 1 })
          .catch((e: unknown) => {
            state = { ...state, lastError: e instanceof Error ? e.message : String(e) };
          });
      }
      // `status` runs in another process: it reads the writer's state from here (written when it
      // changed beyond the pass's time, not for every change the writer carries to Google).
      const saved = JSON.stringify({ ...state, lastPassAt: null } satisfies WriterStatus);
      if (saved !== lastSaved || clock.now() - (savedAt ?? 0) >= 60_000) {
        s.cursors.set(STATE_KEY, state);
        lastSaved = saved;
        savedAt = clock.now();
      }
      // A backfill longer than one pass carries on at once, not at the next tick: the pacer holds the rate.
      if (result.more) s.wake('google-writer');
      return { ...result, ...(result.status === 'success' && writesThisPass === 0 && !result.more ? { idle: true } : {}) };
    },
  };

  // The store's change signal is how a new or changed appointment reaches the writer: at once, and
  // into a pass already running (a backfill) ahead of its older work.
  const unsubscribe = s.appointments.changes.subscribe(({ key }) => {
    writer.noteChange(key);
    s.wake('google-writer');
  });

  return {
    name: 'google',
    jobs: [job],
    async stop() {
      unsubscribe();
    },
    status() {
      const counts = links.counts();
      // This process's writer once it has passed; before that, as `serve`'s last saved it.
      const own = writer.status();
      const state: WriterStatus = own.lastPassAt !== null ? own : (s.cursors.get<WriterStatus>(STATE_KEY) ?? own);
      const lastSuccessAt = google.lastSuccessAt();
      return {
        enabled: true,
        auth: { mode: google.mode(), ok: state.authError === null, error: state.authError },
        mirrored: counts.mirrored,
        pending: own.lastPassAt !== null ? own.pending : writer.plan().length,
        failed: counts.failed,
        failures: links.failures(20).map((f) => ({ ...f, nextAttemptAt: new Date(f.nextAttemptMs).toISOString() })),
        lastPassAt: state.lastPassAt && new Date(state.lastPassAt).toISOString(),
        lastSuccessAt: lastSuccessAt && new Date(lastSuccessAt).toISOString(),
        lastError: state.lastError,
        breaker: state.breaker,
        requestsPerMinute: cfg.requests_per_minute,
        rateLimited: google.rateLimited(),
      };
    },
    // Only warnings (feeds and webhooks work without Google), in our own words: Google's error text,
    // which can name accounts, stays in status (auth.error, lastError).
    readiness(): Readiness {
      const warnings: string[] = [];
      const writing = writer.status();
      if (writing.authError) warnings.push(AUTH_HELP);
      else if (clock.now() - (google.lastSuccessAt() ?? startedAt) > window) {
        warnings.push(`Google has not answered successfully for over ${Math.round(window / 60_000)} minutes (details in status: google.lastError)`);
      }
      if (writing.breaker) {
        warnings.push(`Google breaker: ${writing.breaker.deletes} deletions of ${writing.breaker.mirrored} mirrored events held; check the booking service, and if they are real run \`calbridge sync --allow-mass-changes\` once`);
      }
      return { reasons: [], warnings };
    },
  };
}
