// Simulated people using the simulated Google Calendar now and then, as a receptionist would
// (core/simulated-person.ts chooses what they do). Their edits go through the calendar state as
// edits in Google's UI do (new etag, no If-Match), so calbridge sees them in its change feed and push
// notifications like any person's.
import { DateTime } from 'luxon';
import type { Random } from '../../core/random.ts';
import { choosePersonEdit, type PersonEdit, type TimedEvent } from '../../core/simulated-person.ts';
import type { CalendarState, SimulatedEvent } from './calendar-state.ts';

export type { PersonEdit };

export interface PeopleOptions {
  state: CalendarState;
  /** The calendars people work in. */
  calendars: () => string[];
  /** The business's zone: people drag events within its working hours. */
  zone: string;
  random: Random;
  now?: () => number;
}

function timed(calendarId: string, e: SimulatedEvent): TimedEvent[] {
  if (e.status === 'cancelled' || !e.start?.dateTime || !e.end?.dateTime) return [];
  return [{ calendarId, id: e.id, summary: e.summary ?? e.id, start: Date.parse(e.start.dateTime), end: Date.parse(e.end.dateTime) }];
}

/** One person's edit now (or nothing, when no upcoming event is there to edit). */
export function personEdit(o: PeopleOptions): PersonEdit {
  const events = o.calendars().flatMap((cal) => o.state.events(cal).flatMap((e) => timed(cal, e)));
  const choice = choosePersonEdit(events, { zone: o.zone, random: o.random, now: (o.now ?? Date.now)(), place: 'Google' });
  if (!('event' in choice)) return choice.edit;
  const { event, to } = choice;
  if (to === null) o.state.userDelete(event.calendarId, event.id);
  else {
    const at = (ms: number) => ({ dateTime: DateTime.fromMillis(ms, { zone: o.zone }).toISO()!, timeZone: o.zone });
    o.state.userEdit(event.calendarId, event.id, { start: at(to), end: at(to + event.end - event.start) });
  }
  return choice.edit;
}

/** People editing every `intervalMs` until stopped. */
export function startPeople(o: PeopleOptions & { intervalMs: number; onEdit?: (edit: PersonEdit) => void }): { stop(): void } {
  const timer = setInterval(() => o.onEdit?.(personEdit(o)), o.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
