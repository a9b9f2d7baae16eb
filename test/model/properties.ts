// The promises checked after every history, each on its own, each problem in one line a person can
// act on. They return the problems found; an empty list is the promise kept.
import { eventIdFor } from '../../src/core/event-id.ts';
import type { World } from './world.ts';
import { FEEDS } from './world.ts';
import { C1, clockTime, googleCalendarOf, isCancelled, type Model } from './model.ts';

/**
 * Every appointment in scope and not cancelled has exactly one live Google event, in its mapped
 * calendar, one live CalDAV object and one live Outlook event, each at the booking service's start and end with its title
 * and status, and is in every feed it belongs to with the same times; every other appointment has
 * no live event or object and is in no feed, except a cancelled one in a feed with include_cancelled.
 */
export async function agreement(m: Model, w: World): Promise<string[]> {
  const problems: string[] = [];
  const everything = await w.feed(FEEDS.everything.token);
  const clinicOne = await w.feed(FEEDS.clinicOne.token);
  const known = new Set(m.appointments.map((a) => a.key));
  for (const [name, feed] of [
    ['Everything', everything],
    ['Clinic one', clinicOne],
  ] as const) {
    for (const e of feed) if (!known.has(e.key)) problems.push(`feed ${name} shows ${e.key}, which no one booked`);
  }
  const objects = w.caldav.objects();
  for (const o of objects) if (o.key === null || !known.has(o.key)) problems.push(`CalDAV holds ${o.event.uid}, which no one booked`);
  const outlook = w.outlook.events();
  for (const o of outlook) if (o.key === null || !known.has(o.key)) problems.push(`Outlook holds ${o.event.id}, which no one booked`);
  for (const a of m.appointments) {
    const b = w.sim.get(a.key);
    const inScope = b?.tag_keys.includes('mirror') === true;
    const mirrored = inScope && !isCancelled(b.status);
    const live = w.liveEvents(a.key);
    const where = b ? `${a.code} (${b.status}, ${clockTime(b.start)}${inScope ? '' : ', out of scope'})` : `${a.code} (removed)`;
    if (!mirrored || !b) {
      for (const l of live) problems.push(`${where} still has a live Google event ${l.event.id} in ${l.calendarId}`);
    } else if (live.length !== 1) {
      problems.push(
        `${where} has ${live.length} live Google events (${live.map((l) => `${l.event.id} in ${l.calendarId}`).join(', ') || 'none'}), expected exactly one`,
      );
    } else {
      const { calendarId, event } = live[0]!;
      const start = Date.parse(event.start?.dateTime ?? '');
      const end = Date.parse(event.end?.dateTime ?? '');
      if (![0, 1, 2, 3].some((g) => eventIdFor(a.key, g) === event.id))
        problems.push(`${where}: its Google event has an id of another appointment: ${event.id}`);
      if (calendarId !== googleCalendarOf(b.calendar.calendar_key))
        problems.push(`${where}: its event is in ${calendarId}, not ${googleCalendarOf(b.calendar.calendar_key)}`);
      if (start !== b.start || end !== b.end)
        problems.push(
          `${where}: Google shows ${clockTime(start)}-${clockTime(end)}, the booking service ${clockTime(b.start)}-${clockTime(b.end)}`,
        );
      const title = `${b.person.full_name} · ${b.search_code}`;
      if (event.summary !== title) problems.push(`${where}: Google's title is "${event.summary}", not "${title}"`);
      const status = b.status.startsWith('PENDING') ? 'tentative' : 'confirmed';
      if (event.status !== status) problems.push(`${where}: Google's status is ${event.status}, not ${status}`);
    }
    const inFeed = (name: string, feed: typeof everything, expected: 'show' | 'cancelled' | 'absent') => {
      const found = feed.filter((e) => e.key === a.key);
      if (expected === 'absent') {
        if (found.length) problems.push(`${where} is in feed ${name}, and should not be`);
        return;
      }
      if (found.length !== 1) return void problems.push(`${where} is ${found.length} times in feed ${name}, expected once`);
      const e = found[0]!;
      if (e.start !== b!.start || e.end !== b!.end) problems.push(`${where}: feed ${name} shows ${clockTime(e.start)}-${clockTime(e.end)}`);
      if (e.cancelled !== (expected === 'cancelled'))
        problems.push(`${where}: feed ${name} shows it ${e.cancelled ? '' : 'not '}cancelled`);
    };
    const inCalDav = objects.filter((o) => o.key === a.key);
    if (!mirrored || !b) {
      if (inCalDav.length) problems.push(`${where} still has a live CalDAV object`);
    } else if (inCalDav.length !== 1) {
      problems.push(`${where} has ${inCalDav.length} live CalDAV objects, expected exactly one`);
    } else {
      const o = inCalDav[0]!.event;
      if (o.start !== b.start || o.end !== b.end)
        problems.push(
          `${where}: CalDAV shows ${clockTime(o.start)}-${clockTime(o.end)}, the booking service ${clockTime(b.start)}-${clockTime(b.end)}`,
        );
      const title = `${b.person.full_name} · ${b.search_code}`;
      if (o.summary !== title) problems.push(`${where}: the CalDAV object's title is "${o.summary}", not "${title}"`);
      const status = b.status.startsWith('PENDING') ? 'TENTATIVE' : 'CONFIRMED';
      if (o.status !== null && o.status !== status) problems.push(`${where}: the CalDAV object's status is ${o.status}, not ${status}`);
    }
    const inOutlook = outlook.filter((o) => o.key === a.key);
    if (!mirrored || !b) {
      if (inOutlook.length) problems.push(`${where} still has a live Outlook event`);
    } else if (inOutlook.length !== 1) {
      problems.push(`${where} has ${inOutlook.length} live Outlook events, expected exactly one`);
    } else {
      const o = inOutlook[0]!.event;
      if (o.start !== b.start || o.end !== b.end)
        problems.push(
          `${where}: Outlook shows ${clockTime(o.start)}-${clockTime(o.end)}, the booking service ${clockTime(b.start)}-${clockTime(b.end)}`,
        );
      const title = `${b.person.full_name} · ${b.search_code}`;
      if (o.subject !== title) problems.push(`${where}: the Outlook event's subject is "${o.subject}", not "${title}"`);
      const showAs = b.status.startsWith('PENDING') ? 'tentative' : 'busy';
      if (o.showAs !== showAs) problems.push(`${where}: the Outlook event shows as ${o.showAs}, not ${showAs}`);
    }
    inFeed('Everything', everything, mirrored ? 'show' : 'absent');
    const inClinicOne = inScope && b.calendar.calendar_key === C1;
    inFeed('Clinic one', clinicOne, !inClinicOne ? 'absent' : isCancelled(b.status) ? 'cancelled' : 'show');
  }
  return problems;
}

/**
 * Reschedules sent are no more than the moves people made (per appointment), none went to a slot
 * another appointment held (on_conflict: revert), and the booking service holds the statuses set
 * there by hand: nothing was cancelled by us (on_delete: recreate) nor given another status.
 */
export function reschedules(m: Model, w: World): string[] {
  const problems = w.takenSlotReschedules.map((r) => `a reschedule was sent for ${r}`);
  for (const a of m.appointments) {
    const sent = w.rescheduled.get(a.key) ?? 0;
    const moves = m.moves.filter((x) => x.key === a.key).length;
    if (sent > moves) problems.push(`${a.code}: ${sent} reschedules sent for ${moves} moves people made`);
    const b = w.sim.get(a.key);
    if (b && b.status !== a.status) problems.push(`${a.code}: the booking service says ${b.status}, and only ${a.status} was set there`);
  }
  for (const r of w.sim.requests) {
    if (r.method === 'DELETE' && r.path.startsWith('/api/v3/appointments/'))
      problems.push(`an appointment was cancelled at the booking service: DELETE ${r.path}`);
    if (r.method === 'PATCH' && /^\/api\/v3\/appointments\/[^/]+\/$/.test(r.path))
      problems.push(`a status was changed at the booking service: PATCH ${r.path}`);
  }
  return problems;
}

/**
 * A person's last move of an appointment that met no other appointment in its new slot, was made
 * on the booking service's current time, and saw no later change of that appointment (at the
 * booking service, or a deletion in Google), is what the booking service holds at the end. Not a
 * move back to the time calbridge last wrote: Google lists only the latest state of an event, and
 * that one looks like an edit of another field (model.ts, PersonMove.backToOurs). Any
 * other appointment holds a time someone gave it: its own last move there or a person's move.
 */
export function personMoves(m: Model, w: World): string[] {
  const problems: string[] = [];
  for (const a of m.appointments) {
    const b = w.sim.get(a.key);
    if (!b) continue;
    const moves = m.moves.filter((x) => x.key === a.key);
    const last = moves.at(-1);
    const deletedAfter = last !== undefined && m.deletions.some((d) => d.key === a.key && d.step > last.step);
    if (last?.fromCurrent && last.mirrored && !last.contested && !last.backToOurs && a.changedAt < last.step && !deletedAfter) {
      if (b.start !== last.to)
        problems.push(
          `${a.code}: moved by a person to a free ${clockTime(last.to)} (step ${last.step}), and the booking service holds ${clockTime(b.start)}`,
        );
    } else if (b.start !== a.start && !moves.some((x) => x.to === b.start)) {
      problems.push(
        `${a.code}: the booking service holds ${clockTime(b.start)}, which neither the booking side (${clockTime(a.start)}) nor a person's move gave it`,
      );
    }
  }
  return problems;
}

/** No call is wasted on a calendar: no write leaves an event exactly as it was (our own write taken for news). */
export function noRewrites(_m: Model, w: World): string[] {
  return [...w.rewrites, ...w.caldav.rewrites, ...w.outlook.rewrites].map((r) => `${r} (a wasted write)`);
}
