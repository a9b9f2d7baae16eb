// A calendar target as the one builder (build-target.ts) takes it: an adapter (what the target is
// and how to reach it) and its account (the part of the config every target has). Google, CalDAV
// and any further target are this shape; what differs between them stays in the adapter.
import type { JobName } from '../../jobs/job.ts';
import type { ActivityTarget } from '../../core/activity-words.ts';
import type { Appointment } from '../../core/appointment.ts';
import type { Desired } from '../../core/mirror/desired-event.ts';
import type { EventIdOf } from '../../core/mirror/write-plan.ts';
import type { CalendarTarget } from '../../core/mirror/target.ts';
import type { BodyFacts } from '../dry-run/capture-target.ts';
import type { ReverseSyncSection, TargetFacts } from '../../status/status-document.ts';

/**
 * An account of a target kind, named `{kind}.{name}` in status, readiness, links and state keys.
 * The single-account form of a section is the account `default`.
 */
export interface TargetAccount {
  kind: string;
  name: string;
  /** Connected on the web (its status says so: a refused sign-in is fixed by a new invite). */
  connected?: true;
  /** The target calendars its mapping writes to, each once. */
  calendars: readonly string[];
  /** The booking calendars its mapping takes (calendar_key values, "*" for every one); none given: every one. */
  calendarKeys?: readonly string[];
  requests_per_minute: number;
  breaker_share: number;
  reverse_sync: {
    enabled: boolean;
    schedule: string;
    on_conflict: 'revert' | 'allow';
    on_delete: 'recreate' | 'cancel' | 'ignore';
    /** Whether a cancellation made there is announced to the client (a target without it: never). */
    send_email?: boolean;
  };
}

/** google.default, caldav.ana. */
export const accountId = (a: Pick<TargetAccount, 'kind' | 'name'>): string => `${a.kind}.${a.name}`;

export type TargetJobName = Exclude<JobName, 'poll' | 'deliveries' | 'retention' | 'alerts' | 'accounts'>;

/**
 * Its jobs' names: `google-writer` for the default account, `google.ana-writer` for another; `push`
 * keeps its push channels or subscriptions open (`google-channels`, `microsoft.carla-subscriptions`).
 */
export function targetJobs(a: Pick<TargetAccount, 'kind' | 'name'>): {
  writer: TargetJobName;
  reverse: TargetJobName;
  reschedules: TargetJobName;
  push: TargetJobName;
} {
  const stem = a.name === 'default' ? a.kind : accountId(a);
  return {
    writer: `${stem}-writer`,
    reverse: `${stem}-reverse-sync`,
    reschedules: `${stem}-reschedules`,
    push: `${stem}-${a.kind === 'microsoft' ? 'subscriptions' : 'channels'}`,
  };
}

/** Where an account's state is kept (sync_cursors), one pattern for every target. */
export function targetKeys(a: Pick<TargetAccount, 'kind' | 'name'>) {
  const id = accountId(a);
  return {
    writer: `${id}.writer`,
    round: `${id}.reverse_sync.last_round`,
    cursor: (calendarId: string) => `${id}.reverse.cursor:${calendarId}`,
  };
}

/** How people read a target in sentences, metrics and the activity. */
export interface TargetWords {
  /** "Google", "CalDAV": readiness ("Google breaker: ..."), metric help. */
  name: string;
  /** Who answers requests: "Google", "the CalDAV server". */
  server: string;
  /** One item it holds: "Google event", "CalDAV object". */
  item: string;
  /** Where a backfill went: "Google Calendar (primary)" (core/activity-words.ts targetPlace). */
  place: string;
  /** A person's change made there is told as made in this target; undefined: as Google. */
  madeIn?: ActivityTarget;
  /** Each write gets its own activity entry (Google's); otherwise only a backfill is told. */
  tellsEachWrite?: boolean;
  /** Reverse-sync metric names: '' for Google (calbridge_reverse_*), `caldav_` for CalDAV. */
  reverseMetricsPrefix: string;
  /** What a person changes there, for metric help: "Google", "a CalDAV calendar". */
  reverseMetricsName: string;
}

export interface TargetAdapter<B> {
  /** google, caldav: the metrics' prefix (calbridge_{kind}_writes_total) and the account's kind. */
  kind: string;
  words: TargetWords;
  /** Built on first use (credentials may appear while serve runs); throws TargetError('auth') while none work. */
  target(): CalendarTarget<B>;
  /** The body an appointment should have in this target, or why none. */
  desire(a: Appointment, revision: number, gone: boolean): Desired<B>;
  /** Its event id of an appointment (Google's derived id unless given). */
  idOf?: EventIdOf;
  /** When the target last answered well, in this process. */
  lastSuccessAt(): number | null;
  /** One cheap request when the target has been quiet, or undefined when none is needed or possible. */
  probe(): Promise<unknown> | undefined;
  /** The readiness warning when it refuses our credentials, with the fix. */
  authWarning: string;
  /** A setup mistake no retry fixes (a calendar that is not there), with its readiness warning. */
  setupProblem?(): { problem: NonNullable<TargetFacts['setup_problem']>; warning: string } | null;
  /** What only this target's status shows (auth mode, rate limits, its URL). */
  facts?(): TargetFacts;
  /** Its reverse sync's push channels, if it has them. */
  push?(): NonNullable<Extract<ReverseSyncSection, { enabled: true }>['push']>;
  /** Its own readiness warnings beyond the common ones (no push channel open). */
  warnings?(): string[];
  /** How the writer paces itself: Google overlaps calls (the pacer holds the quota) and plans changes alone between full passes. */
  writer?: { concurrency?: number; fullPassEveryMs?: number };
  /** What a body of ours shows, for a dry run's report. */
  bodyFacts(body: B): BodyFacts;
}
