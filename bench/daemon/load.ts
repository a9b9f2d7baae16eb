// HTTP load from a worker thread (its own event loop) over loopback keep-alive connections:
// closed loop (N connections, each sends when the last answer came) or open loop (a fixed rate,
// latency counted from when each request was due, so a stall is not hidden). Closed loop can also
// load several servers in turns (`turns`): short slices, one server at a time, so that each sees the
// same minutes of this shared machine (BENCHMARKS.md, "Two layouts of ServerResponse, and the feed rows in turns").
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

// The client: node:http's, keep-alive connections, one request at a time on each. BENCH_CLIENT=undici
// uses undici's instead: it costs the load thread about half as much per request, so bare Hono, which
// node:http's client holds back, answers about twice as many; calbridge answers as many under either
// (BENCHMARKS.md, "What the 500-a-second rounds allocate, and where their p99 comes from").
const UNDICI = createRequire(import.meta.url).resolve('undici');
export const CLIENT = process.env.BENCH_CLIENT === 'undici' ? 'undici' : 'node-http';

export interface LoadSpec {
  port: number;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  /** POST: appointment keys the webhook bodies name, in turn; none: each body names a new one. */
  keys?: string[];
  /** POST: bodies padded to this many bytes. */
  bodyBytes?: number;
  /** Names this run in the bodies (new keys are `{run}-{n}`); random when not given. */
  run?: string;
  /** Stops sending after this many requests (closed loop). */
  maxRequests?: number;
  durationMs: number;
  /** Closed loop. */
  connections?: number;
  /** Open loop: requests a second. */
  rate?: number;
}

export interface LoadResult {
  ok: number;
  bad: number;
  elapsedMs: number;
  latencies: number[];
  /** Status codes seen, with counts. */
  statuses: Record<string, number>;
  /** The target process's CPU in its own slices, from /proc (turns only; ms). */
  targetCpuMs?: number;
  /** The load thread's own CPU while it sent to this target (ms): near elapsedMs, the client was the limit. */
  clientCpuMs: number;
}

/** One server of a `turns` run. */
export interface Target {
  port: number;
  path: string;
  headers?: Record<string, string>;
  /** Its process, whose CPU is read at the start and end of each of its slices. */
  pid: number;
}

export interface TurnsSpec {
  method: 'GET';
  targets: Target[];
  connections: number;
  /** Each target in turn for this long, until durationMs have passed (after one unmeasured turn each). */
  sliceMs: number;
  durationMs: number;
}

// Plain JavaScript, so the worker needs no TypeScript loader. Targets take turns in slices of
// sliceMs (one target: a single slice of durationMs); a slice ends when the answers in flight at its
// end have come, so no request of one target overlaps another's slice.
const LOAD = `
const { parentPort, workerData: s } = require('node:worker_threads');
const { Pool } = require(s.undici);
const http = require('node:http');
const { readFileSync } = require('node:fs');
const run = s.run || Math.random().toString(36).slice(2);
// utime + stime of a process, in clock ticks (10 ms on Linux).
const ticks = (pid) => { const f = readFileSync('/proc/' + pid + '/stat', 'utf8').split(') ')[1].split(' '); return Number(f[11]) + Number(f[12]); };
// process.threadCpuUsage: Node 23.9 and later (0 before).
const threadMs = () => { if (!process.threadCpuUsage) return 0; const u = process.threadCpuUsage(); return (u.user + u.system) / 1000; };
const targets = s.targets.map((t) => ({
  ...t, ...(s.client === 'node-http'
    ? { agent: new http.Agent({ keepAlive: true, maxSockets: s.connections || 64 }) }
    : { pool: new Pool('http://127.0.0.1:' + t.port, { connections: s.connections || 64, pipelining: 1 }) }),
  ok: 0, bad: 0, elapsedMs: 0, latencies: [], statuses: {}, ticks: 0, clientCpuMs: 0,
}));
function body(i) {
  const key = s.keys.length ? s.keys[i % s.keys.length] : run + '-' + i;
  const head = JSON.stringify({ event: 'appointment.updated', timestamp: new Date().toISOString(), data: { appointment_key: key, n: run + '-' + i, pad: '' } });
  return head.replace('"pad":""', '"pad":"' + 'x'.repeat(Math.max(0, (s.bodyBytes || 0) - head.length)) + '"');
}
// node:http's client, or undici's (BENCH_CLIENT=undici).
function one(t, i, t0) {
  const b = s.method === 'POST' ? body(i) : undefined;
  const headers = { ...(t.headers || {}) };
  if (b) { headers['content-type'] = 'application/json'; headers['content-length'] = String(Buffer.byteLength(b)); }
  if (t.agent) {
    return new Promise((resolve) => {
      const req = http.request({ agent: t.agent, host: '127.0.0.1', port: t.port, path: t.path, method: s.method, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve([res.statusCode, performance.now() - t0]));
      });
      req.on('error', () => resolve([0, performance.now() - t0]));
      req.end(b);
    });
  }
  return t.pool.request({ path: t.path, method: s.method, headers, body: b }).then(
    async (res) => { for await (const _ of res.body); return [res.statusCode, performance.now() - t0]; },
    () => [0, performance.now() - t0],
  );
}
(async () => {
  let sent = 0;
  const note = (t) => ([status, ms]) => {
    t.statuses[status] = (t.statuses[status] || 0) + 1;
    if (status === 200 || status === 304) { t.ok++; t.latencies.push(ms); } else t.bad++;
  };
  // Turns: one unmeasured slice at each target first, so the first measured one (always the first
  // target's) does not pay for this thread's own start (its code not yet compiled, connections not open).
  if (s.sliceMs) {
    for (const t of targets) {
      const until = performance.now() + s.sliceMs;
      await Promise.all(Array.from({ length: s.connections }, async () => { while (performance.now() < until) await one(t, sent++, 0); }));
    }
    sent = 0;
  }
  const start = performance.now();
  const end = start + s.durationMs;
  if (s.rate) {
    const t = targets[0];
    const pending = [];
    const c0 = threadMs();
    while (performance.now() < end) {
      const due = Math.floor(((performance.now() - start) * s.rate) / 1000);
      while (sent < due) { const t0 = start + (sent * 1000) / s.rate; pending.push(one(t, sent++, t0).then(note(t))); }
      await new Promise((r) => setTimeout(r, 1));
    }
    await Promise.all(pending);
    t.elapsedMs = performance.now() - start;
    t.clientCpuMs = threadMs() - c0;
  } else {
    const sliceMs = s.sliceMs || s.durationMs;
    for (let k = 0; performance.now() < end && sent < (s.maxRequests || Infinity); k++) {
      const t = targets[k % targets.length];
      const t0 = performance.now();
      const until = Math.min(end, t0 + sliceMs);
      const [p0, c0] = [t.pid ? ticks(t.pid) : 0, threadMs()];
      const loop = async () => { while (performance.now() < until && sent < (s.maxRequests || Infinity)) note(t)(await one(t, sent++, performance.now())); };
      await Promise.all(Array.from({ length: s.connections }, loop));
      t.elapsedMs += performance.now() - t0;
      t.clientCpuMs += threadMs() - c0;
      if (t.pid) t.ticks += ticks(t.pid) - p0;
    }
  }
  await Promise.all(targets.map((t) => (t.agent ? t.agent.destroy() : t.pool.destroy())));
  parentPort.postMessage(targets.map((t) => ({
    ok: t.ok, bad: t.bad, elapsedMs: t.elapsedMs, latencies: t.latencies, statuses: t.statuses, clientCpuMs: t.clientCpuMs,
    ...(t.pid ? { targetCpuMs: t.ticks * 10 } : {}),
  })));
})();
`;

function runLoad(data: Record<string, unknown>): Promise<LoadResult[]> {
  return new Promise((resolve, reject) => {
    const w = new Worker(LOAD, { eval: true, workerData: { keys: [], undici: UNDICI, client: CLIENT, ...data } });
    w.once('message', (m: LoadResult[]) => {
      void w.terminate();
      resolve(m);
    });
    w.once('error', reject);
  });
}

export async function load(spec: LoadSpec): Promise<LoadResult> {
  const { port, path, headers, ...rest } = spec;
  const [result] = await runLoad({ ...rest, targets: [{ port, path, headers }] });
  return result!;
}

/** The targets in turns, closed loop: one result per target, in their order. */
export function turns(spec: TurnsSpec): Promise<LoadResult[]> {
  return runLoad({ ...spec });
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0) : 0;
}
