// What each side should show, kept beside the real thing while a history runs. The booking side
// is the model's own copy of every change made there by hand (the daemon never changes a status or
// cancels with on_delete: recreate; it only reschedules, and only after a person's move). Moves
// people make in Google are kept with what was true when they made them, so that the end of the
// history can say which of them must have reached the booking service.
import { DateTime } from 'luxon';

export const ZONE = 'America/Sao_Paulo';
export const C1 = 'c0000000-0000-4000-a000-000000000001';
export const C2 = 'c0000000-0000-4000-a000-000000000002';
export const BOOKING_CALENDARS = [C1, C2] as const;
/** Booking calendar -> Google calendar (google.calendars: C2 first, then '*'). */
export const googleCalendarOf = (calendarKey: string) => (calendarKey === C2 ? 'second' : 'primary');
export const GOOGLE_CALENDARS = ['primary', 'second'] as const;

const SLOT_MS = 30 * 60_000;
export const DURATION_MS = 60 * 60_000;
export const SLOTS = 12;

/** Tomorrow 09:00 in the booking zone, plus `index` half hours: twelve slots of a busy morning. */
export function slotStart(index: number): number {
  const day = DateTime.now().setZone(ZONE).plus({ days: 1 }).set({ hour: 9, minute: 0, second: 0, millisecond: 0 });
  return day.toMillis() + index * SLOT_MS;
}

export const clockTime = (ms: number) => DateTime.fromMillis(ms, { zone: ZONE }).toFormat('HH:mm');

export interface ModelAppointment {
  key: string;
  code: string;
  calendarKey: string;
  /** The booking side's own doing: where its last move put it. */
  start: number;
  status: string;
  name: string;
  inScope: boolean;
  removed: boolean;
  /** Step of the last change made at the booking service by hand, and of the last one to its time. */
  changedAt: number;
  movedAt: number;
}

export interface PersonMove {
  step: number;
  key: string;
  /** Where the person moved it: Google Calendar, a CalDAV app or Outlook. */
  calendar: 'google' | 'caldav' | 'outlook';
  to: number;
  /**
   * Google showed the booking service's times when the person moved it (not an older state), and
   * that state was not the person's own earlier edit made on an older state, nor one the booking
   * service moved after (calbridge may never have seen it: Google lists only the latest state).
   */
  fromCurrent: boolean;
  /** calbridge's writes to this appointment's event so far (a later one means the event was written since). */
  writes: number;
  /** The appointment was in scope, active and mirrored then. */
  mirrored: boolean;
  /**
   * The move put the event back at the time calbridge last wrote it. Google lists only an event's
   * latest state, so unless a round saw the state in between, this looks like an edit of another
   * field (a title): the booking service's own move may win over it.
   */
  backToOurs: boolean;
  /**
   * Another appointment of the same booking calendar overlapped the new slot at some point from the
   * move on, or some person moved one there: whether the move may land depends on timing.
   */
  contested: boolean;
}

export const isCancelled = (status: string) => status.startsWith('CANCEL');

export class Model {
  step = 0;
  readonly appointments: ModelAppointment[] = [];
  readonly moves: PersonMove[] = [];
  readonly deletions: { step: number; key: string }[] = [];
  /** Every step as it happened (targets resolved), for the report of a failing history. */
  readonly log: string[] = [];
  names = 0;

  byKey(key: string): ModelAppointment | undefined {
    return this.appointments.find((a) => a.key === key);
  }

  /** The index-th appointment among those `eligible`, or undefined when none is. */
  pick(index: number, eligible: (a: ModelAppointment) => boolean = (a) => !a.removed): ModelAppointment | undefined {
    const list = this.appointments.filter(eligible);
    return list.length ? list[index % list.length] : undefined;
  }

  note(text: string): void {
    this.log.push(`${String(this.step).padStart(3)}. ${text}`);
  }

  bookingChanged(a: ModelAppointment, time: boolean): void {
    a.changedAt = this.step;
    if (time) a.movedAt = this.step;
  }
}
