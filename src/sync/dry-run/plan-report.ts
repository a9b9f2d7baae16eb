// What a dry run found, per appointment: the change the booking service brings to the stored state,
// the writes held back for it (calendar targets, the booking service) and the feeds it would change.
// Built from the stored state before and after the pass on the scratch copy, and the held writes.
import { factsOf } from '../../core/appointment-filter.ts';
import type { Appointment } from '../../core/appointment.ts';
import { placeInFeed, type FeedSelection } from '../../feeds/feed-filter.ts';
import type { StoredAppointment } from '../../store/appointment-store.ts';
import type { HeldWrite } from './planned.ts';

export type StoreChange =
  | { kind: 'new'; status: string; start: number }
  | { kind: 'changed'; fields: FieldChange[] }
  | { kind: 'gone'; reason: string | null }
  | { kind: 'back' };

/** One field of an appointment, before and after (starts as epoch ms, the rest as text). */
export type FieldChange =
  | { field: 'start' | 'end'; from: number; to: number }
  | { field: 'status' | 'calendar' | 'person' | 'services'; from: string; to: string };

export interface FeedChange {
  feed: string;
  change: 'added' | 'changed' | 'removed';
}

export interface AppointmentPlan {
  key: string;
  /** Search code and person, for people: "AB12 · João Araújo". */
  label: string;
  start: number;
  store: StoreChange | null;
  writes: HeldWrite[];
  feeds: FeedChange[];
}

export interface PlanReport {
  appointments: AppointmentPlan[];
  /** Held writes of no one appointment (webhook registration). */
  other: HeldWrite[];
}

export type Snapshot = Map<string, StoredAppointment>;

export const snapshotOf = (rows: StoredAppointment[]): Snapshot => new Map(rows.map((r) => [r.appointment.key, r]));

const text = {
  status: (a: Appointment) => a.status,
  calendar: (a: Appointment) => a.calendar.name ?? a.calendar.calendarKey ?? '',
  person: (a: Appointment) => a.person.fullName ?? '',
  services: (a: Appointment) => a.services.map((s) => s.name ?? s.serviceKey).join(', '),
} as const;

function fieldChanges(a: Appointment, b: Appointment): FieldChange[] {
  const out: FieldChange[] = [];
  if (a.start !== b.start) out.push({ field: 'start', from: a.start, to: b.start });
  if (a.end !== b.end) out.push({ field: 'end', from: a.end, to: b.end });
  for (const field of ['status', 'calendar', 'person', 'services'] as const) {
    const [from, to] = [text[field](a), text[field](b)];
    if (from !== to) out.push({ field, from, to });
  }
  return out;
}

function storeChange(before: StoredAppointment | undefined, after: StoredAppointment): StoreChange | null {
  if (!before) return after.goneAt === null ? { kind: 'new', status: after.appointment.status, start: after.appointment.start } : null;
  if (before.revision === after.revision) return null;
  if (after.goneAt !== null && before.goneAt === null) return { kind: 'gone', reason: after.goneReason };
  if (after.goneAt === null && before.goneAt !== null) return { kind: 'back' };
  return { kind: 'changed', fields: fieldChanges(before.appointment, after.appointment) };
}

function feedChange(
  feed: FeedSelection & { name: string },
  before: StoredAppointment | undefined,
  after: StoredAppointment,
): FeedChange | null {
  const place = (s: StoredAppointment | undefined) => (s ? placeInFeed(factsOf(s.appointment), s.goneAt !== null, feed) : 'absent');
  const [was, is] = [place(before), place(after)];
  if (was === 'absent' && is === 'absent') return null;
  if (was === 'absent') return { feed: feed.name, change: 'added' };
  if (is === 'absent') return { feed: feed.name, change: 'removed' };
  // A material change bumps the revision, and with it the event's SEQUENCE in every feed that shows it.
  return was !== is || before?.revision !== after.revision ? { feed: feed.name, change: 'changed' } : null;
}

const labelOf = (a: Appointment) => [a.searchCode, a.person.fullName].filter(Boolean).join(' · ') || a.key;

export function planReport(input: {
  before: Snapshot;
  after: Snapshot;
  held: HeldWrite[];
  feeds: (FeedSelection & { name: string })[];
}): PlanReport {
  const { before, after, held, feeds } = input;
  const plans: AppointmentPlan[] = [];
  for (const [key, now] of after) {
    const was = before.get(key);
    const writes = held.filter((w) => w.appointmentKey === key);
    const plan: AppointmentPlan = {
      key,
      label: labelOf(now.appointment),
      start: now.appointment.start,
      store: storeChange(was, now),
      writes,
      feeds: feeds.map((f) => feedChange(f, was, now)).filter((c): c is FeedChange => c !== null),
    };
    if (plan.store || plan.writes.length || plan.feeds.length) plans.push(plan);
  }
  plans.sort((a, b) => a.start - b.start || (a.key < b.key ? -1 : 1));
  const known = new Set(plans.map((p) => p.key));
  return { appointments: plans, other: held.filter((w) => w.appointmentKey === null || !known.has(w.appointmentKey)) };
}
