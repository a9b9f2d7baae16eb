// How Google is named where calbridge speaks of any calendar target (sync/target/adapter.ts
// TargetWords): readiness, metric help and the activity.
import { targetPlace } from '../core/activity-words.ts';
import type { Messages } from '../core/i18n/index.ts';
import { PROP_HASH, PROP_KEY, type EventBody } from '../core/mirror/desired-event.ts';

export function googleWords(calendars: readonly string[], m?: Messages) {
  return {
    name: 'Google',
    server: 'Google',
    item: 'Google event',
    place: targetPlace('google', calendars, m),
    madeIn: 'google' as const,
    // Each write has its own line in the activity ("added to Google, Mon 10:00").
    tellsEachWrite: true,
    // Google's reverse-sync metrics came first and carry no prefix: calbridge_reverse_*.
    reverseMetricsPrefix: '',
    reverseMetricsName: 'Google',
  };
}

/** What a Google event body of ours shows (a dry run's report). */
export function googleBodyFacts(body: EventBody) {
  return {
    appointmentKey: body.privateProperties[PROP_KEY] ?? null,
    title: body.summary,
    start: Date.parse(body.start.dateTime),
    end: Date.parse(body.end.dateTime),
    ourHash: body.privateProperties[PROP_HASH] ?? null,
  };
}

/** No Google push channel open while push is on: changes come on the schedule only. */
export const NO_PUSH_CHANNEL = 'Google reverse sync: no Google push channel is open; changes are picked up on the schedule only';
