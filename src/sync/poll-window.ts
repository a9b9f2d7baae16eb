// The poll window [now - past_days, now + future_days] in booking.timezone. Days are calendar days:
// across a DST change a "day" is 23 or 25 hours, so the window keeps the wall-clock time. Pure.
import { DateTime } from 'luxon';

export interface PollWindow {
  from: number;
  to: number;
}

export function pollWindow(now: number, zone: string, pastDays: number, futureDays: number): PollWindow {
  const local = DateTime.fromMillis(now, { zone });
  return { from: local.minus({ days: pastDays }).toMillis(), to: local.plus({ days: futureDays }).toMillis() };
}
