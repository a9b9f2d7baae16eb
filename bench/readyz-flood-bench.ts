// /readyz under a flood: 1,000 unauthenticated calls a second for 10 s against a database holding
// 300,000 deliveries, while webhooks are acknowledged at a steady rate. Webhook ack latency with the
// flood is compared, in the same run on the same database, with the same ack load alone and with
// the same flood of /healthz (the cheapest route there is: what any 1,000 requests a second cost).
// Both loads are open-loop (sent on a clock, not when the previous answer came back), so a stalled
// event loop shows as latency instead of hiding as fewer requests.
import { Worker } from 'node:worker_threads';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { serve, type ServerType } from '@hono/node-server';
import { configSchema } from '../src/config/schema.ts';
import { systemClock } from '../src/core/clock.ts';
import { openDatabase, type Db } from '../src/store/db.ts';
import { silentLogger } from '../src/log.ts';
import { buildRuntime } from '../src/wiring/runtime.ts';
import type { BookingApi } from '../src/booking/port.ts';

const DELIVERIES = 300_000;
const WEBHOOKS_PER_SECOND = 500;
const READYZ_PER_SECOND = 1000;
const DURATION_MS = 10_000;
const WARMUP_MS = 1000;
const SECRET = 'bench-readyz-secret-0123456789';

type Kind = 'alone' | 'healthz' | 'readyz';

interface StreamResult {
  sent: number;
  ok: number;
  bad: number;
  latencies: number[];
}

// Plain JavaScript, so the worker needs no TypeScript loader. Sends each stream on a 10 ms tick.
const LOAD = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { port, secret, durationMs, webhooksPerSecond, probe, probesPerSecond, run } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
function request(method, path, body) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const headers = body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {};
    const req = http.request({ agent, host: '127.0.0.1', port, path, method, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve([res.statusCode, performance.now() - t0]));
    });
    req.on('error', () => resolve([0, performance.now() - t0]));
    req.end(body);
  });
}
function stream(perSecond, make) {
  const result = { sent: 0, ok: 0, bad: 0, latencies: [] };
  const pending = [];
  if (perSecond === 0) return { result, done: Promise.resolve() };
  const start = performance.now();
  let done;
  const finished = new Promise((r) => (done = r));
  const tick = () => {
    const elapsed = performance.now() - start;
    const due = Math.min(Math.floor((elapsed / 1000) * perSecond), Math.floor((durationMs / 1000) * perSecond));
    while (result.sent < due) {
      const i = result.sent++;
      pending.push(make(i).then(([status, ms]) => {
        if (status === 200) { result.ok++; result.latencies.push(ms); } else result.bad++;
      }));
    }
    if (elapsed < durationMs) setTimeout(tick, 10);
    else Promise.all(pending).then(() => done());
  };
  tick();
  return { result, done: finished };
}
const webhook = (i) => request('POST', '/webhooks/' + secret + '/', JSON.stringify({
  event: 'appointment.updated', timestamp: new Date().toISOString(), data: { appointment_key: run + '-' + i, status: 'CONFIRMED' },
}));
(async () => {
  const w = stream(webhooksPerSecond, webhook);
  const p = stream(probesPerSecond, () => request('GET', probe));
  await Promise.all([w.done, p.done]);
  agent.destroy();
  parentPort.postMessage({ webhooks: w.result, probes: p.result });
})();
`;

/** Webhooks at WEBHOOKS_PER_SECOND, and `probe` (a path) at probesPerSecond, for durationMs. */
function load(
  port: number,
  durationMs: number,
  probe: string,
  probesPerSecond: number,
): Promise<{ webhooks: StreamResult; probes: StreamResult }> {
  return new Promise((resolve, reject) => {
    const w = new Worker(LOAD, {
      eval: true,
      workerData: {
        port,
        secret: SECRET,
        durationMs,
        webhooksPerSecond: WEBHOOKS_PER_SECOND,
        probe,
        probesPerSecond,
        run: `run-${randomUUID()}`,
      },
    });
    w.once('message', resolve);
    w.once('error', reject);
  });
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0) : 0;
}

/** 300,000 deliveries as a busy month leaves them: processed, a few hundred failed, a small backlog. */
function seed(db: Db): void {
  db.exec(`
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${DELIVERIES})
    INSERT INTO deliveries (dedupe_key, appointment_key, event, body, received_at_ms, state, attempts, processed_at_ms, last_error)
    SELECT 'seed-' || i, 'appt-' || (i % 20000), 'appointment.updated', '', ${Date.now()} - 1000 * (${DELIVERIES} - i),
           CASE WHEN i % 1000 = 0 THEN 'pending' WHEN i % 997 = 0 THEN 'failed' ELSE 'done' END,
           CASE WHEN i % 1000 = 0 THEN 0 ELSE 1 END,
           CASE WHEN i % 1000 = 0 THEN NULL ELSE ${Date.now()} - 1000 * (${DELIVERIES} - i) + 500 END,
           CASE WHEN i % 997 = 0 AND i % 1000 != 0 THEN 'unreadable record' END
    FROM n`);
}

/** What one pass over the table costs (what /readyz did per call before counters), for reference. */
function fullCountMs(db: Db): number {
  const stmt = db.prepare(
    `SELECT COALESCE(SUM(state = 'pending'), 0) AS p, COALESCE(SUM(state = 'failed'), 0) AS f, MIN(CASE WHEN state = 'pending' THEN received_at_ms END) AS o FROM deliveries`,
  );
  stmt.get();
  const t0 = performance.now();
  for (let i = 0; i < 5; i++) stmt.get();
  return (performance.now() - t0) / 5;
}

const unused = (): never => {
  throw new Error('the booking API is not used by this benchmark');
};
const noBooking = { listPages: unused, getAppointment: unused } as unknown as BookingApi;

export async function runReadyzFloodBench(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-bench-readyz-'));
  const config = configSchema.parse({
    server: { host: '127.0.0.1', port: 0, public_url: 'http://127.0.0.1:8080' },
    database: { path: join(dir, 'bench.db') },
    booking: { base_url: 'http://127.0.0.1:9', token: 'unused' },
    webhook: { secret: SECRET, register: false },
  });
  const seeding = openDatabase(config.database.path);
  seed(seeding);
  const scanMs = fullCountMs(seeding);
  seeding.close();
  // What serve builds, through the same builder. wake is a no-op: this measures acknowledgement and
  // probes; the worker has its own tests.
  const runtime = buildRuntime(config, {
    log: silentLogger(),
    clock: systemClock,
    booking: noBooking,
    wake: () => undefined,
    processMetrics: false,
  });
  await runtime.parts.find((p) => p.name === 'ingest')?.start?.(); // as in serve: background WAL checkpoints
  runtime.lifecycle.set('serving');
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: runtime.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  try {
    await load(port, WARMUP_MS, '/readyz', READYZ_PER_SECOND);
    // Twice each, in mirrored order (alone, healthz, readyz, readyz, healthz, alone): tails drift with
    // time on a shared machine, and the mirror gives every kind the same average position.
    const phases: [Kind, string, number][] = [
      ['alone', '/healthz', 0],
      ['healthz', '/healthz', READYZ_PER_SECOND],
      ['readyz', '/readyz', READYZ_PER_SECOND],
    ];
    const runs: Record<Kind, { webhooks: StreamResult; probes: StreamResult }[]> = { alone: [], healthz: [], readyz: [] };
    // CPU of this whole process (server, WAL checkpointer and load generator) per second of load: a
    // steadier measure of what the probes cost than latency tails on a shared machine.
    const cpu: Record<Kind, number> = { alone: 0, healthz: 0, readyz: 0 };
    for (const [kind, probe, rate] of [...phases, ...[...phases].reverse()]) {
      const before = process.cpuUsage();
      runs[kind].push(await load(port, DURATION_MS, probe, rate));
      const used = process.cpuUsage(before);
      cpu[kind] += (used.user + used.system) / 1000 / (2 * DURATION_MS);
    }
    const merged = (kind: Kind, stream: 'webhooks' | 'probes'): StreamResult => {
      const each = runs[kind].map((r) => r[stream]);
      return {
        sent: each.reduce((n, r) => n + r.sent, 0),
        ok: each.reduce((n, r) => n + r.ok, 0) / each.length, // per run, so answered/s reads as one run's
        bad: each.reduce((n, r) => n + r.bad, 0),
        latencies: each.flatMap((r) => r.latencies),
      };
    };
    const both = (kind: Kind) => ({ webhooks: merged(kind, 'webhooks'), probes: merged(kind, 'probes') });
    const [quiet, healthz, readyz] = [both('alone'), both('healthz'), both('readyz')];
    const s = DURATION_MS / 1000;
    const rate = READYZ_PER_SECOND.toLocaleString('en');
    const row = (name: string, r: StreamResult, kind?: Kind) =>
      `| ${name} | ${(r.ok / s).toFixed(0)} | ${percentile(r.latencies, 0.5).toFixed(2)} | ${percentile(r.latencies, 0.99).toFixed(2)} | ${r.bad} | ${kind ? `${Math.round(cpu[kind] * 100)} %` : ''} |`;
    const ratio = (a: StreamResult, b: StreamResult, p: number) =>
      (percentile(a.latencies, p) / Math.max(0.01, percentile(b.latencies, p))).toFixed(2);
    return [
      '## /readyz flood during webhook acknowledgement',
      '',
      `A database holding ${DELIVERIES.toLocaleString('en')} deliveries; webhooks acknowledged at ${WEBHOOKS_PER_SECOND}/s (each a new delivery, ` +
        `committed before its 200) alone, beside ${rate} \`/healthz\` calls a second (what any ${rate} requests a second cost), ` +
        `and beside ${rate} \`/readyz\` calls a second: ${s} s each, twice, in mirrored order (alone, healthz, readyz, readyz, healthz, alone), ` +
        'latencies pooled per kind. Open-loop load from a worker thread over loopback keep-alive connections; the real app with every part of a minimal config. ' +
        'Process CPU is that of the whole process (server, WAL checkpointer, load generator) per second of load: steadier than latency tails on a shared machine.',
      '',
      '| stream | answered/s | p50 ms | p99 ms | non-200 | process CPU |',
      '|---|---:|---:|---:|---:|---:|',
      row('webhook acks alone', quiet.webhooks, 'alone'),
      row(`webhook acks beside ${rate} /healthz a second`, healthz.webhooks, 'healthz'),
      row(`webhook acks beside ${rate} /readyz a second`, readyz.webhooks, 'readyz'),
      row('/healthz during its flood', healthz.probes),
      row('/readyz during its flood', readyz.probes),
      '',
      `Webhook ack latency beside the /readyz flood: p50 ${ratio(readyz.webhooks, quiet.webhooks, 0.5)}x and p99 ${ratio(readyz.webhooks, quiet.webhooks, 0.99)}x alone, ` +
        `p50 ${ratio(readyz.webhooks, healthz.webhooks, 0.5)}x and p99 ${ratio(readyz.webhooks, healthz.webhooks, 0.99)}x beside the /healthz flood. ` +
        `For reference, one pass over the deliveries table (what each /readyz call ran before the counters) takes ${scanMs.toFixed(1)} ms here: ` +
        `${rate} of them a second would need ${((scanMs * READYZ_PER_SECOND) / 1000).toFixed(0)} s of CPU per second.`,
    ].join('\n');
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
    await runtime.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
