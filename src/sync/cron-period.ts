// How often a cron schedule fires (the longest gap among its next runs): readiness allows the
// booking API three poll periods of silence.
import cron from 'node-cron';

const cache = new Map<string, number>();

export function cronPeriodMs(schedule: string): number {
  const known = cache.get(schedule);
  if (known !== undefined) return known;
  const task = cron.createTask(schedule, () => undefined);
  const runs = task.getNextRuns(8).map((d) => d.getTime());
  void task.destroy();
  let gap = 0;
  for (let i = 1; i < runs.length; i++) gap = Math.max(gap, (runs[i] ?? 0) - (runs[i - 1] ?? 0));
  const period = gap > 0 ? gap : 60_000;
  cache.set(schedule, period);
  return period;
}
