// The daemon's parts, in the order `sync` runs their jobs: ingest first (state from the booking
// service), then outputs (feeds, Google, CalDAV), then what flows back (reverse sync); retention is not
// part of a pass. Google's writer and reverse sync share one connection (one auth, one quota).
import { readerOptions } from '../core/reader.ts';
import type { RetryPolicy } from '../net/retry-policy.ts';
import type { ApplyDeps } from '../sync/apply-record.ts';
import { GoneBreaker } from '../sync/gone-breaker.ts';
import { connectGoogle } from './google-connection.ts';
import { googleForRun } from './held-target.ts';
import { createFeedsPart } from './feeds-part.ts';
import { createGooglePart } from './google-part.ts';
import { createIngestPart } from './ingest-part.ts';
import type { Part } from './part.ts';
import { createRetentionPart } from './retention-part.ts';
import { createActivityPart } from './activity-part.ts';
import { createCalDavPart } from './caldav-part.ts';
import { createMicrosoftPart } from './microsoft-part.ts';
import { createReverseSyncPart } from './reverse-sync-part.ts';
import type { Services } from './services.ts';
import { createWebhookRegistrationPart } from './webhook-registration-part.ts';

/** Timings tests shorten; a daemon uses the defaults. */
export interface Tuning {
  /** Retries of one Google call. */
  googleRetry?: RetryPolicy;
  /** Backoff of an appointment whose Google write failed. */
  googleItemBackoff?: { baseMs: number; maxMs: number };
  /** Retries of one CalDAV request. */
  caldavRetry?: RetryPolicy;
  /** Backoff of an appointment whose CalDAV write failed. */
  caldavItemBackoff?: { baseMs: number; maxMs: number };
  /** Retries of one Graph request, and the backoff of an appointment whose Outlook write failed. */
  microsoftRetry?: RetryPolicy;
  microsoftItemBackoff?: { baseMs: number; maxMs: number };
  /** Retries of one ntfy or webhook alert request. */
  alertRetry?: RetryPolicy;
}

export function createParts(s: Services, tuning: Tuning = {}): Part[] {
  // The one path from a booking record to stored state, with the runtime's one deletion breaker.
  const apply: ApplyDeps = {
    appointments: s.appointments,
    reader: readerOptions(s.config.booking),
    filters: s.config.poll.filters,
    gone: new GoneBreaker({
      appointments: s.appointments,
      cursors: s.cursors,
      clock: s.clock,
      log: s.log.child({ module: 'ingest' }),
      metrics: s.metrics,
      perHour: s.config.poll.max_gone_per_hour,
    }),
  };
  const g = s.config.google?.enabled ? s.config.google : undefined;
  const connection = g && connectGoogle({ config: g, kv: s.kv, clock: s.clock, metrics: s.metrics, ...(tuning.googleRetry ? { retry: tuning.googleRetry } : {}) });
  const google = connection && googleForRun(connection, s);
  const parts: (Part | undefined)[] = [
    createIngestPart(s, apply),
    createWebhookRegistrationPart(s),
    s.config.feeds.length ? createFeedsPart(s) : undefined,
    g && google && createGooglePart(s, google, g, tuning.googleItemBackoff ? { itemBackoff: tuning.googleItemBackoff } : {}),
    g && google && g.reverse_sync.enabled ? createReverseSyncPart(s, google, g, apply) : undefined,
    s.config.caldav?.enabled
      ? createCalDavPart(s, s.config.caldav, apply, {
          ...(tuning.caldavRetry ? { retry: tuning.caldavRetry } : {}),
          ...(tuning.caldavItemBackoff ? { itemBackoff: tuning.caldavItemBackoff } : {}),
        })
      : undefined,
    s.config.microsoft?.enabled
      ? createMicrosoftPart(s, s.config.microsoft, apply, {
          ...(tuning.microsoftRetry ? { retry: tuning.microsoftRetry } : {}),
          ...(tuning.microsoftItemBackoff ? { itemBackoff: tuning.microsoftItemBackoff } : {}),
        })
      : undefined,
    createRetentionPart(s),
    createActivityPart(s),
  ];
  return parts.filter((p): p is Part => p !== undefined);
}
