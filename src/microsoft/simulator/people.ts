// Simulated people using a simulated Outlook mailbox now and then, as a receptionist would
// (core/simulated-person.ts chooses what they do, as for the simulated Google). Their edits are a
// person's edits in Outlook (`userEdit`/`userDelete`: a new change key, a change the delta query
// and the notifications report), so calbridge sees them like any person's.
import type { Random } from '../../core/random.ts';
import { choosePersonEdit, type PersonEdit } from '../../core/simulated-person.ts';
import type { Mailbox } from './mailboxes.ts';

export interface OutlookPeopleOptions {
  mailbox: Mailbox;
  /** The business's zone: people drag events within its working hours. */
  zone: string;
  random: Random;
  now?: () => number;
}

/** One person's edit now (or nothing, when no upcoming event is there to edit). */
export function outlookPersonEdit(o: OutlookPeopleOptions): PersonEdit {
  const events = [...o.mailbox.events.values()]
    .filter((e) => !e.isAllDay)
    .map((e) => ({ calendarId: e.calendarId, id: e.id, summary: e.subject, start: e.start, end: e.end }));
  const choice = choosePersonEdit(events, { zone: o.zone, random: o.random, now: (o.now ?? Date.now)(), place: 'Outlook' });
  if (!('event' in choice)) return choice.edit;
  const { event, to } = choice;
  if (to === null) o.mailbox.userDelete(event.id);
  else o.mailbox.userEdit(event.id, { start: to, end: to + event.end - event.start });
  return choice.edit;
}
