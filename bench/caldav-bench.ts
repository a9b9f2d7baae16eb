// CalDAV write economy and backfill rate against a real Radicale: every request calbridge makes is
// counted (calbridge_caldav_calls_total, any method and outcome), appointments stored directly.
import { testAppointment } from '../test/helpers/appointment.ts';
import { startMirrorEnv, type MirrorEnv } from '../test/caldav/mirror-env.ts';

const H = 3_600_000;
const T0 = Date.UTC(2030, 0, 7, 12);

const at = (i: number, shift = 0) =>
  testAppointment({ key: `bench-${i}`, searchCode: `B${i}`, start: T0 + i * H + shift, end: T0 + i * H + shift + H });

async function allCalls(env: MirrorEnv): Promise<number> {
  const metric = await env.t.runtime.services.metrics.registry.getSingleMetric('calbridge_caldav_calls_total')?.get();
  return (metric?.values ?? []).reduce((n, v) => n + v.value, 0);
}

/** Writer passes until nothing is pending; the reverse sync is off here, so every call is the writer's. */
async function write(env: MirrorEnv): Promise<void> {
  await env.writeAll(20);
}

async function economy(): Promise<string[]> {
  const env = await startMirrorEnv({ reverse: { enabled: false } });
  try {
    // Discovery (three PROPFINDs, once per process) is not a per-appointment cost: done first.
    env.t.ctx.appointments.upsert(at(0));
    await write(env);
    const n = 100;
    const counted = async (change: () => void) => {
      const before = await allCalls(env);
      change();
      await write(env);
      return ((await allCalls(env)) - before) / n;
    };
    const created = await counted(() => {
      for (let i = 1; i <= n; i++) env.t.ctx.appointments.upsert(at(i));
    });
    const moved = await counted(() => {
      for (let i = 1; i <= n; i++) env.t.ctx.appointments.upsert(at(i, 30 * 60_000));
    });
    const repeated = await counted(() => {
      for (let i = 1; i <= n; i++) env.t.ctx.appointments.upsert(at(i, 30 * 60_000));
    });
    if (env.files().length !== n + 1) throw new Error(`expected ${n + 1} objects, found ${env.files().length}`);
    return [
      `| new appointment | ${created.toFixed(2)} |`,
      `| material change (moved) | ${moved.toFixed(2)} |`,
      `| repeated delivery / poll with nothing new | ${repeated.toFixed(2)} |`,
    ];
  } finally {
    await env.close();
  }
}

async function backfill(count: number): Promise<number> {
  const env = await startMirrorEnv({ reverse: { enabled: false } });
  try {
    for (let i = 1; i <= count; i++) env.t.ctx.appointments.upsert(at(i));
    const t0 = performance.now();
    await write(env);
    const ms = performance.now() - t0;
    if (env.files().length !== count) throw new Error('backfill incomplete');
    return ms;
  } finally {
    await env.close();
  }
}

export async function runCalDavBench(): Promise<string> {
  const rows = await economy();
  const n = 200;
  const ms = await backfill(n);
  return [
    '## CalDAV writes',
    '',
    'Requests to a real Radicale (the Debian package, file storage on this machine) per appointment, 100 appointments,',
    'every method and outcome counted, discovery done before:',
    '',
    '| what happened | requests per appointment |',
    '|---|---|',
    ...rows,
    '',
    `Backfill of ${n} appointments at requests_per_minute 10000, 4 writes in flight: ${(ms / 1000).toFixed(1)} s, ` +
      `${((n * 1000) / ms).toFixed(0)} appointments a second (pacer floor ${((n / 10_000) * 60).toFixed(1)} s: the rest is the server's time ` +
      'per PUT). At the default 300 requests a minute a backfill is paced to 5 appointments a second.',
  ].join('\n');
}
