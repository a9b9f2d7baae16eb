// How often a cron schedule fires (the longest gap among its next runs): the readiness window
// (readiness-window.ts) is three of them.
import cron from 'node-cron';
import { parseCronSchedule } from '../jobs/cron-schedule.ts';

const cache = new Map<string, number>();

export function cronPeriodMs(schedule: string): number {
  const known = cache.get(schedule);
  if (known !== undefined) return known;
  const { expression, timezone } = parseCronSchedule(schedule);
  // The zone matters only across a change of daylight saving time; the gap is the same otherwise.
  const task = cron.createTask(expression, () => undefined, timezone ? { timezone } : {});
  const runs = task.getNextRuns(8).map((d) => d.getTime());
  void task.destroy();
  let gap = 0;
  for (let i = 1; i < runs.length; i++) gap = Math.max(gap, (runs[i] ?? 0) - (runs[i - 1] ?? 0));
  const period = gap > 0 ? gap : 60_000;
  cache.set(schedule, period);
  return period;
}
