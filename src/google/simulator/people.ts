// Simulated people using the simulated Google Calendar now and then, as a receptionist would: drag an
// upcoming event to a free slot, drag it onto another appointment's slot, or delete it. Their edits
// go through the calendar state as edits in Google's UI do (new etag, no If-Match), so calbridge sees
// them in its change feed and push notifications like any person's.
import { DateTime } from 'luxon';
import { pick, type Random } from '../../core/random.ts';
import type { CalendarState, SimulatedEvent } from './calendar-state.ts';

export type PersonEdit =
  | { kind: 'moved-to-free-slot'; calendarId: string; summary: string; from: number; to: number }
  | { kind: 'moved-onto-taken-slot'; calendarId: string; summary: string; from: number; to: number; onto: string }
  | { kind: 'deleted'; calendarId: string; summary: string; at: number }
  | { kind: 'nothing'; why: string };

export interface PeopleOptions {
  state: CalendarState;
  /** The calendars people work in. */
  calendars: () => string[];
  /** The business's zone: people drag events within its working hours. */
  zone: string;
  random: Random;
  now?: () => number;
}

interface Timed {
  calendarId: string;
  event: SimulatedEvent;
  start: number;
  end: number;
}

const HALF_HOUR = 30 * 60_000;
/** Working hours people drag events into, and how far ahead they look. */
const OPEN_HOUR = 8;
const CLOSE_HOUR = 18;
const AHEAD_DAYS = 14;

function timed(calendarId: string, e: SimulatedEvent): Timed | undefined {
  if (e.status === 'cancelled' || !e.start?.dateTime || !e.end?.dateTime) return undefined;
  return { calendarId, event: e, start: Date.parse(e.start.dateTime), end: Date.parse(e.end.dateTime) };
}

const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start < b.end && b.start < a.end;

/** Half-hour starts in working hours over the event's day and the two after, where nothing else of its calendar is. */
function freeSlots(target: Timed, others: Timed[], zone: string, now: number): number[] {
  const length = target.end - target.start;
  const first = DateTime.fromMillis(target.start, { zone }).startOf('day');
  const slots: number[] = [];
  for (let d = 0; d < 3; d++) {
    const open = first.plus({ days: d, hours: OPEN_HOUR }).toMillis();
    const close = first.plus({ days: d, hours: CLOSE_HOUR }).toMillis();
    for (let s = open; s + length <= close; s += HALF_HOUR) {
      const slot = { start: s, end: s + length };
      if (s !== target.start && s > now + HALF_HOUR && !others.some((o) => overlaps(slot, o))) slots.push(s);
    }
  }
  return slots;
}

/** One person's edit now (or nothing, when no upcoming event is there to edit). */
export function personEdit(o: PeopleOptions): PersonEdit {
  const now = (o.now ?? Date.now)();
  const horizon = now + AHEAD_DAYS * 86_400_000;
  const upcoming = o.calendars().flatMap((cal) =>
    o.state.events(cal).flatMap((e) => {
      const t = timed(cal, e);
      return t && t.start > now + HALF_HOUR && t.start < horizon ? [t] : [];
    }),
  );
  if (upcoming.length === 0) return { kind: 'nothing', why: 'no upcoming event in Google yet' };
  const target = pick(o.random, upcoming);
  const sameCalendar = upcoming.filter((t) => t.calendarId === target.calendarId && t.event.id !== target.event.id);
  const summary = target.event.summary ?? target.event.id;
  const at = (ms: number) => ({ dateTime: DateTime.fromMillis(ms, { zone: o.zone }).toISO()!, timeZone: o.zone });
  const move = (to: number) =>
    o.state.userEdit(target.calendarId, target.event.id, { start: at(to), end: at(to + target.end - target.start) });

  const roll = o.random();
  const taken = sameCalendar.filter((t) => t.start !== target.start);
  if (roll < 0.35 && taken.length) {
    const other = pick(o.random, taken);
    move(other.start);
    return {
      kind: 'moved-onto-taken-slot',
      calendarId: target.calendarId,
      summary,
      from: target.start,
      to: other.start,
      onto: other.event.summary ?? other.event.id,
    };
  }
  if (roll < 0.8) {
    const slots = freeSlots(target, sameCalendar, o.zone, now);
    if (slots.length) {
      const to = pick(o.random, slots);
      move(to);
      return { kind: 'moved-to-free-slot', calendarId: target.calendarId, summary, from: target.start, to };
    }
  }
  o.state.userDelete(target.calendarId, target.event.id);
  return { kind: 'deleted', calendarId: target.calendarId, summary, at: target.start };
}

/** People editing every `intervalMs` until stopped. */
export function startPeople(o: PeopleOptions & { intervalMs: number; onEdit?: (edit: PersonEdit) => void }): { stop(): void } {
  const timer = setInterval(() => o.onEdit?.(personEdit(o)), o.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
