// One reverse-sync round: for each mapped Google calendar, read what changed, decide (pure core),
// and record every action together with the new sync token in one transaction. The booking service
// is called later, by the reschedules job, from what was recorded here.
import type { GoogleConfig } from '../config/schema.ts';
import type { Db } from '../store/db.ts';
import type { Logger } from '../log.ts';
import type { KvStore } from '../store/kv-store.ts';
import type { AppointmentStore } from '../store/appointment-store.ts';
import type { GoogleLinkStore } from '../store/google-link-store.ts';
import type { RescheduleStore } from '../store/reschedule-store.ts';
import type { CalendarApi, GoogleEvent } from '../google/port.ts';
import { GoogleError } from '../google/errors.ts';
import { readChanges } from '../google/reverse/change-feed.ts';
import { desiredEvent, isDesired, type GoogleMapping } from '../core/google-plan.ts';
import { decideReverse, deletionsTripBreaker, type ObservedEvent, type ReverseAction } from '../core/reverse-decide.ts';
import type { ReverseMetrics } from './reverse-metrics.ts';
import type { Clock } from '../core/clock.ts';

export interface ReverseDeps {
  api: CalendarApi;
  google: GoogleConfig;
  db: Db;
  log: Logger;
  clock: Clock;
  cursors: KvStore;
  appointments: AppointmentStore;
  links: GoogleLinkStore;
  actions: RescheduleStore;
  metrics: ReverseMetrics;
  wake(job: string): void;
}

export interface CalendarRound {
  calendarId: string;
  mode: 'incremental' | 'full';
  changes: number;
  acted: Partial<Record<ReverseAction['kind'], number>>;
  /** Deletions held back by the breaker (the sync token is then kept, so the next round sees them again). */
  held: number;
}

export const syncTokenKey = (calendarId: string) => `google.reverse.sync_token:${calendarId}`;

export function mappedCalendars(google: GoogleConfig): string[] {
  return [...new Set(google.calendars.map((c) => c.calendar_id))];
}

const mappingOf = (g: GoogleConfig): GoogleMapping => ({ calendars: g.calendars, statuses: g.statuses, title: g.title, description: g.description });

const observe = (e: GoogleEvent): ObservedEvent => ({
  eventId: e.id,
  deleted: e.status === 'cancelled',
  etag: e.etag || null,
  start: e.start,
  end: e.end,
  source: 'change',
});

interface Planned {
  key: string;
  event: ObservedEvent;
  action: ReverseAction;
  /** When it was decided: a write to the link after that makes the decision stale. */
  at: number;
}

function plan(deps: ReverseDeps, calendarId: string, event: ObservedEvent): Planned | undefined {
  const link = deps.links.byEvent(calendarId, event.eventId);
  if (!link) return undefined; // not one of ours
  const stored = deps.appointments.get(link.appointmentKey);
  const desired = stored && desiredEvent(stored.appointment, stored.revision, stored.goneAt !== null, mappingOf(deps.google));
  const latest = deps.actions.latest(link.appointmentKey);
  const action = decideReverse({
    event,
    link: { present: link.present, etag: link.etag, writtenStart: link.writtenStart },
    appointment: stored && {
      start: stored.appointment.start,
      end: stored.appointment.end,
      mirrored: desired !== undefined && isDesired(desired) && desired.calendarId === calendarId,
    },
    handledEtag: latest?.eventId === event.eventId ? latest.observedEtag : null,
    lastRescheduledTo: deps.actions.lastRescheduledTo(link.appointmentKey),
    onDelete: deps.google.reverse_sync.on_delete,
  });
  return { key: link.appointmentKey, event, action, at: deps.clock.now() };
}

/** An event only missing from a full re-list, read again: a tombstone or 404/410 is a deletion. */
async function recheck(api: CalendarApi, calendarId: string, eventId: string): Promise<ObservedEvent> {
  try {
    return observe(await api.get(calendarId, eventId));
  } catch (e) {
    if (e instanceof GoogleError && (e.kind === 'not_found' || e.kind === 'gone')) {
      return { eventId, deleted: true, etag: null, start: null, end: null, source: 'change' };
    }
    throw e;
  }
}

function record(deps: ReverseDeps, calendarId: string, p: Planned, wakes: Set<string>): void {
  const a = deps.appointments.get(p.key)!.appointment;
  const base = { appointmentKey: p.key, observedEtag: p.event.etag, calendarId, eventId: p.event.eventId, newStart: a.start, newEnd: a.end };
  const { action } = p;
  switch (action.kind) {
    case 'reschedule':
      deps.actions.record({ ...base, kind: 'reschedule', state: 'pending', newStart: action.start, newEnd: action.end, fromStart: action.fromStart });
      deps.metrics.moves.inc();
      wakes.add('reschedules');
      return;
    case 'cancel':
      deps.actions.record({ ...base, kind: 'cancel', state: 'pending', fromStart: a.start });
      wakes.add('reschedules');
      return;
    case 'restore':
      deps.actions.record({ ...base, kind: 'restore', state: 'done', reason: action.reason });
      deps.links.requestRewrite(p.key, p.event.etag);
      deps.metrics.restores.inc({ reason: action.reason });
      wakes.add('google-writer');
      return;
    case 'recreate':
      deps.actions.record({ ...base, kind: 'recreate', state: 'done', reason: action.reason });
      deps.links.requestRecreate(p.key);
      deps.metrics.deletions.inc({ action: 'recreate' });
      wakes.add('google-writer');
      return;
    case 'ignore':
      deps.actions.record({ ...base, kind: 'ignore', state: 'done', reason: 'policy' });
      deps.metrics.deletions.inc({ action: 'ignore' });
      return;
    case 'none':
    case 'recheck':
      return;
  }
}

/** The writer touched this appointment's link after `since`: what was observed before may be stale. */
function writtenSince(deps: ReverseDeps, key: string, since: number): boolean {
  return (deps.links.get(key)?.updatedAt ?? 0) > since;
}

export async function calendarRound(deps: ReverseDeps, calendarId: string): Promise<CalendarRound> {
  const tokenKey = syncTokenKey(calendarId);
  const startedAt = deps.clock.now();
  const batch = await readChanges(deps.api, calendarId, deps.cursors.get<string>(tokenKey));
  const observed = batch.events.map(observe);
  const mirroredHere = deps.links.mirroredIn(calendarId);
  if (batch.mode === 'full') {
    // A full list shows no tombstones: what we mirror and it lacks may have been deleted meanwhile.
    const seen = new Set(batch.events.filter((e) => e.status !== 'cancelled').map((e) => e.id));
    for (const link of mirroredHere) {
      if (!seen.has(link.eventId)) observed.push({ eventId: link.eventId, deleted: true, etag: null, start: null, end: null, source: 'missing' });
    }
  }
  const planned: Planned[] = [];
  for (const event of observed) {
    let p = plan(deps, calendarId, event);
    // A listing older than our latest write to this event is read again: deciding on it could take
    // our own earlier write for a person's move.
    const stale = p !== undefined && writtenSince(deps, p.key, startedAt);
    if (p?.action.kind === 'recheck' || stale) p = plan(deps, calendarId, await recheck(deps.api, calendarId, event.eventId));
    if (p && p.action.kind !== 'none') planned.push(p);
  }
  const cancels = planned.filter((p) => p.action.kind === 'cancel').length;
  const tripped = deletionsTripBreaker(cancels, mirroredHere.length, deps.google.breaker_share);
  const wakes = new Set<string>();
  const acted: CalendarRound['acted'] = {};
  let overtaken = false;
  deps.db.transaction(() => {
    for (const p of planned) {
      if (tripped && p.action.kind === 'cancel') continue;
      // The writer wrote this event while we decided: skip it, and keep the token to see it again.
      if (writtenSince(deps, p.key, p.at)) {
        overtaken = true;
        continue;
      }
      record(deps, calendarId, p, wakes);
      acted[p.action.kind] = (acted[p.action.kind] ?? 0) + 1;
    }
    // Kept when the breaker trips, so the held deletions are seen (and reported) again.
    if (!tripped && !overtaken) deps.cursors.set(tokenKey, batch.nextSyncToken);
  })();
  if (tripped) {
    deps.metrics.breaker.inc();
    deps.log.warn({ calendarId, cancels, mirrored: mirroredHere.length }, 'reverse sync: too many deletions at once; none cancelled at the booking service');
  }
  deps.metrics.rounds.inc({ mode: batch.mode, outcome: tripped ? 'held' : 'ok' });
  for (const job of wakes) deps.wake(job);
  return { calendarId, mode: batch.mode, changes: batch.events.length, acted, held: tripped ? cancels : 0 };
}
