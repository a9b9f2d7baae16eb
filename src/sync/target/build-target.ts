// The one builder of a calendar target: any adapter plus its account's config become its writer job,
// its reverse-sync jobs (a round over the mapped calendars, then the sending of what it recorded),
// its status section and its readiness warnings. Google, CalDAV and every further target are built
// here; a target differs only in its adapter (adapter.ts).
import { type TargetAdapter, type TargetAccount, accountId, targetJobs, targetKeys } from './adapter.ts';
import { madeIn, type ActivityFact } from '../../core/activity-words.ts';
import type { Clock } from '../../core/clock.ts';
import type { Readiness } from '../../core/readiness.ts';
import type { Job, Wake } from '../../jobs/job.ts';
import type { Logger } from '../../log.ts';
import type { Metrics } from '../../metrics.ts';
import type { BookingApi } from '../../booking/port.ts';
import type { ActivityStore } from '../../store/activity-store.ts';
import type { AppointmentStore } from '../../store/appointment-store.ts';
import type { Atomic } from '../../store/atomic.ts';
import type { KvStore } from '../../store/kv-store.ts';
import type { LinkStore } from '../../store/link-store.ts';
import type { RescheduleStore } from '../../store/reschedule-store.ts';
import type { TargetSection } from '../../status/status-document.ts';
import type { ApplyDeps } from '../apply-record.ts';
import { MirrorWriter } from '../mirror-writer.ts';
import { readinessWindowMs } from '../readiness-window.ts';
import type { RescheduleDeps } from '../reschedule.ts';
import { createReverseMetrics } from '../reverse-metrics.ts';
import type { SlotLock } from '../slot-lock.ts';
import { reverseStatus } from '../reverse-status.ts';
import type { ReverseDeps } from '../reverse-sync.ts';
import { loadRound, reschedulesJob, reverseRoundJob } from './reverse-jobs.ts';
import { targetReadiness } from './target-readiness.ts';
import { followChanges, probeAfterMs, silenceOf, writerCounting, writerFacts, writerJob } from './writer-job.ts';

/** What every target is built from besides its adapter and account: the runtime's shared parts. */
export interface TargetDeps {
  clock: Clock;
  log: Logger;
  metrics: Metrics;
  booking: BookingApi;
  appointments: AppointmentStore;
  cursors: KvStore;
  atomic: Atomic;
  activity: ActivityStore;
  /** The one path from a booking record to stored state (a reschedule's answer is applied through it). */
  apply: ApplyDeps;
  /** This account's links and reverse-sync actions. */
  links: LinkStore;
  actions: RescheduleStore;
  wake: Wake;
  /** poll.schedule: how long a target may be quiet before readiness says so. */
  pollSchedule: string;
  /** Backoff of an appointment whose write failed (tests: none). */
  itemBackoff?: { baseMs: number; maxMs: number };
  /** Shared by every account's reschedules: a booking slot is checked and taken by one move at a time. */
  slotLock?: SlotLock;
}

/** A built target: what the wiring starts (the shape of its Part). */
export interface BuiltTarget {
  /** The account, `{kind}.{name}`. */
  name: string;
  jobs: Job[];
  start(): Promise<void>;
  stop(): Promise<void>;
  status(): { targets: Record<string, TargetSection> };
  readiness(): Readiness;
}

export function buildTarget<B>(adapter: TargetAdapter<B>, account: TargetAccount, d: TargetDeps): BuiltTarget {
  const id = accountId(account);
  const jobs = targetJobs(account);
  const keys = targetKeys(account);
  const rs = account.reverse_sync;
  const { clock, links, actions, words } = { ...d, words: adapter.words };
  const log = d.log.child({ module: adapter.kind, ...(account.name === 'default' ? {} : { account: id }) });
  const wakeWriter = () => d.wake(jobs.writer);

  // Each write told one by one where the target says so; a backfill in one entry for every target.
  const counting = writerCounting(d.metrics, adapter.kind, words.item, {
    backfill: () => d.activity.backfillEntry(words.place),
    ...(words.tellsEachWrite
      ? { record: (kind: string, key: string) => d.activity.record({ kind: 'google-write', key, action: kind }) }
      : {}),
  });
  const silence = silenceOf(clock, () => adapter.lastSuccessAt());
  const writer = new MirrorWriter<B>({
    passBudgetMs: 45_000,
    ...adapter.writer,
    clock,
    log,
    appointments: d.appointments,
    links,
    target: () => adapter.target(),
    desire: (a, revision, gone) => adapter.desire(a, revision, gone),
    ...(adapter.idOf ? { idOf: adapter.idOf } : {}),
    breakerShare: account.breaker_share,
    ...(account.calendarKeys ? { calendarKeys: account.calendarKeys } : {}),
    ...(rs.enabled ? { reverse: { actions, deletions: rs.on_delete !== 'ignore', wake: () => d.wake(jobs.reverse) } } : {}),
    ...(d.itemBackoff ? { itemBackoff: d.itemBackoff } : {}),
    hooks: counting.hooks,
  });
  const window = readinessWindowMs(d.pollSchedule);
  const writing = writerJob({
    name: jobs.writer,
    writer,
    counting,
    stateKey: keys.writer,
    cursors: d.cursors,
    wake: wakeWriter,
    // Nothing to write for a while: one cheap request keeps readiness honest about the target.
    probe: () => (silence() > probeAfterMs(window) ? adapter.probe() : undefined),
  });

  // A person's change made in this target is told as made there.
  const told = words.madeIn;
  const activity = told ? { record: (f: ActivityFact) => d.activity.record(madeIn(f, told)) } : d.activity;
  const reverseMetrics = createReverseMetrics(d.metrics, { name: words.reverseMetricsName, prefix: words.reverseMetricsPrefix });
  const reverseDeps = (): ReverseDeps<B> => ({
    target: adapter.target(),
    desire: (a, revision, gone) => adapter.desire(a, revision, gone),
    onDelete: rs.on_delete,
    breakerShare: account.breaker_share,
    atomic: d.atomic,
    log,
    clock,
    cursors: d.cursors,
    cursorKey: keys.cursor,
    appointments: d.appointments,
    links,
    actions,
    metrics: reverseMetrics,
    wakeWriter,
    wakeReschedules: () => d.wake(jobs.reschedules),
    activity,
  });
  const rescheduleDeps: RescheduleDeps = {
    booking: d.booking,
    apply: d.apply,
    reader: d.apply.reader,
    links,
    actions,
    clock,
    log,
    metrics: reverseMetrics,
    onConflict: rs.on_conflict,
    sendEmail: rs.send_email ?? false,
    wakeWriter,
    activity,
    ...(d.slotLock ? { slotLock: d.slotLock } : {}),
  };
  const round = () => loadRound(d.cursors, keys.round);
  const reverseJobs: Job[] = rs.enabled
    ? [
        reverseRoundJob({
          name: jobs.reverse,
          schedule: rs.schedule,
          calendars: account.calendars,
          deps: reverseDeps,
          roundKey: keys.round,
          cursors: d.cursors,
          actions,
          metrics: reverseMetrics,
          clock,
        }),
        reschedulesJob({ name: jobs.reschedules, deps: rescheduleDeps, actions, metrics: reverseMetrics }),
      ]
    : [];

  const unsubscribe = followChanges(d.appointments, writer, wakeWriter);
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  const section = `targets.${id}`;

  return {
    name: id,
    jobs: [writing, ...reverseJobs],
    async start() {
      if (rs.enabled) d.wake(jobs.reverse);
    },
    async stop() {
      unsubscribe();
    },
    status() {
      const { state, counts } = writerFacts({ writer, links, cursors: d.cursors, stateKey: keys.writer });
      const { auth_mode, ...facts } = adapter.facts?.() ?? {};
      const push = adapter.push?.();
      const setup = adapter.setupProblem?.();
      const body: TargetSection = {
        enabled: true,
        kind: adapter.kind,
        account: id,
        ...(account.connected ? { connected: true as const } : {}),
        calendars: [...account.calendars],
        auth: { ok: state.authError === null, error: state.authError, ...(auth_mode ? { mode: auth_mode } : {}) },
        ...counts,
        last_pass_at: iso(state.lastPassAt),
        last_success_at: iso(adapter.lastSuccessAt()),
        last_error: state.lastError,
        breaker: state.breaker && {
          deletes: state.breaker.deletes,
          mirrored: state.breaker.mirrored,
          at: new Date(state.breaker.at).toISOString(),
        },
        requests_per_minute: account.requests_per_minute,
        ...facts,
        ...(adapter.setupProblem ? { setup_problem: setup?.problem ?? null } : {}),
        reverse_sync: rs.enabled
          ? reverseStatus({ round: round(), actions, calendars: account.calendars, config: rs, ...(push ? { push } : {}) })
          : { enabled: false },
      };
      return { targets: { [id]: body } };
    },
    readiness: () =>
      targetReadiness({
        name: words.name,
        server: words.server,
        account: id,
        section,
        writing: writer.status(),
        authWarning: adapter.authWarning,
        setupWarning: adapter.setupProblem?.()?.warning ?? null,
        silenceMs: silence(),
        windowMs: window,
        ...(rs.enabled ? { reverse: { round: round(), failed: actions.failedCount() } } : {}),
        own: adapter.warnings?.() ?? [],
      }),
  };
}
