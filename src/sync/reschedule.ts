// Carries recorded moves and deletions to the booking service: re-read the appointment, check the
// slot, PATCH .../reschedule/ (or DELETE), re-read and store. Anything refused puts the Google event
// back. Safe to repeat after a crash: the re-read shows a PATCH that already went through.
import type { Appointment } from '../core/appointment.ts';
import { isCancelled } from '../core/appointment.ts';
import { readAppointment, type ReaderOptions } from '../core/reader.ts';
import { backoffMs } from '../core/backoff.ts';
import {
  adoptAfterReschedule,
  afterSlotCheck,
  alreadyPutBack,
  beforeReschedule,
  slotConflicts,
  type FreshState,
  type OnConflict,
} from '../core/mirror/reschedule-decide.ts';
import type { BookingApi } from '../booking/port.ts';
import { BookingError } from '../booking/errors.ts';
import { errorMessage } from '../core/errors.ts';
import type { Clock } from '../core/clock.ts';
import type { Logger } from '../log.ts';
import type { RescheduleStore, ReverseActionRow } from '../store/reschedule-store.ts';
import type { LinkStore } from '../store/link-store.ts';
import { applyNotFound, applyRecord, type ApplyDeps } from './apply-record.ts';
import type { ReverseMetrics } from './reverse-metrics.ts';
import type { ActivityStore } from '../store/activity-store.ts';
import type { SlotLock } from './slot-lock.ts';

export interface RescheduleDeps {
  booking: BookingApi;
  apply: ApplyDeps;
  reader: ReaderOptions;
  actions: RescheduleStore;
  links: LinkStore;
  clock: Clock;
  log: Logger;
  metrics: ReverseMetrics;
  onConflict: OnConflict;
  sendEmail: boolean;
  /** Wakes the writer of the target the move was made in (an event to put back). */
  wakeWriter(): void;
  /** The draw of the retry backoff (tests pass their own). */
  random?: () => number;
  activity?: Pick<ActivityStore, 'record'>;
  /** Shared by every target's reschedules: a slot is checked and taken by one move at a time. */
  slotLock?: SlotLock;
}

/** Wide enough that any appointment overlapping the new slot starts inside it. */
const SLOT_LOOKBACK_MS = 24 * 3_600_000;
/** After this many transient failures the move is given up and the Google event put back. */
const MAX_ATTEMPTS = 20;
const RETRY_BACKOFF = { baseMs: 5_000, maxMs: 10 * 60_000 };

export interface ProcessResult {
  done: number;
  reverted: number;
  dropped: number;
  failed: number;
  retrying: number;
}

/** A retryable failure: the booking service may well accept it later. */
const retryable = (e: unknown) =>
  !(e instanceof BookingError) || e.kind === 'transient' || e.kind === 'rate_limited' || e.kind === 'unauthorized';
const detailOf = (e: unknown) => (e instanceof BookingError ? (e.detail ?? e.message) : errorMessage(e));

async function readFresh(deps: RescheduleDeps, key: string): Promise<{ fresh: FreshState; appointment?: Appointment }> {
  const asked = deps.clock.now();
  let raw: unknown;
  try {
    raw = await deps.booking.getAppointment(key);
  } catch (e) {
    if (e instanceof BookingError && e.kind === 'not_found') {
      applyNotFound(deps.apply, key);
      return { fresh: { found: false } };
    }
    throw e;
  }
  applyRecord(deps.apply, raw, asked, key);
  const read = readAppointment(raw, deps.reader);
  if (!read.ok) throw new BookingError('invalid', `the booking service's record of ${key} is unreadable: ${read.reason}`);
  const a = read.appointment;
  return { fresh: { found: true, start: a.start, cancelled: isCancelled(a.status) }, appointment: a };
}

/** Other appointments of the same booking calendar that overlap [start, end). */
async function occupants(deps: RescheduleDeps, a: Appointment, start: number, end: number): Promise<Appointment[]> {
  const found: Appointment[] = [];
  const filters = {
    start_date: start - SLOT_LOOKBACK_MS,
    end_date: end,
    ...(a.calendar.calendarKey ? { calendar_key: a.calendar.calendarKey } : {}),
  };
  for await (const page of deps.booking.listPages(filters)) {
    for (const raw of page) {
      const r = readAppointment(raw, deps.reader);
      if (r.ok && (a.calendar.calendarKey === null || r.appointment.calendar.calendarKey === a.calendar.calendarKey))
        found.push(r.appointment);
    }
  }
  const occ = found.map((o) => ({ key: o.key, start: o.start, end: o.end, cancelled: isCancelled(o.status) }));
  const conflicts = new Set(slotConflicts(a.key, start, end, occ).map((o) => o.key));
  return found.filter((o) => conflicts.has(o.key));
}

type Outcome = {
  state: 'done' | 'reverted' | 'dropped' | 'failed';
  reason: string;
  detail?: string;
  put: 'back' | 'recreate' | null;
  taken?: string[];
};

/** The slot check and the reschedule call, as one step (SlotLock): an outcome when the move ends here, else null (taken). */
async function checkAndTake(deps: RescheduleDeps, a: Appointment, newStart: number, end: number): Promise<Outcome | null> {
  if (deps.onConflict === 'revert') {
    const taken = await occupants(deps, a, newStart, end);
    if (afterSlotCheck(taken.length, deps.onConflict) === 'revert') {
      const who = taken.map((t) => t.searchCode ?? t.key);
      return { state: 'reverted', reason: 'conflict', detail: `the new time overlaps ${who.join(', ')}`, put: 'back', taken: who };
    }
  }
  try {
    await deps.booking.reschedule(a.key, newStart);
  } catch (e) {
    if (retryable(e)) throw e;
    return { state: 'reverted', reason: 'refused', detail: detailOf(e), put: 'back' };
  }
  return null;
}

async function reschedule(deps: RescheduleDeps, row: ReverseActionRow): Promise<Outcome> {
  const { fresh, appointment } = await readFresh(deps, row.appointmentKey);
  const expected = [row.fromStart ?? row.newStart, ...deps.actions.earlierTargets(row.appointmentKey, row.id)];
  const putBack = alreadyPutBack(deps.links.get(row.appointmentKey), { observedEtag: row.observedEtag, decidedAt: row.createdAt });
  const step = beforeReschedule(fresh, row.newStart, expected, putBack);
  if (step.kind === 'drop') return { state: 'dropped', reason: step.reason, put: null };
  if (step.kind === 'done') return { state: 'done', reason: step.reason, put: null };
  if (step.kind === 'revert')
    return {
      state: 'reverted',
      reason: step.reason,
      detail: 'the booking service changed this appointment meanwhile; it wins',
      put: 'back',
    };
  const a = appointment!;
  const end = row.newStart + (a.end - a.start);
  const taken = await (deps.slotLock ?? ((take) => take()))(() => checkAndTake(deps, a, row.newStart, end));
  if (taken) return taken;
  const link = deps.links.get(a.key);
  const edit = adoptAfterReschedule(link, {
    etag: row.observedEtag,
    fromStart: row.fromStart,
    start: row.newStart,
    end,
    decidedAt: row.createdAt,
  });
  if (edit && link) deps.links.adoptEdit(a.key, edit, link.updatedAt);
  await readFresh(deps, a.key).catch((e: unknown) =>
    deps.log.warn({ err: e, key: a.key }, 'rescheduled, but the re-read failed; the poll will bring it'),
  );
  return { state: 'done', reason: 'rescheduled', put: null };
}

async function cancel(deps: RescheduleDeps, row: ReverseActionRow): Promise<Outcome> {
  const { fresh } = await readFresh(deps, row.appointmentKey);
  if (!fresh.found) return { state: 'dropped', reason: 'gone', put: null };
  if (fresh.cancelled) return { state: 'done', reason: 'already-cancelled', put: null };
  if (row.fromStart !== null && fresh.start !== row.fromStart) {
    return {
      state: 'reverted',
      reason: 'booking-changed',
      detail: 'the booking service changed this appointment meanwhile; it wins',
      put: 'recreate',
    };
  }
  try {
    await deps.booking.cancel(row.appointmentKey, { sendEmail: deps.sendEmail });
  } catch (e) {
    if (retryable(e)) throw e;
    return { state: 'reverted', reason: 'refused', detail: detailOf(e), put: 'recreate' };
  }
  await readFresh(deps, row.appointmentKey).catch((e: unknown) =>
    deps.log.warn({ err: e, key: row.appointmentKey }, 'cancelled, but the re-read failed'),
  );
  return { state: 'done', reason: 'cancelled', put: null };
}

function settle(deps: RescheduleDeps, row: ReverseActionRow, o: Outcome): void {
  if (!deps.actions.finish(row.id, o.state, o.reason, o.detail ?? null)) return;
  deps.activity?.record({
    kind: 'settled',
    key: row.appointmentKey,
    action: row.kind,
    state: o.state,
    reason: o.reason,
    detail: o.detail ?? null,
    to: row.newStart,
    ...(o.taken ? { taken: o.taken } : {}),
  });
  if (
    o.put === 'back' &&
    !alreadyPutBack(deps.links.get(row.appointmentKey), { observedEtag: row.observedEtag, decidedAt: row.createdAt })
  ) {
    deps.links.requestRewrite(row.appointmentKey, row.observedEtag);
  }
  if (o.put === 'recreate') deps.links.requestRecreate(row.appointmentKey);
  if (o.put) deps.wakeWriter();
  deps.metrics.reschedules.inc({ outcome: o.state, reason: o.reason });
  const level = o.state === 'done' || o.state === 'dropped' ? 'info' : 'warn';
  deps.log[level](
    { key: row.appointmentKey, kind: row.kind, state: o.state, reason: o.reason, detail: o.detail },
    'reverse sync action settled',
  );
}

/** Processes every due action once. */
export async function processDue(deps: RescheduleDeps): Promise<ProcessResult> {
  const result: ProcessResult = { done: 0, reverted: 0, dropped: 0, failed: 0, retrying: 0 };
  for (const row of deps.actions.due()) {
    let outcome: Outcome;
    try {
      outcome = row.kind === 'cancel' ? await cancel(deps, row) : await reschedule(deps, row);
    } catch (e) {
      if (row.attempts + 1 < MAX_ATTEMPTS) {
        const wait = backoffMs(row.attempts, RETRY_BACKOFF, deps.random ?? Math.random);
        deps.actions.retryLater(row.id, deps.clock.now() + wait, detailOf(e));
        result.retrying++;
        continue;
      }
      outcome = { state: 'failed', reason: 'gave-up', detail: detailOf(e), put: row.kind === 'cancel' ? 'recreate' : 'back' };
    }
    settle(deps, row, outcome);
    result[outcome.state]++;
  }
  return result;
}
