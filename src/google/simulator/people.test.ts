// The demo's simulated people edit the simulated Google calendar as a receptionist would: an upcoming
// event to a free half-hour in working hours, onto another event's slot in the same calendar, or
// deleted, each as an edit in Google's UI (a new etag and sequence, no If-Match).
import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { CalendarState } from './index.ts';
import { personEdit, type PersonEdit } from './people.ts';
import { seededRandom } from '../../core/random.ts';

const ZONE = 'America/Sao_Paulo';
const NOW = DateTime.fromISO('2026-06-15T08:00', { zone: ZONE }).toMillis();
const at = (iso: string) => ({ dateTime: DateTime.fromISO(iso, { zone: ZONE }).toISO()!, timeZone: ZONE });

function calendar(): CalendarState {
  const state = new CalendarState(() => NOW);
  const add = (cal: string, id: string, from: string, to: string) => state.insert(cal, { id, summary: id, start: at(from), end: at(to) });
  add('a', 'aaaaa1', '2026-06-15T10:00', '2026-06-15T10:30');
  add('a', 'aaaaa2', '2026-06-15T11:00', '2026-06-15T11:45');
  add('a', 'aaaaa3', '2026-06-16T09:00', '2026-06-16T09:30');
  add('a', 'aaaaa4', '2026-06-14T09:00', '2026-06-14T09:30'); // past: nobody moves it
  add('b', 'bbbbb1', '2026-06-15T14:00', '2026-06-15T15:00');
  return state;
}

const starts = (state: CalendarState, cal: string) =>
  state.events(cal).map((e) => ({ id: e.id, start: Date.parse(e.start!.dateTime!), end: Date.parse(e.end!.dateTime!) }));

describe('simulated people', () => {
  it('move upcoming events to free slots and onto taken ones in the same calendar, and delete them, as edits in Google’s UI', () => {
    const kinds = new Set<PersonEdit['kind']>();
    for (let seed = 1; seed <= 60; seed++) {
      const state = calendar();
      const before = new Map([...state.events('a'), ...state.events('b')].map((e) => [e.id, e]));
      const edit = personEdit({ state, calendars: () => ['a', 'b'], zone: ZONE, random: seededRandom(seed), now: () => NOW });
      kinds.add(edit.kind);
      if (edit.kind === 'nothing') continue;
      const cal = edit.calendarId;
      const changed = [...state.events(cal, { includeDeleted: true })].filter((e) => e.etag !== before.get(e.id)?.etag);
      expect(changed).toHaveLength(1);
      const [event] = changed;
      expect(event!.id).not.toBe('aaaaa4');
      if (edit.kind === 'deleted') {
        expect(event!.status).toBe('cancelled');
        continue;
      }
      const old = before.get(event!.id)!;
      expect(event!.sequence).toBe(old.sequence + 1);
      const moved = starts(state, cal).find((e) => e.id === event!.id)!;
      expect(moved.start).toBe(edit.to);
      expect(moved.end - moved.start).toBe(Date.parse(old.end!.dateTime!) - Date.parse(old.start!.dateTime!));
      const others = starts(state, cal).filter((e) => e.id !== event!.id);
      const overlapping = others.filter((o) => o.start < moved.end && moved.start < o.end);
      if (edit.kind === 'moved-onto-taken-slot') {
        expect(others.some((o) => o.start === edit.to)).toBe(true);
      } else {
        expect(overlapping).toEqual([]);
        const local = DateTime.fromMillis(edit.to, { zone: ZONE });
        expect(local.hour).toBeGreaterThanOrEqual(8);
        expect(local.plus(moved.end - moved.start).hour * 60 + local.plus(moved.end - moved.start).minute).toBeLessThanOrEqual(18 * 60);
      }
    }
    expect([...kinds].sort()).toEqual(['deleted', 'moved-onto-taken-slot', 'moved-to-free-slot']);
  });

  it('do nothing while the calendar has no upcoming event', () => {
    const state = new CalendarState(() => NOW);
    expect(personEdit({ state, calendars: () => ['a'], zone: ZONE, random: seededRandom(1), now: () => NOW })).toEqual({
      kind: 'nothing',
      why: 'no upcoming event in Google yet',
    });
  });
});
