// What people do in Google Calendar (drag an event to a free or a taken slot, delete it), what
// Google does now and then (forget sync tokens), and fault windows in which 30% of the calls to
// either API fail.
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { Step } from './step.ts';
import type { World } from './world.ts';
import { clockTime, DURATION_MS, isCancelled, slotStart, SLOTS, ZONE, type Model } from './model.ts';

const at = (ms: number) => ({ dateTime: DateTime.fromMillis(ms, { zone: ZONE }).toISO()!, timeZone: ZONE });

/** An appointment whose event is live in Google now, as a person would find it. */
function withEvent(m: Model, w: World, pick: number) {
  const a = m.pick(pick, (x) => w.liveEvents(x.key).length > 0);
  const live = a && w.liveEvents(a.key)[0];
  return a && live ? { a, ...live } : undefined;
}

class PersonMove extends Step {
  constructor(
    private readonly pick: number,
    private readonly slot: number,
  ) {
    super();
  }
  plan(): string {
    return `a person drags an event to slot ${this.slot}`;
  }
  protected async act(m: Model, w: World): Promise<string> {
    const found = withEvent(m, w, this.pick);
    if (!found) return 'person: no event to move';
    const { a, calendarId, event } = found;
    const from = Date.parse(event.start!.dateTime!);
    const to = slotStart(this.slot);
    if (to === from) return `person: leaves ${a.code} where it is`;
    const length = Date.parse(event.end!.dateTime!) - from;
    w.fake.state.userEdit(calendarId, event.id, { start: at(to), end: at(to + length) });
    const booked = w.sim.get(a.key);
    const holders = w.occupants(a.calendarKey, to, to + DURATION_MS, a.key);
    const crossing = m.moves.filter(
      (o) => o.key !== a.key && m.byKey(o.key)?.calendarKey === a.calendarKey && Math.abs(o.to - to) < DURATION_MS,
    );
    for (const o of crossing) o.contested = true;
    // The event still shows this person's previous move, unwritten since: this one builds on that one.
    const writes = w.writeCounts.get(a.key) ?? 0;
    const previous = m.moves.filter((x) => x.key === a.key).at(-1);
    const onOwnEdit = previous !== undefined && previous.to === from && previous.writes === writes;
    const current = booked !== undefined && booked.start === from && booked.end === from + length;
    m.moves.push({
      step: m.step,
      key: a.key,
      to,
      fromCurrent: current && (!onOwnEdit || (previous.fromCurrent && a.movedAt < previous.step)),
      writes,
      mirrored: a.inScope && !a.removed && !isCancelled(a.status),
      backToOurs: w.writtenStarts.get(a.key) === to,
      contested: holders.length > 0 || crossing.length > 0,
    });
    const onto = holders.length
      ? `taken by ${holders.map((h) => h.search_code).join(', ')}`
      : crossing.length
        ? 'wanted by another move'
        : 'free';
    return `person: drags ${a.code} ${clockTime(from)} -> ${clockTime(to)} (slot ${onto}${booked?.start === from ? '' : `; the booking says ${booked ? clockTime(booked.start) : 'nothing'}`})`;
  }
}

class PersonDelete extends Step {
  constructor(private readonly pick: number) {
    super();
  }
  plan(): string {
    return 'a person deletes an event';
  }
  protected async act(m: Model, w: World): Promise<string> {
    const found = withEvent(m, w, this.pick);
    if (!found) return 'person: no event to delete';
    w.fake.state.userDelete(found.calendarId, found.event.id);
    m.deletions.push({ step: m.step, key: found.a.key });
    return `person: deletes the event of ${found.a.code}`;
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
    private readonly side: 'google' | 'booking',
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
    return `faults: 30% of calls to ${this.side} fail from now${this.side === 'google' && this.afterWrite ? ' (failed writes applied first: answers lost)' : ''}`;
  }
}

const pick = fc.nat(50);

export const googleSteps = [
  { weight: 6, arbitrary: fc.tuple(pick, fc.integer({ min: 0, max: SLOTS - 1 })).map(([p, s]) => new PersonMove(p, s)) },
  { weight: 2, arbitrary: pick.map((p) => new PersonDelete(p)) },
  { weight: 1, arbitrary: fc.constant(null).map(() => new LoseSyncTokens()) },
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.constantFrom('google' as const, 'booking' as const), fc.boolean(), fc.boolean())
      .map(([s, on, after]) => new Faults(s, on, after)),
  },
];
