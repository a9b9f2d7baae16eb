// The status document: what `status --json` prints, /api/status serves and the status page reads.
// One schema, snake_case keys, every time an ISO 8601 instant (UTC). Published as a JSON Schema in
// docs/status.schema.json (`npm run status-schema` writes it; a test keeps the file equal to this).
// A section's producer returns its type from here, so what is served cannot drift from what is read.
import { z } from 'zod';

/** An instant, ISO 8601 in UTC: `2026-06-15T13:00:00.000Z`. */
const instant = z.iso.datetime().describe('An instant, ISO 8601 in UTC');
const maybeInstant = instant.nullable();
const count = z.number().int().nonnegative();

// --- calendar targets (Google, CalDAV, and each further adapter): one shape ------------------------

const writeFailure = z.strictObject({
  appointment_key: z.string(),
  event_id: z.string(),
  attempts: count,
  next_attempt_at: instant,
  last_error: z.string(),
});

const breaker = z
  .strictObject({ deletes: count, mirrored: count, at: instant })
  .describe('The writer breaker holding a pass that would delete this many of the mirrored events');

const setupProblem = z
  .strictObject({ kind: z.enum(['calendar_not_found', 'not_caldav']), calendar: z.string(), message: z.string() })
  .describe("A mistake in the account's section that no retry fixes");

const reverseProblem = z.strictObject({
  appointment_key: z.string(),
  action: z.string(),
  state: z.string(),
  reason: z.string().nullable(),
  detail: z.string().nullable(),
  new_start: instant,
  at: maybeInstant,
  attempts: count.optional(),
  next_attempt_at: maybeInstant.optional(),
});

const push = z.union([
  z.strictObject({ enabled: z.literal(true), address: z.string(), channels_active: count }),
  z.strictObject({ enabled: z.literal(false), why: z.string() }),
]);

export const reverseSyncSection = z.union([
  z.strictObject({
    enabled: z.literal(true),
    calendars: z.array(z.string()),
    on_conflict: z.enum(['revert', 'allow']),
    on_delete: z.enum(['recreate', 'cancel', 'ignore']),
    last_round_at: maybeInstant,
    last_ok_round_at: maybeInstant,
    last_error: z.string().nullable(),
    moves_detected: count,
    reschedules: z.strictObject({ done: count, reverted: count, conflicts: count, refused: count, pending: count, failed: count }),
    deletions: z.strictObject({ recreated: count, cancelled: count, ignored: count }),
    restored_booking_wins: count,
    held_by_breaker: count,
    problems: z.array(reverseProblem),
    /** Push channels, for a target that has them (Google's channels, Microsoft's Graph subscriptions). */
    push: push.optional(),
  }),
  z.strictObject({ enabled: z.literal(false) }),
]);
export type ReverseSyncSection = z.infer<typeof reverseSyncSection>;

export const targetSection = z.strictObject({
  enabled: z.literal(true),
  /** The adapter: google, caldav, microsoft. */
  kind: z.string(),
  /** The account, `{kind}.{name}`: google.default (its key in `targets`). */
  account: z.string(),
  /** Present for an account connected on the web (docs/reference/http.md, "Connect"), not written in the config. */
  connected: z.literal(true).optional(),
  calendars: z.array(z.string()),
  auth: z.strictObject({ ok: z.boolean(), error: z.string().nullable(), mode: z.enum(['service_account', 'oauth']).optional() }),
  mirrored: count,
  pending: count,
  failed: count,
  failures: z.array(writeFailure),
  last_pass_at: maybeInstant,
  last_success_at: maybeInstant,
  last_error: z.string().nullable(),
  breaker: breaker.nullable(),
  requests_per_minute: z.number().int().positive(),
  /** Usage-limit answers in this process (Google). */
  rate_limited: count.optional(),
  /** The server's address (CalDAV). */
  url: z.string().optional(),
  /** The Entra ID tenant and the kind of sign-in (Microsoft). */
  tenant: z.string().optional(),
  sign_in: z.enum(['app-only', 'delegated']).optional(),
  /** Each mailbox's lane: the most requests it had in flight, and until when Graph asked it to wait (Microsoft). */
  mailboxes: z.array(z.strictObject({ user: z.string(), peak_in_flight: count, paused_until: maybeInstant })).optional(),
  setup_problem: setupProblem.nullable().optional(),
  reverse_sync: reverseSyncSection,
});
export type TargetSection = z.infer<typeof targetSection>;
export type TargetFacts = Pick<TargetSection, 'rate_limited' | 'url' | 'setup_problem' | 'tenant' | 'sign_in' | 'mailboxes'> & {
  auth_mode?: 'service_account' | 'oauth';
};

// --- the booking side ----------------------------------------------------------------------------

const pollReport = z.strictObject({
  started_at: maybeInstant,
  seconds: z.number().nonnegative(),
  outcome: z.string(),
  window: z.strictObject({ from: maybeInstant, to: maybeInstant }),
  listed: count,
  created: count,
  changed: count,
  gone: count,
  held: count,
  unchanged: count,
  failed: count,
  skipped: z.array(z.string()).optional(),
  unannounced: count,
  error: z.string().optional(),
});

export const ingestSection = z.strictObject({
  appointments: z.strictObject({ total: count, active: count, done: count, cancelled: count, gone: count }),
  deliveries: z.strictObject({
    pending: count,
    retrying: count,
    failed: count,
    applied: count,
    oldest_pending_at: maybeInstant,
    last_errors: z.array(
      z.strictObject({
        appointment_key: z.string().nullable(),
        state: z.string(),
        attempts: count,
        error: z.string().nullable(),
        at: maybeInstant,
      }),
    ),
  }),
  webhook_rejections: z.strictObject({
    by_reason: z.record(z.string(), count),
    recent: z.array(z.strictObject({ at: maybeInstant, status: z.number().int(), reason: z.string(), detail: z.string().nullable() })),
  }),
  poll: z.strictObject({
    schedule: z.string(),
    last: pollReport.nullable(),
    last_success_at: maybeInstant,
    unannounced_changes_total: count,
  }),
  deletion_breaker: z.strictObject({
    max_gone_per_hour: count.nullable(),
    gone_last_hour: count,
    held: count,
    held_appointments: z.array(z.strictObject({ appointment_key: z.string(), reason: z.string(), since: maybeInstant })),
  }),
  booking_api: z.strictObject({
    last_ok_at: maybeInstant,
    last_error: z.strictObject({ at: maybeInstant, message: z.string() }).nullable(),
  }),
});
export type IngestSection = z.infer<typeof ingestSection>;

const webhookRegistrationSection = z.strictObject({
  register: z.boolean(),
  state: z.enum(['disabled', 'pending', 'registered', 'skipped', 'failed']),
  action: z.string().optional(),
  webhook_key: z.string().optional(),
  callback_url: z.string().optional(),
  error: z.string().optional(),
  at: instant.optional(),
});

const feedsSection = z.strictObject({
  feeds: z.array(
    z.strictObject({
      name: z.string(),
      privacy: z.string(),
      events: count,
      last_change: maybeInstant,
      url: z.string().optional(),
      webcal: z.string().optional(),
    }),
  ),
});

export const retentionSection = z.strictObject({
  kept_days: z.strictObject({ processed_deliveries: z.number(), webhook_announcements: z.number(), settled_reverse_actions: z.number() }),
  last_run_at: maybeInstant,
  last_deleted: z.strictObject({ processed_deliveries: count, webhook_announcements: count, settled_reverse_actions: count }).nullable(),
});
export type RetentionSection = z.infer<typeof retentionSection>;

export const activitySection = z.strictObject({
  recent: z.array(
    z.strictObject({
      at: instant,
      appointment: z.string().nullable(),
      direction: z.string(),
      kind: z.string(),
      summary: z.string(),
      reason: z.string().nullable(),
    }),
  ),
});
export type ActivitySection = z.infer<typeof activitySection>;

export const alertsSection = z.strictObject({
  enabled: z.boolean(),
  channels: z.array(z.string()),
  after_minutes: count,
  /** The problems that alert now, and whether their message went out. */
  problems: z.array(z.strictObject({ key: z.string(), sentence: z.string(), since: maybeInstant, sent: z.boolean() })),
  /** The messages sent, newest first; each channel's outcome: `sent` or why not. */
  last_sent: z.array(
    z.strictObject({
      at: instant,
      event: z.enum(['problem', 'recovered']),
      key: z.string(),
      sentence: z.string(),
      since: instant,
      channels: z.record(z.string(), z.string()),
    }),
  ),
});
export type AlertsSection = z.infer<typeof alertsSection>;

/** The whole document. A section is absent when its part is not there (no feeds configured; a runtime built without it). */
export const statusDocument = z
  .strictObject({
    version: z.string(),
    now: instant,
    ingest: ingestSection.optional(),
    webhook_registration: webhookRegistrationSection.optional(),
    feeds: feedsSection.optional(),
    /** Each calendar target's account, by its name `{kind}.{name}`: google.default, caldav.default. */
    targets: z.record(z.string(), targetSection),
    retention: retentionSection.optional(),
    activity: activitySection.optional(),
    alerts: alertsSection.optional(),
  })
  .meta({ title: 'calbridge status document', description: 'What `calbridge status --json` prints and GET /api/status serves.' });
export type StatusDocument = z.infer<typeof statusDocument>;

/** What a part contributes to the document: its own section(s); `targets` entries are merged. */
export type StatusShare = Partial<Omit<StatusDocument, 'version' | 'now'>>;

/** The document from the parts' shares, in their order. */
export function assembleStatus(head: Pick<StatusDocument, 'version' | 'now'>, shares: readonly StatusShare[]): StatusDocument {
  const targets: StatusDocument['targets'] = {};
  const merged: StatusShare = {};
  for (const share of shares) {
    Object.assign(targets, share.targets);
    Object.assign(merged, share);
  }
  return { ...head, ...merged, targets };
}
