// What a dry run holds back: every write calbridge would send to the outside world, in the order the
// pass would send it. The capturing ports (capture-target.ts, capture-booking.ts) record them here.

/** A write to a calendar target (Google, a CalDAV server), named by the target. */
export interface TargetWrite {
  kind: 'target';
  /** The target's name as the config calls it: `google`, `caldav`. */
  target: string;
  op: 'create' | 'update' | 'delete';
  calendarId: string;
  eventId: string;
  /** The appointment the event mirrors, when the body names it (a delete is resolved from the links). */
  appointmentKey: string | null;
  /** What the event would show afterwards (its title and start), for people; null for a delete. */
  shows: { title: string; start: number } | null;
}

/** A write to the booking service. */
export interface BookingWrite {
  kind: 'booking';
  op: 'reschedule' | 'cancel' | 'status' | 'webhook';
  appointmentKey: string | null;
  /** reschedule: the new start (epoch ms); status: the new status; webhook: what would change. */
  detail: string | number;
}

export type HeldWrite = TargetWrite | BookingWrite;

export class HeldWrites {
  readonly writes: HeldWrite[] = [];
  hold(w: HeldWrite): void {
    this.writes.push(w);
  }
}
