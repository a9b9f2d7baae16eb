// The times tests book appointments at: tomorrow 09:00 in the booking zone, plus some hours.
// "Tomorrow" is fixed at the first call in a test file, so a test that runs across midnight in that
// zone still compares the slots it made. One definition for the reverse harness and the mirror envs.
import { DateTime } from 'luxon';
import { TEST_ZONE } from './simulator.ts';

const H = 3_600_000;
let tomorrowAt9: number | undefined;

export function slot(hours: number): number {
  tomorrowAt9 ??= DateTime.now().setZone(TEST_ZONE).plus({ days: 1 }).set({ hour: 9, minute: 0, second: 0, millisecond: 0 }).toMillis();
  return tomorrowAt9 + hours * H;
}
