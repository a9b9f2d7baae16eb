// HTTP load from a worker thread (its own event loop) over loopback keep-alive connections:
// closed loop (N connections, each sends when the last answer came) or open loop (a fixed rate,
// latency counted from when each request was due, so a stall is not hidden).
import { Worker } from 'node:worker_threads';

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
}

// Plain JavaScript, so the worker needs no TypeScript loader.
const LOAD = `
const { parentPort, workerData: s } = require('node:worker_threads');
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: s.connections || 64 });
const run = s.run || Math.random().toString(36).slice(2);
function body(i) {
  const key = s.keys.length ? s.keys[i % s.keys.length] : run + '-' + i;
  const head = JSON.stringify({ event: 'appointment.updated', timestamp: new Date().toISOString(), data: { appointment_key: key, n: run + '-' + i, pad: '' } });
  return head.replace('"pad":""', '"pad":"' + 'x'.repeat(Math.max(0, (s.bodyBytes || 0) - head.length)) + '"');
}
const statuses = {};
function one(i, t0) {
  return new Promise((resolve) => {
    const b = s.method === 'POST' ? body(i) : undefined;
    const headers = { ...(s.headers || {}) };
    if (b) { headers['content-type'] = 'application/json'; headers['content-length'] = Buffer.byteLength(b); }
    const req = http.request({ agent, host: '127.0.0.1', port: s.port, path: s.path, method: s.method, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve([res.statusCode, performance.now() - t0]));
    });
    req.on('error', () => resolve([0, performance.now() - t0]));
    req.end(b);
  });
}
(async () => {
  let sent = 0, ok = 0, bad = 0;
  const latencies = [];
  const note = ([status, ms]) => {
    statuses[status] = (statuses[status] || 0) + 1;
    if (status === 200 || status === 304) { ok++; latencies.push(ms); } else bad++;
  };
  const start = performance.now();
  const end = start + s.durationMs;
  if (s.rate) {
    const pending = [];
    while (performance.now() < end) {
      const due = Math.floor(((performance.now() - start) * s.rate) / 1000);
      while (sent < due) { const t0 = start + (sent * 1000) / s.rate; pending.push(one(sent++, t0).then(note)); }
      await new Promise((r) => setTimeout(r, 1));
    }
    await Promise.all(pending);
  } else {
    const loop = async () => { while (performance.now() < end && sent < (s.maxRequests || Infinity)) note(await one(sent++, performance.now())); };
    await Promise.all(Array.from({ length: s.connections }, loop));
  }
  agent.destroy();
  parentPort.postMessage({ ok, bad, elapsedMs: performance.now() - start, latencies, statuses });
})();
`;

export function load(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const w = new Worker(LOAD, { eval: true, workerData: { keys: [], ...spec } });
    w.once('message', (m: LoadResult) => {
      void w.terminate();
      resolve(m);
    });
    w.once('error', reject);
  });
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0) : 0;
}
