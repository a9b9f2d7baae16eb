// Retention: every table that only grows is pruned on a schedule, so the database stays the size of
// its retention window whatever the traffic. Deleted in small batches, each its own transaction,
// with the event loop free in between: the webhook receiver never waits on a long delete.
// What is kept, and for how long, is listed in docs/reference/behaviour.md, "Retention".
import type { Clock } from '../core/clock.ts';
import type { Job, JobResult } from '../jobs/job.ts';
import type { DeliveryStore } from '../store/delivery-store.ts';
import type { ConnectStore } from '../store/connect-store.ts';
import type { KvStore } from '../store/kv-store.ts';
import type { RescheduleStore } from '../store/reschedule-store.ts';
import type { RetentionSection } from '../status/status-document.ts';

export interface RetentionDeps {
  clock: Clock;
  deliveries: DeliveryStore;
  /** Reverse-sync actions of every account. */
  actions: RescheduleStore;
  cursors: KvStore;
  /** Invites to connect a calendar by a link. */
  invites: Pick<ConnectStore, 'purgeExpired' | 'pruneInvites'>;
}

const DAY = 24 * 60 * 60_000;

/** How long a row is kept once nothing depends on it, per table, and why that long. */
export const RETENTION_MS = {
  // Processed (done or failed) deliveries, their bodies cleared when processed: a week of what arrived
  // when, for status and for "did the webhook come?" questions. Nothing depends on them: a later
  // repeat of one is stored as a new delivery. Pending deliveries are never pruned.
  deliveries: 7 * DAY,
  // When a webhook last announced each appointment. The poll asks whether a change it finds was
  // announced since it last saw the appointment, a poll period ago: a week is far more than enough.
  announcements: 7 * DAY,
  // Settled reverse-sync actions: a month of moves, reverts and refusals for status. Pending ones,
  // and each appointment's latest action and latest completed reschedule, stay (see RescheduleStore.prune).
  reverseActions: 30 * DAY,
  // Invites past their expiry (used or not), with no secret left in them (see below): a month in
  // which a late sign-in is still told "this link expired" rather than "unknown".
  invites: 30 * DAY,
} as const;

const STATE_KEY = 'retention.last_run';
const BATCH = 500;

type Table = keyof typeof RETENTION_MS;

interface LastRun {
  at: number;
  deleted: Record<Table, number>;
}

/** Calls prune(limit) until a batch comes back short, yielding to the event loop between batches. */
async function inBatches(prune: (limit: number) => number): Promise<number> {
  let total = 0;
  for (;;) {
    const n = prune(BATCH);
    total += n;
    if (n < BATCH) return total;
    await new Promise((r) => setImmediate(r));
  }
}

/** The `retention` job, and its section of the status document. */
export function createRetention(s: RetentionDeps): { job: Job; status(): { retention: RetentionSection } } {
  const { deliveries, actions } = s;
  const days = (ms: number) => ms / DAY;

  const job: Job = {
    name: 'retention',
    schedule: { everyMs: 60 * 60_000 },
    inSync: false,
    async run(): Promise<JobResult> {
      const now = s.clock.now();
      const cutoff = (table: Table) => now - RETENTION_MS[table];
      const deleted: Record<Table, number> = {
        deliveries: await inBatches((limit) => deliveries.prune(cutoff('deliveries'), limit)),
        announcements: await inBatches((limit) => deliveries.pruneAnnouncements(cutoff('announcements'), limit)),
        reverseActions: await inBatches((limit) => actions.prune(cutoff('reverseActions'), limit)),
        invites: await inBatches((limit) => s.invites.pruneInvites(cutoff('invites'), limit)),
      };
      // An invite abandoned half way keeps its sealed sign-in (PKCE verifier, a refresh token or app
      // password waiting for a choice of calendar) until it expires, and not an hour longer.
      const purged = await inBatches((limit) => s.invites.purgeExpired(now, limit));
      s.cursors.set(STATE_KEY, { at: now, deleted } satisfies LastRun);
      const total = deleted.deliveries + deleted.announcements + deleted.reverseActions + deleted.invites + purged;
      if (total === 0) return { status: 'success', summary: 'nothing past its retention' };
      return {
        status: 'success',
        summary: `pruned ${deleted.deliveries} processed deliveries, ${deleted.announcements} webhook announcements, ${deleted.reverseActions} settled reverse-sync actions, ${deleted.invites} expired invites; forgot the sign-in data of ${purged} expired invites`,
      };
    },
  };

  return {
    job,
    status(): { retention: RetentionSection } {
      const last = s.cursors.get<LastRun>(STATE_KEY);
      const retention: RetentionSection = {
        kept_days: {
          processed_deliveries: days(RETENTION_MS.deliveries),
          webhook_announcements: days(RETENTION_MS.announcements),
          settled_reverse_actions: days(RETENTION_MS.reverseActions),
        },
        last_run_at: last ? new Date(last.at).toISOString() : null,
        last_deleted: last
          ? {
              processed_deliveries: last.deleted.deliveries,
              webhook_announcements: last.deleted.announcements,
              settled_reverse_actions: last.deleted.reverseActions,
            }
          : null,
      };
      return { retention };
    },
  };
}
