// Recent activity as a part: its section of `status` and /api/status (the status page shows it
// first of all). Entries are recorded where changes happen (services.activity.record), not here.
import type { Part } from './part.ts';
import type { Services } from './services.ts';

/** As many as the status page shows. */
const RECENT_ACTIVITY = 50;

export function createActivityPart(s: Pick<Services, 'activity'>): Part {
  return {
    name: 'activity',
    status: () => ({
      activity: {
        recent: s.activity.recent(RECENT_ACTIVITY).map((e) => ({
          at: new Date(e.at).toISOString(),
          appointment: e.label,
          direction: e.direction,
          kind: e.kind,
          summary: e.summary,
          reason: e.reason,
        })),
      },
    }),
  };
}
