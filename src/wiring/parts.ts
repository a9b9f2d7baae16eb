// The daemon's parts, in the order `sync` runs their jobs: ingest first (state from the booking
// service), then outputs (feeds, then each calendar account: its writer, then what flows back);
// retention is not part of a pass. A calendar account is one case here (accountPart), over the one
// builder (wiring/target-part.ts); the set of accounts is wiring/target-accounts.ts.
import { readerOptions } from '../core/reader.ts';
import type { RetryPolicy } from '../net/retry-policy.ts';
import type { ApplyDeps } from '../sync/apply-record.ts';
import { accountsOf } from '../config/accounts.ts';
import type { Config } from '../config/schema.ts';
import type { AccountSpec } from './account-spec.ts';
import { GoneBreaker } from '../sync/gone-breaker.ts';
import { createFeedsPart } from './feeds-part.ts';
import { googleTarget } from './google-target.ts';
import { createIngestPart } from './ingest-part.ts';
import type { Part } from './part.ts';
import { createRetentionPart } from './retention-part.ts';
import { createActivityPart } from './activity-part.ts';
import { createConnectPart } from './connect-part.ts';
import { caldavTarget } from './caldav-target.ts';
import { microsoftTarget } from './microsoft-target.ts';
import { createTargetAccounts, type JobHost, type TargetAccounts } from './target-accounts.ts';
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

/** The part of one calendar account: its writer, reverse sync, push, status and readiness. */
function accountPart(s: Services, apply: ApplyDeps, spec: AccountSpec, tuning: Tuning = {}): Part {
  switch (spec.kind) {
    case 'google':
      return googleTarget(s, spec, apply, {
        ...(tuning.googleRetry ? { retry: tuning.googleRetry } : {}),
        ...(tuning.googleItemBackoff ? { itemBackoff: tuning.googleItemBackoff } : {}),
      });
    case 'caldav':
      return caldavTarget(s, spec, apply, {
        ...(tuning.caldavRetry ? { retry: tuning.caldavRetry } : {}),
        ...(tuning.caldavItemBackoff ? { itemBackoff: tuning.caldavItemBackoff } : {}),
      });
    case 'microsoft':
      return microsoftTarget(s, spec, apply, {
        ...(tuning.microsoftRetry ? { retry: tuning.microsoftRetry } : {}),
        ...(tuning.microsoftItemBackoff ? { itemBackoff: tuning.microsoftItemBackoff } : {}),
      });
  }
}

/** Every calendar account of the config, in the order written: google's, caldav's, microsoft's. */
export function configuredAccounts(config: Config): AccountSpec[] {
  const all = accountsOf(config);
  return [
    ...all.google.map((a) => ({ kind: 'google' as const, ...a })),
    ...all.caldav.map((a) => ({ kind: 'caldav' as const, ...a })),
    ...all.microsoft.map((a) => ({ kind: 'microsoft' as const, ...a })),
  ];
}

export interface Parts {
  /** Before the calendar accounts: ingest, webhook registration, feeds. */
  before: Part[];
  /** The calendar accounts, changing while serving. */
  accounts: TargetAccounts;
  /** After them: retention, activity. */
  after: Part[];
}

export function createParts(s: Services, jobs: JobHost, tuning: Tuning = {}): Parts {
  const apply = applyDepsOf(s);
  const before: (Part | undefined)[] = [
    createIngestPart(s, apply),
    createWebhookRegistrationPart(s),
    s.config.feeds.length ? createFeedsPart(s) : undefined,
  ];
  return {
    before: before.filter((p): p is Part => p !== undefined),
    accounts: createTargetAccounts(s, {
      configured: configuredAccounts(s.config),
      build: (spec) => accountPart(s, apply, spec, tuning),
      jobs,
    }),
    after: [createRetentionPart(s), createActivityPart(s), createConnectPart(s)],
  };
}
