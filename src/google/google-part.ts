// The Google mirror as a part of the daemon: the writer job, its status, readiness and metrics.
import type { Context } from '../context.ts';
import type { Part, Readiness } from '../part.ts';
import type { Job } from '../jobs/job.ts';
import type { GoogleConfig } from '../config/schema.ts';
import { systemClock } from '../core/clock.ts';
import { GoogleLinkStore } from '../store/google-link-store.ts';
import { GoogleWriter } from '../sync/google-writer.ts';
import { createGoogleAuth } from './auth.ts';
import { createCalendarAdapter } from './calendar-adapter.ts';
import { AUTH_HELP } from './errors.ts';
import { Pacer } from './pacer.ts';
import type { CalendarApi } from './port.ts';
import type { RetryPolicy } from './retry.ts';
import { RescheduleStore } from '../store/reschedule-store.ts';

export const WRITER_JOB = 'google-writer';
const STATE_KEY = 'google.writer';

interface SavedState {
  lastPassAt: number | null;
  authError: string | null;
  lastError: string | null;
  breaker: GoogleWriter['breaker'];
  pending: number;
}

export interface GooglePartOptions {
  /** Tests: faster retries and item backoff. */
  retry?: RetryPolicy;
  itemBackoff?: { baseMs: number; maxMs: number };
  writerIntervalMs?: number;
}

/** Readiness window (contract §3): three poll periods, or a minute if that is longer. */
export function readinessWindowMs(pollSchedule: string): number {
  const every = /^\*\/(\d+) \* \* \* \*$/.exec(pollSchedule.trim());
  const periodMs = every ? Number(every[1]) * 60_000 : 5 * 60_000;
  return Math.max(3 * periodMs, 60_000);
}

/** Each context's Google API, so the reverse sync shares the writer's auth, pacer and call metrics. */
const sharedApis = new WeakMap<Context, () => CalendarApi>();
export const calendarApiOf = (ctx: Context): (() => CalendarApi) | undefined => sharedApis.get(ctx);

export function createGooglePart(ctx: Context, options: GooglePartOptions = {}): Part | undefined {
  const cfg: GoogleConfig | undefined = ctx.config.google;
  if (!cfg || !cfg.enabled) return undefined;
  const { metrics, clock, log } = ctx;
  const calls = metrics.counter('google_calls_total', 'Google API calls by operation and outcome', ['op', 'outcome']);
  const writes = metrics.counter('google_writes_total', 'Google event writes by kind and outcome', ['kind', 'outcome']);
  const pendingGauge = metrics.gauge('google_pending', 'Appointments whose Google event differs from what was last written');
  const failedGauge = metrics.gauge('google_failed_items', 'Appointments whose last Google write failed');

  const startedAt = clock.now();
  let lastSuccessAt: number | null = null;
  let mode: 'service_account' | 'oauth' | null = null;
  // Pacing is about real time, whatever clock the rest of the part is given.
  const pacer = new Pacer(cfg.requests_per_minute, systemClock);
  let api: CalendarApi | undefined;
  const getApi = (): CalendarApi => {
    if (api) return api;
    const auth = createGoogleAuth(cfg, ctx.kv);
    mode = auth.mode;
    api = createCalendarAdapter({
      auth: auth.client,
      apiRoot: cfg.api_root,
      pacer,
      clock: systemClock,
      ...(options.retry ? { policy: options.retry } : {}),
      observer: {
        onCall: (op, outcome) => calls.inc({ op, outcome }),
        onSuccess: () => void (lastSuccessAt = clock.now()),
      },
    });
    return api;
  };
  sharedApis.set(ctx, getApi);

  const links = new GoogleLinkStore(ctx.db, clock);
  const reverseActions = new RescheduleStore(ctx.db, clock);
  const writer = new GoogleWriter({
    passBudgetMs: 45_000,
    db: ctx.db,
    clock,
    log: log.child({ part: 'google' }),
    appointments: ctx.appointments,
    links,
    api: getApi,
    mapping: cfg,
    breakerShare: cfg.breaker_share,
    ...(cfg.reverse_sync.enabled
      ? {
          onChangedInGoogle: () => ctx.wake('reverse-sync'),
          deletionsIgnored: cfg.reverse_sync.on_delete === 'ignore',
          reverseDecided: (key: string, etag: string) => reverseActions.latest(key)?.observedEtag === etag,
        }
      : {}),
    ...(options.itemBackoff ? { itemBackoff: options.itemBackoff } : {}),
    hooks: {
      onWrite: (kind, outcome) => writes.inc({ kind, outcome }),
      onPending: (pending, failed) => {
        pendingGauge.set(pending);
        failedGauge.set(failed);
      },
    },
  });
  const window = readinessWindowMs(ctx.config.poll.schedule);

  const job: Job = {
    name: WRITER_JOB,
    schedule: { everyMs: options.writerIntervalMs ?? 5_000 },
    // Short, so a killed process blocks the next one briefly; a pass stops taking new items well before.
    leaseMs: 60_000,
    async run(progress) {
      const result = await writer.pass(progress);
      // `status` runs in another process: it reads the writer's state from here.
      ctx.cursors.set(STATE_KEY, { lastPassAt: writer.lastPassAt, authError: writer.authError, lastError: writer.lastError, breaker: writer.breaker, pending: writer.pending } satisfies SavedState);
      // Nothing to write for a while: one cheap read keeps readiness honest about Google.
      const quiet = clock.now() - (lastSuccessAt ?? startedAt) > Math.min(window / 2, 60_000);
      if (result.status !== 'failed' && quiet && api) {
        await api.list(cfg.calendars[0]!.calendar_id, { maxResults: 1 }).catch((e: unknown) => {
          writer.lastError = e instanceof Error ? e.message : String(e);
        });
      }
      return result;
    },
  };
  const unsubscribe = ctx.appointments.onChange(() => ctx.wake(WRITER_JOB));

  return {
    name: 'google',
    jobs: [job],
    async stop() {
      unsubscribe();
    },
    status() {
      const counts = links.counts();
      // In this process, or as the last pass (maybe of `serve`) saved it.
      const s: SavedState = writer.lastPassAt !== null ? { ...writer } : (ctx.cursors.get<SavedState>(STATE_KEY) ?? { ...writer });
      return {
        enabled: true,
        auth: { mode: mode ?? (cfg.credentials.service_account_file ? 'service_account' : 'oauth'), ok: s.authError === null, error: s.authError },
        mirrored: counts.mirrored,
        pending: writer.lastPassAt !== null ? writer.pending : writer.plan().length,
        failed: counts.failed,
        failures: links.failures(20).map((f) => ({ ...f, nextAttemptAt: new Date(f.nextAttemptMs).toISOString() })),
        lastPassAt: s.lastPassAt && new Date(s.lastPassAt).toISOString(),
        lastSuccessAt: lastSuccessAt && new Date(lastSuccessAt).toISOString(),
        lastError: s.lastError,
        breaker: s.breaker,
        requestsPerMinute: cfg.requests_per_minute,
      };
    },
    readiness(): Readiness {
      const reasons: string[] = [];
      const warnings: string[] = [];
      if (writer.authError) reasons.push(`Google: ${writer.authError}. ${AUTH_HELP}`);
      else if (clock.now() - (lastSuccessAt ?? startedAt) > window) {
        reasons.push(`Google has not answered successfully for over ${Math.round(window / 60_000)} minutes${writer.lastError ? ` (last error: ${writer.lastError})` : ''}`);
      }
      if (writer.breaker) {
        warnings.push(`Google breaker: ${writer.breaker.deletes} deletions of ${writer.breaker.mirrored} mirrored events held; check the booking service, and if they are real run \`calbridge sync --allow-mass-changes\` once`);
      }
      return { reasons, warnings };
    },
  };
}
