// What happens at the booking service by hand: new bookings, moves, status changes, cancellations,
// re-activations, renames, leaving and entering poll.filters (tags), and records removed outright.
// Each change queues a notification in the outbox; none is delivered here.
import fc from 'fast-check';
import { Step } from './step.ts';
import type { World } from './world.ts';
import { BOOKING_CALENDARS, clockTime, isCancelled, slotStart, SLOTS, type Model, type ModelAppointment } from './model.ts';

const MAX_APPOINTMENTS = 12;
/**
 * At most this many appointments out of scope or removed at once: the poll's breaker (rightly)
 * refuses a listing that misses more than three stored ones, and a history is not about that.
 */
const MAX_AWAY = 3;
const away = (m: Readonly<Model>) => m.appointments.filter((a) => a.removed || !a.inScope).length;
const active = (a: ModelAppointment) => !a.removed && !isCancelled(a.status);

export class Book extends Step {
  constructor(
    private readonly calendar: number,
    private readonly slot: number,
    private readonly outOfScope: boolean,
  ) {
    super();
  }
  plan(): string {
    return `book at ${this.slot}${this.outOfScope ? ' (out of scope)' : ''}`;
  }
  override check(m: Readonly<Model>): boolean {
    return m.appointments.length < MAX_APPOINTMENTS && (!this.outOfScope || away(m) < MAX_AWAY);
  }
  protected async act(m: Model, w: World): Promise<string> {
    const calendarKey = BOOKING_CALENDARS[this.calendar % BOOKING_CALENDARS.length]!;
    const name = `Person ${++m.names}`;
    const start = slotStart(this.slot);
    const created = w.sim.create({
      start,
      calendar: { calendar_key: calendarKey },
      person: { full_name: name },
      tag_keys: [this.outOfScope ? 'private' : 'mirror'],
    });
    m.appointments.push({
      key: created.appointment_key,
      code: created.search_code,
      calendarKey,
      start,
      status: 'CONFIRMED',
      name,
      inScope: !this.outOfScope,
      removed: false,
      changedAt: m.step,
      movedAt: m.step,
    });
    return `booking: new ${created.search_code} in calendar ${calendarKey === BOOKING_CALENDARS[0] ? 1 : 2} at ${clockTime(start)}${this.outOfScope ? ', out of scope' : ''}`;
  }
}

/** A change to one existing appointment, chosen among those it applies to. */
abstract class Change extends Step {
  constructor(protected readonly pick: number) {
    super();
  }
  protected abstract eligible(a: ModelAppointment): boolean;
  protected abstract change(m: Model, w: World, a: ModelAppointment): string;
  protected async act(m: Model, w: World): Promise<string> {
    const a = m.pick(this.pick, (x) => this.eligible(x));
    return a ? `booking: ${this.change(m, w, a)}` : `booking: nothing to ${this.plan()}`;
  }
}

export class BookingMove extends Change {
  constructor(
    pick: number,
    private readonly slot: number,
  ) {
    super(pick);
  }
  plan(): string {
    return `move an appointment to slot ${this.slot}`;
  }
  protected eligible(a: ModelAppointment): boolean {
    return active(a) && a.start !== slotStart(this.slot);
  }
  protected change(m: Model, w: World, a: ModelAppointment): string {
    const from = w.sim.get(a.key)!.start;
    a.start = slotStart(this.slot);
    w.sim.reschedule(a.key, a.start);
    m.bookingChanged(a, true);
    return `moves ${a.code} ${clockTime(from)} -> ${clockTime(a.start)}`;
  }
}

const STATUSES = ['PENDING', 'CONFIRMED', 'ATTENDED', 'NO_SHOW'] as const;

class BookingStatus extends Change {
  constructor(
    pick: number,
    private readonly status: number,
  ) {
    super(pick);
  }
  plan(): string {
    return `set a status to ${STATUSES[this.status]}`;
  }
  protected eligible(a: ModelAppointment): boolean {
    return active(a) && a.status !== STATUSES[this.status];
  }
  protected change(m: Model, w: World, a: ModelAppointment): string {
    a.status = STATUSES[this.status]!;
    w.sim.update(a.key, { status: a.status });
    m.bookingChanged(a, false);
    return `${a.code} is now ${a.status}`;
  }
}

class BookingCancel extends Change {
  plan(): string {
    return 'cancel an appointment';
  }
  protected eligible(a: ModelAppointment): boolean {
    return active(a);
  }
  protected change(m: Model, w: World, a: ModelAppointment): string {
    a.status = this.pick % 2 ? 'CANCELED_CLIENT' : 'CANCELED';
    w.sim.cancel(a.key, a.status);
    m.bookingChanged(a, false);
    return `cancels ${a.code} (${a.status})`;
  }
}

class BookingReactivate extends Change {
  plan(): string {
    return 're-activate a cancelled appointment';
  }
  protected eligible(a: ModelAppointment): boolean {
    return !a.removed && isCancelled(a.status);
  }
  protected change(m: Model, w: World, a: ModelAppointment): string {
    a.status = 'CONFIRMED';
    w.sim.update(a.key, { status: a.status });
    m.bookingChanged(a, false);
    return `re-activates ${a.code}`;
  }
}

class BookingRename extends Change {
  plan(): string {
    return 'rename the person of an appointment';
  }
  protected eligible(a: ModelAppointment): boolean {
    return !a.removed;
  }
  protected change(m: Model, w: World, a: ModelAppointment): string {
    a.name = `Person ${++m.names}`;
    w.sim.update(a.key, { person: { full_name: a.name } });
    m.bookingChanged(a, false);
    return `${a.code} now names ${a.name}`;
  }
}

class BookingRetag extends Change {
  plan(): string {
    return 'move an appointment into or out of poll.filters';
  }
  override check(m: Readonly<Model>): boolean {
    return away(m) < MAX_AWAY || m.appointments.some((a) => !a.removed && !a.inScope);
  }
  protected eligible(a: ModelAppointment): boolean {
    return !a.removed;
  }
  protected change(m: Model, w: World, a: ModelAppointment): string {
    if (a.inScope && away(m) >= MAX_AWAY) return `keeps ${a.code} in scope (enough are away)`;
    a.inScope = !a.inScope;
    w.sim.update(a.key, { tag_keys: [a.inScope ? 'mirror' : 'private'] });
    m.bookingChanged(a, false);
    return `${a.code} ${a.inScope ? 'enters' : 'leaves'} the mirrored scope`;
  }
}

class BookingRemove extends Change {
  plan(): string {
    return 'remove an appointment outright (404 from now on)';
  }
  override check(m: Readonly<Model>): boolean {
    return away(m) < MAX_AWAY;
  }
  protected eligible(a: ModelAppointment): boolean {
    return !a.removed;
  }
  protected change(m: Model, w: World, a: ModelAppointment): string {
    a.removed = true;
    w.sim.remove(a.key);
    m.bookingChanged(a, true);
    return `removes ${a.code}`;
  }
}

const slot = fc.integer({ min: 0, max: SLOTS - 1 });
const pick = fc.nat(50);

export const bookingSteps = [
  { weight: 3, arbitrary: fc.tuple(fc.nat(1), slot, fc.boolean()).map(([c, s, p]) => new Book(c, s, p && s % 3 === 0)) },
  { weight: 4, arbitrary: fc.tuple(pick, slot).map(([p, s]) => new BookingMove(p, s)) },
  { weight: 2, arbitrary: fc.tuple(pick, fc.nat(STATUSES.length - 1)).map(([p, s]) => new BookingStatus(p, s)) },
  { weight: 2, arbitrary: pick.map((p) => new BookingCancel(p)) },
  { weight: 1, arbitrary: pick.map((p) => new BookingReactivate(p)) },
  { weight: 2, arbitrary: pick.map((p) => new BookingRename(p)) },
  { weight: 1, arbitrary: pick.map((p) => new BookingRetag(p)) },
  { weight: 1, arbitrary: pick.map((p) => new BookingRemove(p)) },
];
