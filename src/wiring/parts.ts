// The daemon's parts, in the order `sync` runs their jobs: ingest first (state from the booking
// service), then outputs (feeds, then each calendar target: its writer, then what flows back);
// retention is not part of a pass. A calendar target is one line here (wiring/target-part.ts).
import { readerOptions } from '../core/reader.ts';
import type { RetryPolicy } from '../net/retry-policy.ts';
import type { ApplyDeps } from '../sync/apply-record.ts';
import { GoneBreaker } from '../sync/gone-breaker.ts';
import { createFeedsPart } from './feeds-part.ts';
import { googleTarget } from './google-target.ts';
import { createIngestPart } from './ingest-part.ts';
import type { Part } from './part.ts';
import { createRetentionPart } from './retention-part.ts';
import { createActivityPart } from './activity-part.ts';
import { caldavTarget } from './caldav-target.ts';
import { microsoftTarget } from './microsoft-target.ts';
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

/** The one path from a booking record to stored state, with the runtime's one deletion breaker. */
export function applyDepsOf(s: Services): ApplyDeps {
  return {
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
}

export function createParts(s: Services, tuning: Tuning = {}): Part[] {
  const apply = applyDepsOf(s);
  const g = s.config.google?.enabled ? s.config.google : undefined;
  const c = s.config.caldav?.enabled ? s.config.caldav : undefined;
  const m = s.config.microsoft?.enabled ? s.config.microsoft : undefined;
  const parts: (Part | undefined)[] = [
    createIngestPart(s, apply),
    createWebhookRegistrationPart(s),
    s.config.feeds.length ? createFeedsPart(s) : undefined,
    g &&
      googleTarget(s, g, apply, {
        ...(tuning.googleRetry ? { retry: tuning.googleRetry } : {}),
        ...(tuning.googleItemBackoff ? { itemBackoff: tuning.googleItemBackoff } : {}),
      }),
    c &&
      caldavTarget(s, c, apply, {
        ...(tuning.caldavRetry ? { retry: tuning.caldavRetry } : {}),
        ...(tuning.caldavItemBackoff ? { itemBackoff: tuning.caldavItemBackoff } : {}),
      }),
    m &&
      microsoftTarget(s, m, apply, {
        ...(tuning.microsoftRetry ? { retry: tuning.microsoftRetry } : {}),
        ...(tuning.microsoftItemBackoff ? { itemBackoff: tuning.microsoftItemBackoff } : {}),
      }),
    createRetentionPart(s),
    createActivityPart(s),
  ];
  return parts.filter((p): p is Part => p !== undefined);
}
