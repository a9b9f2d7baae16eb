// Webhook acknowledgement: throughput and latency of our receiver (every 200 only after its body is
// committed to SQLite) against a bare Hono endpoint answering 200, measured in the same run.
// The load comes from a worker thread (its own event loop) over loopback keep-alive connections (daemon/load.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { serve, type ServerType } from '@hono/node-server';
import { configSchema } from '../src/config/schema.ts';
import { systemClock } from '../src/core/clock.ts';
import { silentLogger } from '../src/log.ts';
import { buildRuntime } from '../src/wiring/runtime.ts';
import { randomUUID } from 'node:crypto';
import type { BookingApi } from '../src/booking/port.ts';
import { load, type LoadResult } from './daemon/load.ts';
import { deliveryInsertRows } from './delivery-insert.ts';

const CONNECTIONS = 32;
const DURATION_MS = 3000;
const WARMUP_MS = 500;
const MAX_REQUESTS = 200_000;
const BODY_BYTES = 500;
const SECRET = 'bench-webhook-secret-0123456789';

/** One load run: each body names a new appointment, so every 200 is a new delivery committed. */
function loadRun(port: number, path: string, durationMs: number, run: string): Promise<LoadResult> {
  return load({ port, method: 'POST', path, durationMs, run, connections: CONNECTIONS, maxRequests: MAX_REQUESTS, bodyBytes: BODY_BYTES });
}

function listen(app: Hono): Promise<ServerType> {
  return new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
}

const close = (s: ServerType) => new Promise<void>((r) => s.close(() => r()));
const portOf = (s: ServerType) => (s.address() as AddressInfo).port;

function percentile(sorted: number[], p: number): number {
  return sorted.length ? (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0) : 0;
}

interface Measured {
  rate: number;
  p50: number;
  p99: number;
  ok: number;
  bad: number;
}

async function measure(port: number, path: string, run = `run-${randomUUID()}`): Promise<Measured> {
  await loadRun(port, path, WARMUP_MS, `warm-${randomUUID()}`);
  const r = await loadRun(port, path, DURATION_MS, run);
  const sorted = [...r.latencies].sort((a, b) => a - b);
  return { rate: r.ok / (r.elapsedMs / 1000), p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), ok: r.ok, bad: r.bad };
}

const unused = (): never => {
  throw new Error('the booking API is not used by this benchmark');
};
const noBooking = { listPages: unused, getAppointment: unused } as unknown as BookingApi;

/** Our receiver on a fresh database; returns the measurement and how many deliveries are stored. */
async function measureReceiver(synchronous: 'normal' | 'full'): Promise<Measured & { stored: number; acknowledged: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-bench-'));
  const config = configSchema.parse({
    server: { host: '127.0.0.1', port: 0, public_url: 'http://127.0.0.1:8080' },
    database: { path: join(dir, 'bench.db'), synchronous },
    booking: { base_url: 'http://127.0.0.1:9', token: 'unused' },
    webhook: { secret: SECRET, register: false },
  });
  // What serve builds, through the same builder. wake is a no-op: this measures acknowledgement;
  // the worker is measured by its own tests.
  const runtime = buildRuntime(config, {
    log: silentLogger(),
    clock: systemClock,
    booking: noBooking,
    wake: () => undefined,
    processMetrics: false,
  });
  const db = runtime.services.db;
  await runtime.parts.find((p) => p.name === 'ingest')?.start?.(); // as in serve: background WAL checkpoints
  const server = await listen(runtime.app);
  try {
    const run = `run-${randomUUID()}`;
    const m = await measure(portOf(server), `/webhooks/${SECRET}/`, run);
    // Each body names a new appointment: every acknowledged one must be in the database.
    const stored = (db.prepare("SELECT COUNT(*) AS n FROM deliveries WHERE appointment_key LIKE ? || '-%'").get(run) as { n: number }).n;
    return { ...m, stored, acknowledged: m.ok };
  } finally {
    await close(server);
    await runtime.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runWebhookBench(): Promise<string> {
  const bare = new Hono();
  bare.post('/webhooks/:secret/', (c) => c.json({ status: 'stored' }));
  const bareServer = await listen(bare);
  const b = await measure(portOf(bareServer), `/webhooks/${SECRET}/`);
  await close(bareServer);

  const normal = await measureReceiver('normal');
  const full = await measureReceiver('full');
  const row = (name: string, m: Measured) =>
    `| ${name} | ${Math.round(m.rate).toLocaleString('en')} | ${m.p50.toFixed(2)} | ${m.p99.toFixed(2)} |`;
  const ratio = normal.rate / b.rate;
  const durable = normal.stored >= normal.acknowledged && full.stored >= full.acknowledged;
  return [
    '## Webhook acknowledgement',
    '',
    `${CONNECTIONS} concurrent keep-alive connections over loopback, ${BODY_BYTES}-byte JSON bodies, each a new delivery; ` +
      `${DURATION_MS / 1000} s per target after a ${WARMUP_MS / 1000} s warm-up; the load comes from a worker thread.`,
    '',
    '| target | requests/s | p50 ms | p99 ms |',
    '|---|---:|---:|---:|',
    row('bare Hono endpoint answering 200', b),
    row('calbridge receiver, database.synchronous: normal (survives a process kill)', normal),
    row('calbridge receiver, database.synchronous: full (survives a power cut)', full),
    '',
    `Ratio, receiver (normal) to bare: **${ratio.toFixed(2)}** (target: at least 0.50). ` +
      `Every 200 was answered after its delivery was committed (group commit): ${durable ? 'all' : 'NOT all'} ` +
      `${(normal.acknowledged + full.acknowledged).toLocaleString('en')} acknowledged deliveries were found in the database. ` +
      `Non-200 answers: bare ${b.bad}, normal ${normal.bad}, full ${full.bad}.`,
    '',
    ...deliveryInsertRows(),
  ].join('\n');
}
