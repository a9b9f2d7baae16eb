// Backfill against a fake Google that enforces the per-user quota (600 calls in any rolling minute,
// 403 rateLimitExceeded past it): what share of the configured rate the writer reaches, and how
// many usage-limit answers it met.
import { appointment, createGoogleEnv } from '../test/google/google-env.ts';

export interface BackfillResult {
  count: number;
  rpm: number;
  ms: number;
  calls: number;
  limited: number;
  share: number;
}

export async function backfill(count: number, rpm = 600, quota = 600): Promise<BackfillResult> {
  const env = await createGoogleEnv({ google: { requests_per_minute: rpm }, fake: { quotaPerMinute: quota } });
  try {
    for (let i = 1; i <= count; i++) env.put(appointment(i));
    const t0 = performance.now();
    for (let r = await env.runWriter(); r.more; r = await env.runWriter());
    const ms = performance.now() - t0;
    if (env.fake.events('primary').length !== count) throw new Error('backfill incomplete');
    const calendarCalls = env.fake.log.filter((l) => l.kind !== 'token' && l.kind !== 'other');
    const limited = calendarCalls.filter((l) => l.limited).length;
    const calls = calendarCalls.length - limited;
    return { count, rpm, ms, calls, limited, share: calls / ((ms / 60_000) * rpm) };
  } finally {
    await env.closeAll();
  }
}
