// What people do in their calendars, Google Calendar, a CalDAV app on a phone and Outlook (drag an
// event to a free or a taken slot, delete it), what Google does now and then (forget sync tokens),
// and fault windows in which 30% of the calls to the booking API or a calendar fail.
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { Step } from './step.ts';
import type { World } from './world.ts';
import { clockTime, DURATION_MS, isCancelled, slotStart, SLOTS, ZONE, type Model } from './model.ts';

const at = (ms: number) => ({ dateTime: DateTime.fromMillis(ms, { zone: ZONE }).toISO()!, timeZone: ZONE });

type Calendar = 'google' | 'caldav' | 'outlook';
const CALENDARS: readonly Calendar[] = ['google', 'caldav', 'outlook'];
const NAME: Record<Calendar, string> = { google: 'Google', caldav: 'the CalDAV app', outlook: 'Outlook' };

/** Where an appointment's event is live in this calendar now, as a person would find it: its times. */
function shown(w: World, calendar: Calendar, key: string): { start: number; end: number } | undefined {
  if (calendar === 'caldav') return w.caldav.object(key);
  if (calendar === 'outlook') return w.outlook.event(key);
  const live = w.liveEvents(key)[0]?.event;
  return live ? { start: Date.parse(live.start!.dateTime!), end: Date.parse(live.end!.dateTime!) } : undefined;
}

/** Where calbridge last wrote this appointment's event in this calendar, and how many writes it made there. */
const written = (w: World, calendar: Calendar) =>
  calendar === 'caldav'
    ? { starts: w.caldav.writtenStarts, counts: w.caldav.writeCounts }
    : { starts: w.writtenStarts, counts: w.writeCounts };

class PersonMove extends Step {
  constructor(
    private readonly calendar: Calendar,
    private readonly pick: number,
    private readonly slot: number,
  ) {
    super();
  }
  plan(): string {
    return `a person drags an event to slot ${this.slot} in ${NAME[this.calendar]}`;
  }
  protected async act(m: Model, w: World): Promise<string> {
    const a = m.pick(this.pick, (x) => shown(w, this.calendar, x.key) !== undefined);
    const event = a && shown(w, this.calendar, a.key);
    if (!a || !event) return `person: no event to move in ${NAME[this.calendar]}`;
    const from = event.start;
    const to = slotStart(this.slot);
    if (to === from) return `person: leaves ${a.code} where it is in ${NAME[this.calendar]}`;
    const length = event.end - from;
    if (this.calendar === 'google') {
      const live = w.liveEvents(a.key)[0]!;
      w.fake.state.userEdit(live.calendarId, live.event.id, { start: at(to), end: at(to + length) });
    } else if (this.calendar === 'outlook') {
      w.outlook.personMoves(a.key, to, to + length);
    } else if (!(await w.caldav.personMoves(a.key, to, to + length))) {
      return `person: the CalDAV app could not save ${a.code}'s move`;
    }
    const booked = w.sim.get(a.key);
    const holders = w.occupants(a.calendarKey, to, to + DURATION_MS, a.key);
    const crossing = m.moves.filter(
      (o) => o.key !== a.key && m.byKey(o.key)?.calendarKey === a.calendarKey && Math.abs(o.to - to) < DURATION_MS,
    );
    for (const o of crossing) o.contested = true;
    // Another calendar still shows a person's move of it that has not reached the booking service:
    // which of the two lands depends on which reverse sync runs first.
    const others = CALENDARS.filter((c) => {
      const elsewhere = c === this.calendar ? undefined : shown(w, c, a.key);
      return booked !== undefined && elsewhere !== undefined && elsewhere.start !== booked.start;
    });
    const racing = others.length > 0;
    for (const o of m.moves.filter((x) => x.key === a.key && others.includes(x.calendar))) o.contested = true;
    // The event still shows this person's previous move, unwritten since: this one builds on that one.
    const { starts, counts } = written(w, this.calendar);
    const writes = counts.get(a.key) ?? 0;
    const previous = m.moves.filter((x) => x.key === a.key && x.calendar === this.calendar).at(-1);
    const onOwnEdit = previous !== undefined && previous.to === from && previous.writes === writes;
    const current = booked !== undefined && booked.start === from && booked.end === from + length;
    m.moves.push({
      step: m.step,
      key: a.key,
      calendar: this.calendar,
      to,
      fromCurrent: current && (!onOwnEdit || (previous.fromCurrent && a.movedAt < previous.step)),
      writes,
      mirrored: a.inScope && !a.removed && !isCancelled(a.status),
      backToOurs: starts.get(a.key) === to,
      contested: holders.length > 0 || crossing.length > 0 || racing,
    });
    const onto = holders.length
      ? `taken by ${holders.map((h) => h.search_code).join(', ')}`
      : crossing.length
        ? 'wanted by another move'
        : 'free';
    return `person: drags ${a.code} ${clockTime(from)} -> ${clockTime(to)} in ${NAME[this.calendar]} (slot ${onto}${booked?.start === from ? '' : `; the booking says ${booked ? clockTime(booked.start) : 'nothing'}`}${racing ? `; ${others.map((c) => NAME[c]).join(' and ')} show${others.length > 1 ? '' : 's'} another move` : ''})`;
  }
}

class PersonDelete extends Step {
  constructor(
    private readonly calendar: Calendar,
    private readonly pick: number,
  ) {
    super();
  }
  plan(): string {
    return `a person deletes an event in ${NAME[this.calendar]}`;
  }
  protected async act(m: Model, w: World): Promise<string> {
    const a = m.pick(this.pick, (x) => shown(w, this.calendar, x.key) !== undefined);
    if (!a) return `person: no event to delete in ${NAME[this.calendar]}`;
    if (this.calendar === 'google') {
      const live = w.liveEvents(a.key)[0]!;
      w.fake.state.userDelete(live.calendarId, live.event.id);
      w.googleDeletions.note(live.event.id);
    } else if (this.calendar === 'outlook') {
      w.outlook.personDeletes(a.key);
    } else if (!(await w.caldav.personDeletes(a.key))) {
      return `person: the CalDAV app could not delete ${a.code}`;
    }
    m.deletions.push({ step: m.step, key: a.key });
    return `person: deletes the event of ${a.code} in ${NAME[this.calendar]}`;
  }
}

class LoseSyncTokens extends Step {
  plan(): string {
    return 'Google forgets every sync token';
  }
  protected async act(_m: Model, w: World): Promise<string> {
    w.fake.state.invalidateSyncTokens();
    return 'google: sync tokens expire (the next round lists everything)';
  }
}

class Faults extends Step {
  constructor(
    private readonly side: 'google' | 'caldav' | 'outlook' | 'booking',
    private readonly on: boolean,
    private readonly afterWrite: boolean,
  ) {
    super();
  }
  plan(): string {
    return `${this.on ? 'start' : 'end'} a fault window at ${this.side}`;
  }
  protected async act(_m: Model, w: World): Promise<string> {
    w.setFaults({ [this.side]: this.on, afterWrite: this.afterWrite });
    if (!this.on) return `faults: ${this.side} answers every call again`;
    return `faults: 30% of calls to ${this.side} fail from now${this.side !== 'booking' && this.afterWrite ? ' (failed writes applied first: answers lost)' : ''}`;
  }
}

const pick = fc.nat(50);

const calendar = fc.constantFrom<Calendar>(...CALENDARS);

export const calendarSteps = [
  { weight: 6, arbitrary: fc.tuple(calendar, pick, fc.integer({ min: 0, max: SLOTS - 1 })).map(([c, p, s]) => new PersonMove(c, p, s)) },
  { weight: 2, arbitrary: fc.tuple(calendar, pick).map(([c, p]) => new PersonDelete(c, p)) },
  { weight: 1, arbitrary: fc.constant(null).map(() => new LoseSyncTokens()) },
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.constantFrom('google' as const, 'caldav' as const, 'outlook' as const, 'booking' as const), fc.boolean(), fc.boolean())
      .map(([s, on, after]) => new Faults(s, on, after)),
  },
];
