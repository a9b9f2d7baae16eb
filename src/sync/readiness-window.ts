// The one readiness window: how long an upstream (the booking API, Google) may go without a
// successful answer before readiness warns. Three poll periods, so one or two failed polls in a row
// are not news, and at least a minute.
import { cronPeriodMs } from './cron-period.ts';

export function readinessWindowMs(pollSchedule: string): number {
  return Math.max(3 * cronPeriodMs(pollSchedule), 60_000);
}
