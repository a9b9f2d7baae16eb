// The `microsoft-subscriptions` job (`microsoft.carla-subscriptions` for another account): one Graph subscription per mapped calendar, made through the
// validation handshake and renewed before half its life is gone (subscriptions.ts), every 15 minutes.
// The records are kept in the database, so a restart renews rather than subscribes again.
import type { Clock } from '../core/clock.ts';
import { errorMessage } from '../core/errors.ts';
import type { Job, JobName, JobResult } from '../jobs/job.ts';
import type { GraphHttp } from './graph-http.ts';
import { parseCalendarRef, type GraphTarget } from './graph-target.ts';
import { renew, renewalDue, subscribe, type SubscriptionRecord } from './subscriptions.ts';

export interface SubscriptionsJobDeps {
  name: JobName;
  http: GraphHttp;
  target: GraphTarget;
  calendars: readonly string[];
  /** The public base address, ending in `/`: the notification routes hang under it. */
  base: string;
  clock: Clock;
  records(): Record<string, SubscriptionRecord>;
  save(all: Record<string, SubscriptionRecord>): void;
  /** A new subscription knows nothing of what changed before it: the delta is read now. */
  readDelta(): void;
  /** The last run's failure, null when every calendar had its subscription. */
  onError(error: string | null): void;
}

export function subscriptionsJob(d: SubscriptionsJobDeps): Job {
  return {
    name: d.name,
    schedule: { everyMs: 15 * 60_000 },
    inSync: false,
    async run(): Promise<JobResult> {
      const all = d.records();
      const errors: string[] = [];
      let made = 0;
      let renewed = 0;
      for (const calendarId of d.calendars) {
        const now = d.clock.now();
        try {
          const current = all[calendarId];
          if (current && current.expiresAt > now && !renewalDue(current, now)) continue;
          const next = current && current.expiresAt > now ? await renew(d.http, parseCalendarRef(calendarId).user, current, now) : 'gone';
          if (next !== 'gone') {
            all[calendarId] = next;
            renewed++;
          } else {
            all[calendarId] = await subscribe(d.http, d.target, calendarId, {
              notificationUrl: `${d.base}microsoft/notifications`,
              lifecycleUrl: `${d.base}microsoft/lifecycle`,
              now,
            });
            made++;
            d.readDelta();
          }
        } catch (e) {
          errors.push(`${calendarId}: ${errorMessage(e)}`);
        }
        d.save(all);
      }
      const error = errors.length ? errors.join('; ') : null;
      d.onError(error);
      const summary = `${made} subscribed, ${renewed} renewed${error ? `; ${error}` : ''}`;
      return { status: errors.length ? 'failed' : 'success', summary, ...(made + renewed + errors.length === 0 ? { idle: true } : {}) };
    },
  };
}
