// Google write economy and backfill time, counted by the fake Google (real googleapis client).
import { appointment, createGoogleEnv, type GoogleEnv } from '../test/google/google-env.ts';
import { backfill as quotaBackfill } from './backfill-bench.ts';
import { defaultBurst, WINDOW_MS } from '../src/net/pacer.ts';

const writes = (e: GoogleEnv) => {
  const c = e.fake.counts();
  return c.insert + c.update + c.patch + c.delete + c.get;
};

async function economy(): Promise<string[]> {
  const env = await createGoogleEnv();
  try {
    const n = 100;
    for (let i = 1; i <= n; i++) env.put(appointment(i));
    await env.runWriter();
    const created = writes(env);
    env.fake.resetLog();
    for (let i = 1; i <= n; i++) env.put(appointment(i, { start: appointment(i).start + 1_800_000, end: appointment(i).end + 1_800_000 }));
    await env.runWriter();
    const changed = writes(env);
    env.fake.resetLog();
    for (let i = 1; i <= n; i++) env.put(appointment(i, { start: appointment(i).start + 1_800_000, end: appointment(i).end + 1_800_000 }));
    await env.runWriter();
    await env.runWriter();
    const repeated = writes(env);
    return [
      `| new appointment | ${(created / n).toFixed(2)} |`,
      `| material change (moved) | ${(changed / n).toFixed(2)} |`,
      `| repeated delivery / poll with nothing new | ${(repeated / n).toFixed(2)} |`,
    ];
  } finally {
    await env.closeAll();
  }
}

async function backfill(count: number, rpm: number): Promise<number> {
  const env = await createGoogleEnv({ google: { requests_per_minute: rpm } });
  try {
    for (let i = 1; i <= count; i++) env.put(appointment(i));
    const t0 = performance.now();
    await env.runWriter();
    const ms = performance.now() - t0;
    if (env.fake.events('primary').length !== count) throw new Error('backfill incomplete');
    return ms;
  } finally {
    await env.closeAll();
  }
}

export async function runGoogleBench(): Promise<string> {
  const rows = await economy();
  const fastMs = await backfill(2000, 10_000);
  const paced = await quotaBackfill(700, 600, 600);
  return [
    '## Google writes',
    '',
    'Calls to the fake Google per appointment (inserts, updates, deletes, reads), 100 appointments:',
    '',
    '| what happened | calls per appointment |',
    '|---|---|',
    ...rows,
    '',
    `Backfill of 2,000 appointments at requests_per_minute 10000 (the schema's maximum): ${(fastMs / 1000).toFixed(1)} s ` +
      `(pacer floor ${(((2000 - defaultBurst(10_000)) / (10_001 - defaultBurst(10_000))) * (WINDOW_MS / 1000)).toFixed(1)} s: the burst, then the refill).`,
    '',
    `Backfill of ${paced.count} appointments at requests_per_minute ${paced.rpm} against a fake Google that allows 600 calls in any rolling minute ` +
      `and answers 403 rateLimitExceeded past it: ${paced.calls} calls in ${(paced.ms / 1000).toFixed(1)} s, ` +
      `**${Math.round(paced.share * 100)} %** of the configured rate (target: at least 95 %), **${paced.limited}** usage-limit answers (target: 0).`,
  ].join('\n');
}
