// Microsoft Graph write economy and backfill pacing against the Graph simulator: requests that
// change an event (create, PATCH, DELETE) per appointment, every request counted too, and a backfill
// held to the configured rate per mailbox with Graph's own limits enforced by the simulator (4 in
// flight, a per-minute cap): no 429 may come back.
import { testAppointment } from '../test/helpers/appointment.ts';
import { startMirror, type Env } from '../test/microsoft/mirror-env.ts';
import { MAILBOX } from '../test/microsoft/env.ts';

const H = 3_600_000;
// Inside the delta window and the poll's (days ahead of now).
const T0 = Date.now() + 2 * 86_400_000;
const at = (i: number, shift = 0) =>
  testAppointment({
    key: `bench-${i}`,
    searchCode: `B${i}`,
    start: T0 + i * 15 * 60_000 + shift,
    end: T0 + i * 15 * 60_000 + shift + H / 4,
  });

async function writeAll(env: Env): Promise<void> {
  // The pending count is the last pass's: a pass first, then as many as it takes.
  for (let i = 0; i < 200; i++) {
    await env.run('microsoft-writer');
    if (env.status().pending === 0) return;
  }
  if (env.status().pending > 0) throw new Error(`still ${env.status().pending} to write`);
}

async function economy(): Promise<string[]> {
  const env = await startMirror({ reverse: { enabled: false } });
  try {
    // The calendar's discovery and the first token are not per-appointment costs: done first.
    env.t.ctx.appointments.upsert(at(0));
    await writeAll(env);
    const n = 100;
    const counted = async (change: () => void) => {
      env.graph.resetLog();
      change();
      await writeAll(env);
      return { writes: env.graph.writes() / n, all: env.graph.log.length / n };
    };
    const created = await counted(() => {
      for (let i = 1; i <= n; i++) env.t.ctx.appointments.upsert(at(i));
    });
    const moved = await counted(() => {
      for (let i = 1; i <= n; i++) env.t.ctx.appointments.upsert(at(i, 5 * 60_000));
    });
    const repeated = await counted(() => {
      for (let i = 1; i <= n; i++) env.t.ctx.appointments.upsert(at(i, 5 * 60_000));
    });
    if (env.events().length !== n + 1) throw new Error(`expected ${n + 1} events, found ${env.events().length}`);
    const row = (what: string, r: { writes: number; all: number }) => `| ${what} | ${r.writes.toFixed(2)} | ${r.all.toFixed(2)} |`;
    return [
      row('new appointment', created),
      row('material change (moved)', moved),
      row('repeated delivery / poll with nothing new', repeated),
    ];
  } finally {
    await env.close();
  }
}

interface Backfill {
  count: number;
  rpm: number;
  ms: number;
  requests: number;
  throttled: number;
  peak: number;
}

async function backfill(count: number, rpm: number): Promise<Backfill> {
  // Graph's limits as the simulator enforces them: 4 in flight per mailbox, and here a per-minute cap
  // equal to the configured rate (a pacer that overshoots it meets 429s). Each call takes 20 ms.
  const env = await startMirror({
    reverse: { enabled: false },
    rpm,
    graph: { perMailboxPerMinute: rpm, latencyMs: 20, retryAfterSeconds: 1 },
  });
  try {
    for (let i = 1; i <= count; i++) env.t.ctx.appointments.upsert(at(i));
    const t0 = performance.now();
    await writeAll(env);
    const ms = performance.now() - t0;
    if (env.events().length !== count) throw new Error(`backfill incomplete: ${env.events().length} of ${count}`);
    const graphCalls = env.graph.log.filter((r) => r.kind !== 'token');
    return {
      count,
      rpm,
      ms,
      requests: graphCalls.length,
      throttled: graphCalls.filter((r) => r.status === 429).length,
      peak: env.graph.maxInFlight(MAILBOX),
    };
  } finally {
    await env.close();
  }
}

export async function runMicrosoftBench(options: { count?: number; rpm?: number } = {}): Promise<string> {
  const rows = await economy();
  const b = await backfill(options.count ?? 2000, options.rpm ?? 1000);
  const rate = b.requests / (b.ms / 60_000);
  return [
    '## Microsoft Graph writes',
    '',
    'Requests to the Graph simulator per appointment, 100 appointments, the calendar found and a token held before:',
    '',
    '| what happened | requests that write | all requests |',
    '|---|---|---|',
    ...rows,
    '',
    'A new appointment costs one look-up of its appointment_key property (adoption) and one create.',
    '',
    `Backfill of ${b.count} appointments at requests_per_minute ${b.rpm} (the simulator refusing anything over ${b.rpm} a minute or 4 at once per mailbox, 20 ms a call): ` +
      `${(b.ms / 1000).toFixed(1)} s, ${b.requests} requests, ${rate.toFixed(0)} a minute = ${((100 * rate) / b.rpm).toFixed(1)} % of the configured rate; ` +
      `${b.throttled} answered 429; at most ${b.peak} in flight.`,
  ].join('\n');
}
