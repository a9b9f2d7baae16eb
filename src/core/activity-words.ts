// What happened to an appointment, in words a receptionist reads (the status page's activity, the
// demo's log): "moved in Google to Tue 14 Jan 10:30 → rescheduled at the booking service". Pure:
// facts in, one entry out (or none: a move still on its way is told when it settles).
import { DateTime } from 'luxon';
import { isCancelled } from './appointment.ts';
import { maskLongNumbers } from './mask-numbers.ts';

/** booking → Google/feeds, Google (or CalDAV) → booking, put back, refused by the booking service. */
export type ActivityDirection = 'booking-to-targets' | 'google-to-booking' | 'caldav-to-booking' | 'reverted' | 'refused';

/** Where a person made the change: Google unless said (a CalDAV calendar). */
export type ActivityTarget = 'google' | 'caldav';

/** How the terminal and the status page label each direction, in a few words. */
export const DIRECTION_LABELS: Readonly<Record<ActivityDirection, string>> = {
  'booking-to-targets': 'booking → Google/feeds',
  'google-to-booking': 'Google → booking',
  'caldav-to-booking': 'CalDAV → booking',
  reverted: 'reverted',
  refused: 'refused',
};

/** What the sync code knows at the moment something happened. */
export type ActivityFact =
  /** The booking service's state was stored with a material change (`before`: the previous one, if any). */
  | { kind: 'booking'; key: string; before?: { start: number; status: string; gone: boolean } }
  /** The writer wrote the appointment's event to Google. */
  | { kind: 'google-write'; key: string; action: string }
  /** The reverse sync decided on a change a person made in Google (moves and cancellations are told when settled). */
  | { kind: 'reverse'; key: string; action: { kind: string; reason?: string }; movedTo: number | null; target?: ActivityTarget }
  /** A move or deletion made in Google, carried to the booking service (or not), and why. */
  | {
      kind: 'settled';
      key: string;
      action: string;
      state: string;
      reason: string | null;
      detail: string | null;
      /** Where the person moved it. */
      to: number;
      /** The appointments already in that slot (search codes). */
      taken?: string[];
      target?: ActivityTarget;
    };

/** A fact of a person's change, told as made in `target` (facts of other kinds stay as they are). */
export function madeIn(fact: ActivityFact, target: ActivityTarget): ActivityFact {
  return fact.kind === 'reverse' || fact.kind === 'settled' ? { ...fact, target } : fact;
}

/** The appointment the words are about, as stored now. */
export interface ActivitySubject {
  label: string;
  zone: string;
  start: number;
  status: string;
  gone: boolean;
  goneReason: string | null;
}

export interface ActivityWords {
  kind: string;
  direction: ActivityDirection;
  summary: string;
  reason: string | null;
  /** The start the entry is about. */
  start: number | null;
}

/** "Tue 14 Jan 10:30" in the business's time zone. */
export function when(ms: number, zone: string): string {
  return DateTime.fromMillis(ms, { zone }).setLocale('en').toFormat('ccc d LLL HH:mm');
}

/** PENDING_PAYMENT → "pending payment", NO_SHOW → "no-show", CANCELED_CLIENT → "cancelled by the client". */
export function statusWords(status: string): string {
  const special: Record<string, string> = { NO_SHOW: 'no-show', CANCELED_CLIENT: 'cancelled by the client', CANCELED_GOOGLE: 'cancelled from Google', CANCELED: 'cancelled' };
  return special[status] ?? status.toLowerCase().replace(/_/g, ' ');
}

const entry = (kind: string, direction: ActivityDirection, summary: string, reason: string | null = null, start: number | null = null): ActivityWords => ({
  kind,
  direction,
  summary,
  // The only free text in an entry is what the booking service said.
  reason: reason === null ? null : maskLongNumbers(reason),
  start,
});

function bookingWords(before: { start: number; status: string; gone: boolean } | undefined, s: ActivitySubject): ActivityWords {
  const at = when(s.start, s.zone);
  const out = (kind: string, summary: string) => entry(kind, 'booking-to-targets', summary, null, s.start);
  if (s.gone) {
    return s.goneReason === 'out of scope'
      ? out('gone', 'left the mirrored scope (poll.filters) → removed from Google and the feeds')
      : out('gone', 'no longer at the booking service → removed from Google and the feeds');
  }
  const status = s.status === 'CONFIRMED' ? '' : ` (${statusWords(s.status)})`;
  if (!before) return isCancelled(s.status) ? out('cancelled', `seen cancelled, ${at}`) : out('booked', `booked for ${at}${status}`);
  if (before.gone) return out('booked', `back at the booking service, ${at}${status}`);
  if (isCancelled(s.status) && !isCancelled(before.status)) return out('cancelled', `${statusWords(s.status)} at the booking service → removed from Google`);
  if (before.start !== s.start) return out('moved', `moved at the booking service to ${at} (was ${when(before.start, s.zone)})`);
  if (before.status !== s.status) return out('changed', `now ${statusWords(s.status)} at the booking service (was ${statusWords(before.status)})`);
  return out('changed', 'details changed at the booking service');
}

/**
 * Many new appointments stored by one poll (a first import): one entry for all of them, not one a
 * booking, which would push everything else off the status page. `from`/`to`: the poll's window.
 */
export function importWords(count: number, window: { from: number; to: number }, zone: string): ActivityWords {
  const day = (ms: number) => DateTime.fromMillis(ms, { zone }).setLocale('en').toFormat('ccc d LLL yyyy');
  const what = `${count.toLocaleString('en')} new appointment${count === 1 ? '' : 's'}`;
  return entry('imported', 'booking-to-targets', `imported ${what} from the booking service in one poll, between ${day(window.from)} and ${day(window.to)}`);
}

/**
 * Above this many new appointments at once, one entry tells them all (an import, a target's
 * backfill): the status page shows the latest 50, and one line each would push everything else off.
 */
export const BULK_ABOVE = 50;

/**
 * A target's backfill (its first copy of many appointments, a calendar newly configured): one entry
 * for all the events it added, not one "added to Google" each. `place`: the target and its calendars,
 * "Google Calendar (primary)".
 */
export function backfillWords(count: number, place: string): ActivityWords {
  return entry('backfill', 'booking-to-targets', `added ${count.toLocaleString('en')} appointment${count === 1 ? '' : 's'} to ${place}`);
}

/** How a backfill's entry names a target: "Google Calendar (primary)", "the CalDAV calendars (Work, Home)". */
export function targetPlace(target: ActivityTarget, calendars: readonly string[]): string {
  const names = [...new Set(calendars)];
  const list = names.length ? ` (${names.join(', ')})` : '';
  return target === 'google' ? `Google Calendar${list}` : `the CalDAV calendar${names.length > 1 ? 's' : ''}${list}`;
}

const WRITES: Record<string, string> = { insert: 'added to Google', update: 'updated in Google', delete: 'removed from Google', move: 'moved to another Google calendar' };

/** How a target is named in a sentence, and the direction of what a person did there. */
function placeOf(target: ActivityTarget = 'google') {
  return { target, place: target === 'caldav' ? 'the CalDAV calendar' : 'Google', dir: `${target}-to-booking` as ActivityDirection };
}

function reverseWords(action: { kind: string; reason?: string }, movedTo: number | null, s: ActivitySubject, where: ActivityTarget | undefined): ActivityWords | null {
  const { target, place, dir } = placeOf(where);
  const to = movedTo === null ? '' : ` to ${when(movedTo, s.zone)}`;
  const wins = 'the booking service wins';
  if (action.kind === 'restore' && action.reason === 'not-a-time') return entry('reverted', 'reverted', `made all-day in ${place} → moved back`, 'an appointment needs a time');
  if (action.kind === 'restore') return entry('reverted', 'reverted', `moved in ${place}${to}, but the booking service moved it meanwhile → moved back`, wins, s.start);
  if (action.kind === 'recreate' && action.reason === 'booking-changed') return entry('recreated', 'reverted', `deleted in ${place}, but the booking service changed it meanwhile → recreated`, wins, s.start);
  if (action.kind === 'recreate') return entry('recreated', 'reverted', `deleted in ${place} → recreated`, 'it is still booked at the booking service; on_delete: recreate', s.start);
  if (action.kind === 'ignore') return entry(`deleted-in-${target}`, dir, `deleted in ${place} → left deleted`, 'the booking service keeps it; on_delete: ignore');
  return null;
}

function settledWords(f: Extract<ActivityFact, { kind: 'settled' }>, s: ActivitySubject): ActivityWords | null {
  const { target, place, dir } = placeOf(f.target);
  const to = when(f.to, s.zone);
  const detail = f.detail;
  const wins = 'the booking service wins';
  if (f.action === 'cancel') {
    if (f.state === 'done') {
      return f.reason === 'already-cancelled'
        ? entry(`cancelled-from-${target}`, dir, `deleted in ${place}; it was already cancelled at the booking service`)
        : entry(`cancelled-from-${target}`, dir, `deleted in ${place} → cancelled at the booking service`, 'on_delete: cancel');
    }
    if (f.state === 'dropped') return entry('dropped', dir, `deleted in ${place}; it is gone at the booking service too`);
    if (f.reason === 'refused') return entry('refused', 'refused', `deleted in ${place} → the booking service refused to cancel it → recreated`, detail ?? 'refused');
    if (f.reason === 'booking-changed') return entry('recreated', 'reverted', `deleted in ${place}, but the booking service changed it meanwhile → recreated`, wins);
    return entry('recreated', 'reverted', `deleted in ${place} → the booking service did not take the cancellation → recreated`, detail);
  }
  if (f.action !== 'reschedule') return null;
  if (f.state === 'done') {
    return f.reason === 'already-there'
      ? entry('rescheduled', dir, `moved in ${place} to ${to}; the booking service already had that time`, null, f.to)
      : entry('rescheduled', dir, `moved in ${place} to ${to} → rescheduled at the booking service`, null, f.to);
  }
  if (f.state === 'dropped') return entry('dropped', dir, `moved in ${place} to ${to}, but it is ${f.reason === 'cancelled' ? 'cancelled' : 'gone'} at the booking service → nothing sent`);
  if (f.reason === 'conflict') {
    const taken = f.taken?.length ? `moved onto ${f.taken.join(' and ')}'s slot (${to})` : `moved in ${place} to ${to}, a taken slot`;
    return entry('reverted', 'reverted', `${taken} → moved back`, 'the slot is taken at the booking service; on_conflict: revert', s.start);
  }
  if (f.reason === 'booking-changed') return entry('reverted', 'reverted', `moved in ${place} to ${to}, but the booking service moved it meanwhile → moved back`, wins, s.start);
  if (f.reason === 'refused') return entry('refused', 'refused', `moved in ${place} to ${to} → refused by the booking service → moved back`, detail ?? 'refused', s.start);
  return entry('reverted', 'reverted', `moved in ${place} to ${to} → the booking service did not take it → moved back`, detail, s.start);
}

export function activityWords(fact: ActivityFact, subject: ActivitySubject): ActivityWords | null {
  switch (fact.kind) {
    case 'booking':
      return bookingWords(fact.before, subject);
    case 'google-write': {
      const what = WRITES[fact.action] ?? 'written to Google';
      const timed = fact.action === 'insert' || fact.action === 'update';
      return entry('google-write', 'booking-to-targets', timed ? `${what}, ${when(subject.start, subject.zone)}` : what, null, subject.start);
    }
    case 'reverse':
      return reverseWords(fact.action, fact.movedTo, subject, fact.target);
    case 'settled':
      return settledWords(fact, subject);
  }
}

/**
 * The booking service telling us back what the reverse sync asked of it is not news: the entry of
 * the settled move (or cancellation) says it. `latest` is the appointment's latest reverse-sync action.
 */
export function isOwnEcho(words: ActivityWords, latest: { kind: string; state: string; newStart: number } | undefined): boolean {
  if (!latest || (latest.state !== 'pending' && latest.state !== 'done')) return false;
  if (words.kind === 'moved') return latest.kind === 'reschedule' && latest.newStart === words.start;
  return words.kind === 'cancelled' && latest.kind === 'cancel';
}
