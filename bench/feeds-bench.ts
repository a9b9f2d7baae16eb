// Feeds at scale: a 10,000-appointment feed with accented and emoji names, served over loopback HTTP
// with keep-alive. Cached 200s and 304s are compared with bare Hono endpoints measured in the same run.
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import ical from 'ical-generator';
import { configSchema, type Config } from '../src/config/schema.ts';
import type { Appointment } from '../src/core/appointment.ts';
import { systemClock } from '../src/core/clock.ts';
import { openDatabase } from '../src/store/db.ts';
import { AppointmentStore } from '../src/store/appointment-store.ts';
import { silentLogger } from '../src/log.ts';
import type { BookingApi } from '../src/booking/port.ts';
import { buildRuntime } from '../src/wiring/runtime.ts';

const EVENTS = 10_000;
const TOKEN = 'bench-feed-token-0123456789abcdef';
const PATH = `/feeds/${TOKEN}.ics`;
const ROUNDS = 11;
const ROUND_SECONDS = 0.3;
const CONCURRENCY = 4;

const FIRST = ['José', 'Maria da Graça', 'João', 'Inês', 'Zoë', 'Ñandú', 'Çağrı', 'Anaïs', 'Björn', 'Łucja'];
const LAST = ['Conceição 🦷', 'Magalhães', 'Núñez 👩🏽‍⚕️', 'Assunção', 'Ferrão 😀', 'Gonçalves', 'Müller', 'Ødegård 🌸'];

function appointmentNo(n: number): Appointment {
  const start = Date.UTC(2026, 0, 1, 8) + n * 3_600_000;
  return {
    key: `bench${String(n).padStart(6, '0')}`,
    searchCode: `S${n}`,
    status: n % 7 === 0 ? 'PENDING' : 'CONFIRMED',
    start,
    end: start + 3_600_000,
    timezone: 'America/Sao_Paulo',
    calendar: { calendarKey: 'cal-1', name: 'Clínica São João · Odontologia' },
    person: {
      personKey: `p${n}`,
      fullName: `${FIRST[n % FIRST.length]} ${LAST[n % LAST.length]} ${n}`,
      email: `patient${n}@example.com`,
      phone: `+55 11 9${String(10_000_000 + n)}`,
      documentNumber: null,
    },
    clientKey: 'client-1',
    services: [{ serviceKey: 'svc-1', name: 'Avaliação e limpeza' }],
    tagKeys: [],
    ownerUser: null,
    externalId: null,
    createdAt: null,
    raw: { record: 'as received', notes: 'Paciente prefere manhã; alergia a látex.' },
  };
}

function benchConfig(dbPath: string): Config {
  return configSchema.parse({
    server: { public_url: 'https://calendar.example.com' },
    database: { path: dbPath },
    booking: { base_url: 'http://127.0.0.1:9', token: 'unused' },
    webhook: { secret: 'bench-webhook-secret-0123', register: false },
    feeds: [{ name: 'Clínica 🦷', token: TOKEN, privacy: 'full', title: '{person.full_name} · {services}' }],
  });
}

const noBooking = new Proxy({} as BookingApi, {
  get: () => () => Promise.reject(new Error('the benchmark has no booking service')),
});

interface Daemon {
  url: string;
  close(): Promise<void>;
}

/** What `serve` builds, through the same builder: the real app, parts, feed cache and database. */
async function startFeeds(config: Config): Promise<Daemon> {
  const runtime = buildRuntime(config, {
    log: silentLogger(),
    clock: systemClock,
    booking: noBooking,
    wake: () => undefined,
    processMetrics: false,
  });
  const { server, url } = await listen(runtime.app);
  return {
    url,
    async close() {
      await closeServer(server);
      await runtime.close();
    },
  };
}

async function listen(app: Hono): Promise<{ server: ServerType; url: string }> {
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function closeServer(server: ServerType): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    (server as { closeAllConnections?: () => void }).closeAllConnections?.();
  });
}

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; bytes: number; etag: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, etag: String(res.headers.etag ?? '') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function timed<T>(fn: () => Promise<T> | T): Promise<[T, number]> {
  const t0 = performance.now();
  const value = await fn();
  return [value, performance.now() - t0];
}

interface Round {
  rps: number;
  /** CPU time of this process (server and client) per request, µs. */
  cpuUs: number;
}

/** One round of ROUND_SECONDS with CONCURRENCY requests in flight; every answer must have `status`. */
async function round(t: Target): Promise<Round> {
  let done = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const end = t0 + ROUND_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const res = await get(t.url, t.headers);
        if (res.status !== t.status) throw new Error(`expected ${t.status}, got ${res.status} from ${t.url}`);
        done++;
      }
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  return { rps: done / ((performance.now() - t0) / 1000), cpuUs: (cpu.user + cpu.system) / done };
}

interface Target {
  url: string;
  headers: Record<string, string>;
  status: number;
}

interface Comparison {
  ours: number;
  bare: number;
  /** Median over rounds of ours/bare measured back to back. */
  ratio: number;
  oursCpuUs: number;
  bareCpuUs: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * Ours and the baseline in short rounds back to back, alternating which goes first; the ratio is the
 * median of each pair's ratio. This machine is shared: a neighbour's burst of work would otherwise
 * land on one side only.
 */
async function compare(ours: Target, bare: Target): Promise<Comparison> {
  for (const t of [ours, bare]) for (let i = 0; i < 50; i++) await get(t.url, t.headers); // warm sockets and JIT
  const pairs: [Round, Round][] = [];
  for (let i = 0; i < ROUNDS; i++) {
    if (i % 2 === 0) {
      const o = await round(ours);
      pairs.push([o, await round(bare)]);
    } else {
      const b = await round(bare);
      pairs.push([await round(ours), b]);
    }
  }
  return {
    ours: median(pairs.map(([o]) => o.rps)),
    bare: median(pairs.map(([, b]) => b.rps)),
    ratio: median(pairs.map(([o, b]) => o.rps / b.rps)),
    oursCpuUs: median(pairs.map(([o]) => o.cpuUs)),
    bareCpuUs: median(pairs.map(([, b]) => b.cpuUs)),
  };
}

export async function runFeedsBench(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-feeds-bench-'));
  try {
    const config = benchConfig(join(dir, 'bench.db'));
    const appointments = Array.from({ length: EVENTS }, (_, n) => appointmentNo(n));

    const seedDb = openDatabase(config.database.path);
    const store = new AppointmentStore(seedDb, systemClock);
    seedDb.transaction(() => {
      for (const a of appointments) store.upsert(a);
    })();
    seedDb.close();

    // ical-generator rendering and folding the whole feed itself, for reference.
    const [, libraryMs] = await timed(() => {
      const cal = ical({ name: 'Clínica 🦷' });
      for (const a of appointments) {
        cal.createEvent({
          id: `${a.key}@calbridge`,
          start: new Date(a.start),
          end: new Date(a.end),
          stamp: new Date(a.start),
          summary: `${a.person.fullName ?? ''} · ${a.services[0]?.name ?? ''}`,
          description: `Services: ${a.services[0]?.name ?? ''}\nCalendar: ${a.calendar.name ?? ''}\nPerson: ${a.person.fullName ?? ''}\nE-mail: ${a.person.email ?? ''}`,
        });
      }
      return cal.toString();
    });

    // Nothing rendered yet: every event is rendered on the first request.
    const cold = await startFeeds(config);
    const [first, fullMs] = await timed(() => get(`${cold.url}${PATH}`));
    if (first.status !== 200) throw new Error(`the feed answered ${first.status}`);
    await cold.close();

    // A restart: the stored fragments are assembled, nothing is rendered.
    const warm = await startFeeds(config);
    const [again, restartMs] = await timed(() => get(`${warm.url}${PATH}`));
    if (again.etag !== first.etag) throw new Error('the feed changed across a restart');

    const bare = new Hono();
    const fixed = new Uint8Array(Buffer.alloc(first.bytes, 'x'));
    bare.get('/fixed', (c) => c.body(fixed, 200, { 'Content-Type': 'text/calendar; charset=utf-8' }));
    // The same four headers a feed's 304 carries, fixed.
    const notModifiedHeaders = {
      ETag: first.etag,
      'Last-Modified': new Date().toUTCString(),
      'Cache-Control': 'private, max-age=900',
      Vary: 'Accept-Encoding',
    };
    bare.get('/not-modified', (c) => c.body(null, 304, notModifiedHeaders));
    const bareServer = await listen(bare);

    const c200 = await compare(
      { url: `${warm.url}${PATH}`, headers: {}, status: 200 },
      { url: `${bareServer.url}/fixed`, headers: {}, status: 200 },
    );
    const c304 = await compare(
      { url: `${warm.url}${PATH}`, headers: { 'If-None-Match': first.etag }, status: 304 },
      { url: `${bareServer.url}/not-modified`, headers: { 'If-None-Match': first.etag }, status: 304 },
    );
    await closeServer(bareServer.server);
    await warm.close();

    const ms = (v: number) => `${Math.round(v)} ms`;
    const rps = (v: number) => `${Math.round(v)}/s`;
    const pct = (ratio: number) => `${Math.round(ratio * 100)}%`;
    const cpu = (c: Comparison) => `${c.oursCpuUs.toFixed(0)} vs ${c.bareCpuUs.toFixed(0)} µs`;
    const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');
    return [
      '## ICS feeds',
      '',
      `One feed of ${EVENTS.toLocaleString('en')} appointments with accented and emoji names (${(first.bytes / 2 ** 20).toFixed(1)} MiB),`,
      `served by the real app over loopback HTTP with keep-alive. Throughput: ${CONCURRENCY} requests in flight, ${ROUNDS} alternating`,
      `pairs of ${ROUND_SECONDS} s rounds against the baseline; medians, and the ratio is the median of the pairs' ratios.`,
      'CPU per request counts this whole process (server and load generator).',
      '',
      '| measure | result | target | |',
      '|---|---|---|---|',
      `| first request after a restart (stored fragments assembled) | ${ms(restartMs)} | < 300 ms | ${verdict(restartMs < 300)} |`,
      `| first request with nothing rendered (full render) | ${ms(fullMs)} | < 2 s | ${verdict(fullMs < 2000)} |`,
      `| ical-generator alone, whole feed in one toString(), for reference | ${ms(libraryMs)} | | |`,
      `| cached 200 | ${rps(c200.ours)} vs bare Hono fixed body ${rps(c200.bare)}: ${pct(c200.ratio)} (CPU ${cpu(c200)}) | >= 70% | ${verdict(c200.ratio >= 0.7)} |`,
      `| 304 (If-None-Match) | ${rps(c304.ours)} vs bare Hono fixed 304 ${rps(c304.bare)}: ${pct(c304.ratio)} (CPU ${cpu(c304)}) | >= 85% | ${verdict(c304.ratio >= 0.85)} |`,
    ].join('\n');
  } finally {
    agent.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}
