// The demo's simulated people in a simulated Outlook mailbox: the same choices as in the simulated
// Google (core/simulated-person.ts), made as a person's edits in Outlook: a new change key and a
// change the delta query reports, the event's length kept; all-day events are left alone.
import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { seededRandom } from '../../core/random.ts';
import type { PersonEdit } from '../../core/simulated-person.ts';
import { Mailbox } from './mailboxes.ts';
import { outlookPersonEdit } from './people.ts';

const ZONE = 'America/Sao_Paulo';
const NOW = DateTime.fromISO('2026-06-15T08:00', { zone: ZONE }).toMillis();
const at = (iso: string) => ({ dateTime: iso, timeZone: ZONE });

function mailbox(): Mailbox {
  const box = new Mailbox('id-1', 'ana@clinic.example');
  const cal = box.calendar(undefined).id;
  const add = (subject: string, from: string, to: string, allDay = false) =>
    box.create(cal, { subject, start: at(from), end: at(to), isAllDay: allDay, singleValueExtendedProperties: [] }).event.id;
  add('Ana · AG1', '2026-06-15T10:00', '2026-06-15T10:30');
  add('Bia · AG2', '2026-06-15T11:00', '2026-06-15T11:45');
  add('Caio · AG3', '2026-06-16T09:00', '2026-06-16T09:30');
  add('holiday', '2026-06-17T00:00', '2026-06-18T00:00', true);
  return box;
}

describe('simulated people in Outlook', () => {
  it('move upcoming events to free slots and onto taken ones, and delete them, as a person in Outlook does', () => {
    const kinds = new Set<PersonEdit['kind']>();
    for (let seed = 1; seed <= 40; seed++) {
      const box = mailbox();
      const before = new Map([...box.events.values()].map((e) => [e.id, { ...e }]));
      const seq = box.sequence;
      const edit = outlookPersonEdit({ mailbox: box, zone: ZONE, random: seededRandom(seed), now: () => NOW });
      kinds.add(edit.kind);
      expect(box.sequence, 'a change the delta query reports').toBe(seq + 1);
      const [changed] = box.changes.slice(-1);
      const old = before.get(changed!.eventId)!;
      expect(old.subject).not.toBe('holiday');
      if (edit.kind === 'deleted') {
        expect(box.events.has(old.id)).toBe(false);
        continue;
      }
      if (edit.kind === 'nothing') throw new Error('there are events to edit');
      const moved = box.events.get(old.id)!;
      expect(moved.start).toBe(edit.to);
      expect(moved.end - moved.start).toBe(old.end - old.start);
      expect(moved.changeKey).not.toBe(old.changeKey);
    }
    expect([...kinds].sort()).toEqual(['deleted', 'moved-onto-taken-slot', 'moved-to-free-slot']);
  });

  it('do nothing while the mailbox has no upcoming event', () => {
    const box = new Mailbox('id-1', 'ana@clinic.example');
    expect(outlookPersonEdit({ mailbox: box, zone: ZONE, random: seededRandom(1), now: () => NOW })).toEqual({
      kind: 'nothing',
      why: 'no upcoming event in Outlook yet',
    });
  });
});
