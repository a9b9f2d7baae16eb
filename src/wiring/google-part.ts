// The Google mirror as a part of the daemon: the writer job, its status, readiness and metrics.
// A committed appointment change wakes the writer through the store's change signal.
import { messagesOf } from '../config/voice.ts';
import type { GoogleConfig } from '../config/schema.ts';
import { targetPlace } from '../core/activity-words.ts';
import { desiredEvent } from '../core/mirror/desired-event.ts';
import type { Readiness } from '../core/readiness.ts';
import { AUTH_HELP } from '../google/errors.ts';
import { MirrorWriter } from '../sync/mirror-writer.ts';
import { readinessWindowMs } from '../sync/readiness-window.ts';
import type { GoogleConnection } from './google-connection.ts';
import type { Part } from './part.ts';
import type { Services } from './services.ts';
import { followChanges, probeAfterMs, silenceOf, writerCounting, writerFacts, writerJob } from './writer-job.ts';

const STATE_KEY = 'google.writer';

export interface GooglePartOptions {
  /** Per-item backoff after a failed write (tests: none). */
  itemBackoff?: { baseMs: number; maxMs: number };
}

export function createGooglePart(s: Services, google: GoogleConnection, cfg: GoogleConfig, options: GooglePartOptions = {}): Part {
  const { metrics, clock, links, actions } = s;
  const mapping = { ...cfg, messages: messagesOf(s.config) };
  const place = targetPlace('google', cfg.calendars.map((c) => c.calendar_id), messagesOf(s.config));
  const counting = writerCounting(metrics, 'google', 'Google event', {
    backfill: () => s.activity.backfillEntry(place),
    record: (kind, key) => s.activity.record({ kind: 'google-write', key, action: kind }),
  });

  const silence = silenceOf(clock, () => google.lastSuccessAt());
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
    desire: (a, revision, gone) => desiredEvent(a, revision, gone, mapping),
    breakerShare: cfg.breaker_share,
    ...(cfg.reverse_sync.enabled
      ? { reverse: { actions, deletions: cfg.reverse_sync.on_delete !== 'ignore', wake: () => s.wake('reverse-sync') } }
      : {}),
    ...(options.itemBackoff ? { itemBackoff: options.itemBackoff } : {}),
    hooks: counting.hooks,
  });
  const window = readinessWindowMs(s.config.poll.schedule);
  const wakeWriter = () => s.wake('google-writer');

  const job = writerJob({
    name: 'google-writer',
    writer,
    counting,
    stateKey: STATE_KEY,
    cursors: s.cursors,
    wake: wakeWriter,
    // Nothing to write for a while: one cheap read keeps readiness honest about Google.
    probe: () => silence() > probeAfterMs(window) && google.connected() ? google.api().list(cfg.calendars[0]!.calendar_id, { maxResults: 1 }) : undefined,
  });

  const unsubscribe = followChanges(s.appointments, writer, wakeWriter);

  return {
    name: 'google',
    jobs: [job],
    async stop() {
      unsubscribe();
    },
    status() {
      const { state, counts } = writerFacts({ writer, links, cursors: s.cursors, stateKey: STATE_KEY });
      const lastSuccessAt = google.lastSuccessAt();
      return {
        enabled: true,
        auth: { mode: google.mode(), ok: state.authError === null, error: state.authError },
        ...counts,
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
      else if (silence() > window) {
        warnings.push(`Google has not answered successfully for over ${Math.round(window / 60_000)} minutes (details in status: google.lastError)`);
      }
      if (writing.breaker) {
        warnings.push(`Google breaker: ${writing.breaker.deletes} deletions of ${writing.breaker.mirrored} mirrored events held; check the booking service, and if they are real run \`calbridge sync --allow-mass-changes\` once`);
      }
      return { reasons: [], warnings };
    },
  };
}
