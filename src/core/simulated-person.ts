// What a simulated receptionist does to a calendar now and then, for the demo's simulated Google and
// Outlook alike: drag an upcoming event to a free half-hour in working hours, drag it onto another
// event's slot in the same calendar, or delete it. Only the choice lives here (pure, seeded); each
// simulator applies it as an edit in its own UI would.
import { DateTime } from 'luxon';
import { pick, type Random } from './random.ts';

/** An event a person could edit: its calendar, id, title and times (epoch ms). */
export interface TimedEvent {
  calendarId: string;
  id: string;
  summary: string;
  start: number;
  end: number;
}

export type PersonEdit =
  | { kind: 'moved-to-free-slot'; calendarId: string; summary: string; from: number; to: number }
  | { kind: 'moved-onto-taken-slot'; calendarId: string; summary: string; from: number; to: number; onto: string }
  | { kind: 'deleted'; calendarId: string; summary: string; at: number }
  | { kind: 'nothing'; why: string };

/** What to do to which event: a move (`to`, the new start) or a deletion, and how to tell it. */
export type PersonChoice =
  | { edit: Extract<PersonEdit, { kind: 'nothing' }> }
  | { edit: Exclude<PersonEdit, { kind: 'nothing' }>; event: TimedEvent; to: number | null };

const HALF_HOUR = 30 * 60_000;
/** Working hours people drag events into. */
const OPEN_HOUR = 8;
const CLOSE_HOUR = 18;
/**
 * How far ahead people look: as far as the booking simulator books (30 days). With two weeks, a
 * demo of a dozen appointments on some days had one upcoming event, which the Google people and the
 * Outlook person all picked every second, so every Outlook move lost to a Google one.
 */
const AHEAD_DAYS = 31;

const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start < b.end && b.start < a.end;

/** Half-hour starts in working hours over the event's day and the two after, where nothing else of its calendar is. */
function freeSlots(target: TimedEvent, others: TimedEvent[], zone: string, now: number): number[] {
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

/**
 * One person's edit among `events` (every timed, not cancelled event of the calendars people work
 * in), or nothing when none is coming up; `place` names the calendar app in the "nothing" reason.
 */
export function choosePersonEdit(events: TimedEvent[], o: { zone: string; random: Random; now: number; place: string }): PersonChoice {
  const horizon = o.now + AHEAD_DAYS * 86_400_000;
  const upcoming = events.filter((t) => t.start > o.now + HALF_HOUR && t.start < horizon);
  if (upcoming.length === 0) return { edit: { kind: 'nothing', why: `no upcoming event in ${o.place} yet` } };
  const target = pick(o.random, upcoming);
  const sameCalendar = upcoming.filter((t) => t.calendarId === target.calendarId && t.id !== target.id);
  const { calendarId, summary } = target;

  const roll = o.random();
  const taken = sameCalendar.filter((t) => t.start !== target.start);
  if (roll < 0.35 && taken.length) {
    const other = pick(o.random, taken);
    return {
      event: target,
      to: other.start,
      edit: { kind: 'moved-onto-taken-slot', calendarId, summary, from: target.start, to: other.start, onto: other.summary },
    };
  }
  if (roll < 0.8) {
    const slots = freeSlots(target, sameCalendar, o.zone, o.now);
    if (slots.length) {
      const to = pick(o.random, slots);
      return { event: target, to, edit: { kind: 'moved-to-free-slot', calendarId, summary, from: target.start, to } };
    }
  }
  return { event: target, to: null, edit: { kind: 'deleted', calendarId, summary, at: target.start } };
}
