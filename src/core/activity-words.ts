// What happened to an appointment, in words a receptionist reads (the status page's activity, the
// demo's log): "moved in Google to Tue 14 Jan 10:30 → rescheduled at the booking service". Pure:
// facts in, one entry out (or none: a move still on its way is told when it settles).
import { DateTime } from 'luxon';
import { isCancelled } from './appointment.ts';
import { maskLongNumbers } from './mask-numbers.ts';
import { messagesFor, statusInText, type Messages, type Output } from './i18n/index.ts';

/** booking → Google/feeds, Google (or CalDAV) → booking, put back, refused by the booking service. */
export type ActivityDirection =
  | 'booking-to-targets'
  | 'google-to-booking'
  | 'caldav-to-booking'
  | 'microsoft-to-booking'
  | 'reverted'
  | 'refused';

/** Where a person made the change: Google unless said (a CalDAV calendar). */
export type ActivityTarget = 'google' | 'caldav' | 'microsoft';

/** The language entries are told in, and where the booking service's changes go (only those are named). */
export interface Voice {
  m: Messages;
  outputs: readonly Output[];
}

export const ENGLISH: Voice = { m: messagesFor('en'), outputs: ['google', 'feeds'] };

/** How the terminal and the status page label a direction, in a few words: "booking → CalDAV/feeds". */
export function directionLabel(direction: string, voice: Voice = ENGLISH): string {
  const d = voice.m.direction;
  if (direction === 'booking-to-targets') return d['booking-to-targets'](voice.outputs.map((o) => voice.m.outputs[o]).join('/'));
  return Object.hasOwn(d, direction) ? d[direction as Exclude<ActivityDirection, 'booking-to-targets'>] : direction;
}

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

/** "Tue 14 Jan 10:30" ("sáb. 14 jan. 10:30") in the business's time zone. */
export function when(ms: number, zone: string, tag = 'en'): string {
  return DateTime.fromMillis(ms, { zone }).setLocale(tag).toFormat('ccc d LLL HH:mm');
}

/** NO_SHOW → "no-show", CANCELED_CLIENT → "cancelled by the client"; never the code itself. */
function statusWords(status: string, m: Messages = ENGLISH.m): string {
  return statusInText(m, status);
}

const entry = (
  kind: string,
  direction: ActivityDirection,
  summary: string,
  reason: string | null = null,
  start: number | null = null,
): ActivityWords => ({
  kind,
  direction,
  summary,
  // The only free text in an entry is what the booking service said.
  reason: reason === null ? null : maskLongNumbers(reason),
  start,
});

function bookingWords(before: { start: number; status: string; gone: boolean } | undefined, s: ActivitySubject, v: Voice): ActivityWords {
  const t = v.m.activity;
  const at = when(s.start, s.zone, v.m.tag);
  const out = (kind: string, summary: string) => entry(kind, 'booking-to-targets', summary, null, s.start);
  const removed = t.removedFrom(v.outputs);
  // A cancelled appointment leaves the calendars; a feed may keep it, marked cancelled (include_cancelled).
  const calendars = v.outputs.filter((o) => o !== 'feeds');
  const cancelledFrom = t.removedFrom(calendars.length ? calendars : v.outputs);
  if (s.gone) return s.goneReason === 'out of scope' ? out('gone', t.leftScope(removed)) : out('gone', t.goneAtBooking(removed));
  const status = s.status === 'CONFIRMED' ? '' : statusWords(s.status, v.m);
  if (!before) return isCancelled(s.status) ? out('cancelled', t.seenCancelled(at)) : out('booked', t.booked(at, status));
  if (before.gone) return out('booked', t.back(at, status));
  if (isCancelled(s.status) && !isCancelled(before.status))
    return out('cancelled', t.cancelledAtBooking(statusWords(s.status, v.m), cancelledFrom));
  if (before.start !== s.start) return out('moved', t.movedAtBooking(at, when(before.start, s.zone, v.m.tag)));
  if (before.status !== s.status) return out('changed', t.statusChanged(statusWords(s.status, v.m), statusWords(before.status, v.m)));
  return out('changed', t.detailsChanged);
}

/**
 * Many new appointments stored by one poll (a first import): one entry for all of them, not one a
 * booking, which would push everything else off the status page. `from`/`to`: the poll's window.
 */
export function importWords(count: number, window: { from: number; to: number }, zone: string, v: Voice = ENGLISH): ActivityWords {
  const day = (ms: number) => DateTime.fromMillis(ms, { zone }).setLocale(v.m.tag).toFormat('ccc d LLL yyyy');
  return entry('imported', 'booking-to-targets', v.m.activity.imported(count, day(window.from), day(window.to)));
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
export function backfillWords(count: number, place: string, v: Voice = ENGLISH): ActivityWords {
  return entry('backfill', 'booking-to-targets', v.m.activity.backfill(count, place));
}

/** How a backfill's entry names a target: "Google Calendar (primary)", "the CalDAV calendars (Work, Home)". */
export function targetPlace(target: ActivityTarget, calendars: readonly string[], m: Messages = ENGLISH.m): string {
  const names = [...new Set(calendars)];
  const list = names.length ? ` (${names.join(', ')})` : '';
  if (target === 'microsoft') return m.activity.microsoftPlace(names.length > 1, list);
  return target === 'google' ? m.activity.googlePlace(list) : m.activity.caldavPlace(names.length > 1, list);
}

/** How a target is named in a sentence, and the direction of what a person did there. */
function placeOf(v: Voice, target: ActivityTarget = 'google') {
  return { target, place: v.m.activity.places[target], dir: `${target}-to-booking` as ActivityDirection };
}

function reverseWords(
  action: { kind: string; reason?: string },
  movedTo: number | null,
  s: ActivitySubject,
  where: ActivityTarget | undefined,
  v: Voice,
): ActivityWords | null {
  const t = v.m.activity;
  const { target, place, dir } = placeOf(v, where);
  const to = movedTo === null ? '' : when(movedTo, s.zone, v.m.tag);
  const putBack = action.kind === 'restore' ? t.putBack[action.reason as keyof typeof t.putBack] : undefined;
  if (putBack) {
    const { text, why } = putBack(place);
    return entry('reverted', 'reverted', text, why, s.start);
  }
  if (action.kind === 'restore' && action.reason === 'earlier-write')
    return entry('reverted', 'reverted', t.earlierWrite(place, to), t.wins, s.start);
  if (action.kind === 'restore') return entry('reverted', 'reverted', t.movedMeanwhile(place, to), t.wins, s.start);
  if (action.kind === 'recreate' && action.reason === 'booking-changed')
    return entry('recreated', 'reverted', t.deletedChangedMeanwhile(place), t.wins, s.start);
  if (action.kind === 'recreate') return entry('recreated', 'reverted', t.deletedRecreated(place), t.stillBooked, s.start);
  if (action.kind === 'ignore') return entry(`deleted-in-${target}`, dir, t.deletedLeft(place), t.keeps);
  return null;
}

function settledWords(f: Extract<ActivityFact, { kind: 'settled' }>, s: ActivitySubject, v: Voice): ActivityWords | null {
  const t = v.m.activity;
  const { target, place, dir } = placeOf(v, f.target);
  const to = when(f.to, s.zone, v.m.tag);
  const detail = f.detail;
  if (f.action === 'cancel') {
    if (f.state === 'done') {
      return f.reason === 'already-cancelled'
        ? entry(`cancelled-from-${target}`, dir, t.deletedAlreadyCancelled(place))
        : entry(`cancelled-from-${target}`, dir, t.deletedCancelled(place), t.onDeleteCancel);
    }
    if (f.state === 'dropped') return entry('dropped', dir, t.deletedGoneToo(place));
    if (f.reason === 'refused') return entry('refused', 'refused', t.deletedRefused(place), detail ?? t.refused);
    if (f.reason === 'booking-changed') return entry('recreated', 'reverted', t.deletedChangedMeanwhile(place), t.wins);
    return entry('recreated', 'reverted', t.deletedNotTaken(place), detail);
  }
  if (f.action !== 'reschedule') return null;
  if (f.state === 'done') {
    return f.reason === 'already-there'
      ? entry('rescheduled', dir, t.movedAlreadyThere(place, to), null, f.to)
      : entry('rescheduled', dir, t.movedRescheduled(place, to), null, f.to);
  }
  if (f.state === 'dropped' && f.reason === 'put-back') return entry('dropped', dir, t.movedPutBack(place, to));
  if (f.state === 'dropped' && f.reason === 'taken-back') return entry('dropped', dir, t.movedTakenBack(place, to));
  if (f.state === 'dropped') return entry('dropped', dir, t.movedDropped(place, to, f.reason === 'cancelled'));
  if (f.reason === 'conflict') {
    const summary = f.taken?.length ? t.movedOnto(f.taken, to) : t.movedTaken(place, to);
    return entry('reverted', 'reverted', summary, t.slotTaken, s.start);
  }
  if (f.reason === 'booking-changed') return entry('reverted', 'reverted', t.movedMeanwhile(place, to), t.wins, s.start);
  if (f.reason === 'refused') return entry('refused', 'refused', t.movedRefused(place, to), detail ?? t.refused, s.start);
  return entry('reverted', 'reverted', t.movedNotTaken(place, to), detail, s.start);
}

export function activityWords(fact: ActivityFact, subject: ActivitySubject, v: Voice = ENGLISH): ActivityWords | null {
  switch (fact.kind) {
    case 'booking':
      return bookingWords(fact.before, subject, v);
    case 'google-write': {
      const writes = v.m.activity.writes;
      const what = Object.hasOwn(writes, fact.action) ? writes[fact.action as keyof typeof writes] : writes.other;
      const timed = fact.action === 'insert' || fact.action === 'update';
      return entry(
        'google-write',
        'booking-to-targets',
        timed ? `${what}, ${when(subject.start, subject.zone, v.m.tag)}` : what,
        null,
        subject.start,
      );
    }
    case 'reverse':
      return reverseWords(fact.action, fact.movedTo, subject, fact.target, v);
    case 'settled':
      return settledWords(fact, subject, v);
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
