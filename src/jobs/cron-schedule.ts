// A schedule of the config: a node-cron expression, run in the business's time zone
// (booking.timezone), or in the zone its `CRON_TZ=<zone>` prefix names ("CRON_TZ=UTC 0 3 * * *").
// The prefix is the convention of cronie and robfig/cron: one syntax for every schedule of the
// config, with no extra key beside each one, and the zone travels with the expression.
import cron from 'node-cron';

export interface CronSchedule {
  expression: string;
  /** The zone the schedule names itself; undefined: the default zone applies. */
  timezone: string | undefined;
}

const PREFIX = /^\s*CRON_TZ=(\S*)\s+/;

export function parseCronSchedule(text: string): CronSchedule {
  const prefix = PREFIX.exec(text);
  if (!prefix) return { expression: text.trim(), timezone: undefined };
  return { expression: text.slice(prefix[0].length).trim(), timezone: prefix[1] };
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone !== '';
  } catch {
    return false;
  }
}

/** What is wrong with a schedule, for the config's error list; undefined when it is valid. */
export function cronScheduleProblem(text: string): string | undefined {
  const { expression, timezone } = parseCronSchedule(text);
  if (timezone !== undefined && !isTimeZone(timezone)) return `CRON_TZ=${timezone} is not an IANA time zone (e.g. CRON_TZ=Europe/Lisbon)`;
  if (!cron.validate(expression))
    return 'is not a valid cron schedule (node-cron syntax, e.g. "*/5 * * * *", optionally after CRON_TZ=<zone>)';
  return undefined;
}
