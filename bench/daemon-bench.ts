// The whole daemon, measured from outside: `calbridge serve` as a process with the delivery worker,
// the Google writer and the reverse sync live; the booking service and Google faked in another
// process; a bare Hono server in a third, measured in the same run as the baseline.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { loadConfigFile } from '../src/config/load.ts';
import { silentLogger } from '../src/log.ts';
import { buildRuntime } from '../src/wiring/runtime.ts';
import type { StatusDocument } from '../src/status/status-document.ts';
import { runtimeSettings } from '../scripts/modern-node.js';
import { CLIENT as LOAD_CLIENT, load, percentile, turns, type LoadResult, type LoadSpec, type Target } from './daemon/load.ts';
import { cpuMs, freePort, mainThreadCpuMs, startBare, startFakes, startServe, type Fakes } from './daemon/processes.ts';

export const SECRET = 'bench-webhook-secret-0123456789';
const FEED_TOKEN = 'bench-feed-token-0123456789abcdef';
// The feed rows in turns: each server this long at a time (see feedRows).
const TURN_SLICE_MS = 200;
const ADMIN = 'bench-admin-token-0123456789';
export const CLIENT = { client_id: 'client-1', client_secret: 'client-secret-1', refresh_token: 'refresh-1' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Google in serve's config: off, the single form at `rpm` (the account `default`), or with `calendarKeys`
 * one named account per simulated Google user (`u1`, `u2`, ...), the i-th taking the i-th booking
 * calendar ("*": every appointment) at `rpm` of its own.
 */
export type GoogleSetup = false | { rpm: number; calendarKeys?: string[]; reverseSchedule?: string };

/**
 * Microsoft in serve's config (the single form, app-only, one mailbox's calendar taking every
 * appointment) against the fakes' Graph simulator; with `publicUrl` (https) serve's public_url is
 * that address, so Graph change notifications are on (the fakes deliver them to serve's port).
 */
export interface MicrosoftSetup {
  rpm: number;
  tenant: string;
  clientId: string;
  clientSecret: string;
  mailbox: string;
  publicUrl?: string;
}

export function writeConfig(
  dir: string,
  port: number,
  f: Fakes['ready'],
  google: GoogleSetup,
  maxPages = 500,
  microsoft?: MicrosoftSetup,
): string {
  const file = join(dir, 'config.yaml');
  const publicUrl = microsoft?.publicUrl ?? `http://127.0.0.1:${port}`;
  const lines = [
    `server: {host: 127.0.0.1, port: ${port}, public_url: "${publicUrl}", admin_token: ${ADMIN}}`,
    `database: {path: ${join(dir, 'calbridge.db')}}`,
    `booking: {base_url: "${f.bookingUrl}", token: ${f.bookingToken}, timezone: America/Sao_Paulo, page_size: 100, max_pages: ${maxPages}}`,
    `webhook: {secret: ${SECRET}, register: false}`,
    `poll: {past_days: 30, future_days: 60, schedule: "0 0 1 1 *"}`,
    `feeds: [{name: all, token: ${FEED_TOKEN}}]`,
  ];
  if (google) {
    const credentials = `{client_id: ${CLIENT.client_id}, client_secret: ${CLIENT.client_secret}, refresh_token: ${CLIENT.refresh_token}}`;
    const schedule = google.reverseSchedule ? `, schedule: "${google.reverseSchedule}"` : '';
    lines.push('google:', `  requests_per_minute: ${google.rpm}`, `  reverse_sync: {enabled: true, push_notifications: false${schedule}}`);
    if (!google.calendarKeys) lines.push(`  credentials: ${credentials}`, `  api_root: "${f.googleRoot}"`, `  token_url: "${f.tokenUrl}"`);
    else {
      lines.push('  accounts:');
      google.calendarKeys.forEach((key, i) => {
        const user = f.googleUsers[i]!;
        lines.push(
          `    - name: u${i + 1}`,
          `      credentials: ${credentials}`,
          `      api_root: "${user.root}"`,
          `      token_url: "${user.tokenUrl}"`,
          `      calendars: [{calendar_key: "${key}", calendar_id: primary}]`,
        );
      });
    }
  }
  if (microsoft) {
    if (!f.graphRoot) throw new Error('the fakes were started without the Graph simulator');
    lines.push(
      'microsoft:',
      `  tenant: ${microsoft.tenant}`,
      `  credentials: {client_id: ${microsoft.clientId}, client_secret: "${microsoft.clientSecret}"}`,
      `  authority_url: "${f.graphRoot}"`,
      `  graph_root: "${f.graphRoot}"`,
      `  calendars: [{calendar_key: "*", user: "${microsoft.mailbox}", calendar: Calendar}]`,
      `  requests_per_minute: ${microsoft.rpm}`,
      `  reverse_sync: {enabled: true, push_notifications: ${microsoft.publicUrl !== undefined}}`,
    );
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

export async function status(port: number): Promise<StatusDocument> {
  const t0 = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}/api/status`, { headers: { authorization: `Bearer ${ADMIN}` } });
  const body = (await res.json()) as StatusDocument;
  if (process.env.BENCH_IMPORT_DEBUG) process.stderr.write(`status answered after ${(performance.now() - t0).toFixed(0)} ms\n`);
  return body;
}

/** serve's /metrics (Prometheus text), asked with the admin token. */
export const metrics = async (port: number): Promise<string> =>
  (await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${ADMIN}` } })).text();

/** Minor (young-generation) collections so far and their seconds, from calbridge's /metrics. */
async function minorGc(port: number): Promise<{ count: number; seconds: number; newSpaceBytes: number }> {
  const text = await metrics(port);
  const value = (name: string, label = 'kind="minor"') => Number(new RegExp(`^${name}\\{${label}\\} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  // V8 sizes the young generation itself, within the runtime settings' bound: a smaller one is collected more often.
  return {
    count: value('nodejs_gc_duration_seconds_count'),
    seconds: value('nodejs_gc_duration_seconds_sum'),
    newSpaceBytes: value('nodejs_heap_space_size_total_bytes', 'space="new"'),
  };
}

const stored = async (port: number): Promise<number> => Number((await status(port)).ingest?.appointments?.total ?? 0);

export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number, everyMs = 50): Promise<number> {
  const t0 = performance.now();
  while (!(await check())) {
    if (performance.now() - t0 > timeoutMs) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await sleep(everyMs);
  }
  return performance.now() - t0;
}

/**
 * Until serve's backfill is over: each of `targets` (its key in /api/status's targets) has nothing
 * pending and has mirrored something, and its calendar service holds every event it mirrored
 * (`events(i)`: the i-th target's, counted at its simulator). `onCheck` runs at every look.
 */
export async function backfilled(
  port: number,
  targets: string[],
  events: (i: number) => Promise<number>,
  o: { timeoutMs: number; everyMs?: number; onCheck?: () => void },
): Promise<void> {
  await waitFor(
    'backfill',
    async () => {
      o.onCheck?.();
      const all = (await status(port)).targets ?? {};
      for (const [i, name] of targets.entries()) {
        const t = all[name];
        if (!(t?.pending === 0 && t.mirrored > 0)) return false;
        if ((await events(i)) < t.mirrored) return false;
      }
      return true;
    },
    o.timeoutMs,
    o.everyMs,
  );
}

/** A backfill as its calendar service saw it: the calls it answered from the first create to the last (fakes.ts). */
export type BackfillWindow = { calls: number; firstMs: number; lastMs: number };

/** A backfill's calls answered a minute over its window, as a share of the `rpm` it was configured at. */
export const windowShare = (w: BackfillWindow, rpm: number) => w.calls / ((w.lastMs - w.firstMs) / 60_000) / rpm;

interface Measured {
  rate: number;
  p50: number;
  p99: number;
  bad: number;
  cpuUsPerRequest: number;
  /** The main thread's (the event loop's) CPU per request while the load ran, background work that came after not included. */
  loopUsPerRequest?: number;
}

/** Load on one target while its process's CPU is read; `settle` waits for its background work to finish. */
async function measure(pid: number, spec: LoadSpec, settle?: () => Promise<void>): Promise<Measured & { result: LoadResult }> {
  const [c0, l0] = [cpuMs(pid), mainThreadCpuMs(pid)];
  const result = await load(spec);
  const loop = mainThreadCpuMs(pid) - l0;
  await settle?.();
  return { ...measured(result, cpuMs(pid) - c0), loopUsPerRequest: (loop * 1000) / Math.max(1, result.ok) };
}

/** A load's figures, with the target's CPU over it. */
function measured(result: LoadResult, cpu: number): Measured & { result: LoadResult } {
  return {
    rate: result.ok / (result.elapsedMs / 1000),
    p50: percentile(result.latencies, 0.5),
    p99: percentile(result.latencies, 0.99),
    bad: result.bad,
    cpuUsPerRequest: (cpu * 1000) / Math.max(1, result.ok),
    result,
  };
}

/** A target's share of a `turns` run: its CPU is what the load thread read in its own slices. */
const measuredTurn = (result: LoadResult) => measured(result, result.targetCpuMs ?? 0);

/** Ratios, smallest first, as percentages. */
const percents = (values: number[]) =>
  [...values]
    .sort((x, y) => x - y)
    .map((v) => `${(v * 100).toFixed(0)} %`)
    .join(', ');

const fmt = (n: number, d = 0) => n.toLocaleString('en', { minimumFractionDigits: d, maximumFractionDigits: d });

/** First import of `count` appointments by the poll (Google off), then an unchanged pass measured in-process. */
type Pass = { cpuMs: number; ms: number };

// How often the first import's end is looked for in /api/status: as a status page left open would
// (each answer counts every stored appointment and every feed's members, work that grows with them).
const STATUS_EVERY_MS = 250;

// Webhooks posted while the first import runs, one every ACK_EVERY_MS whatever the answers take
// (open loop): how long the import keeps the receiver from answering.
const ACK_EVERY_MS = 50;

type Acks = { n: number; bad: number; p50: number; p99: number; max: number };

/** Posts a webhook every ACK_EVERY_MS until `stop` is called; then the answers' latencies. */
function acksWhile(port: number, keys: readonly string[]): { stop(): Promise<Acks> } {
  const latencies: number[] = [];
  const pending: Promise<void>[] = [];
  let bad = 0;
  let i = 0;
  const post = (): void => {
    const key = keys[i++ % keys.length];
    const body = JSON.stringify({
      event: 'appointment.updated',
      timestamp: new Date().toISOString(),
      data: { appointment_key: key, n: `import-${i}` },
    });
    const t0 = performance.now();
    pending.push(
      fetch(`http://127.0.0.1:${port}/webhooks/${SECRET}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(
        async (r) => {
          const text = await r.text();
          const ms = performance.now() - t0;
          if (r.status === 200) latencies.push(ms);
          else bad++;
          if (process.env.BENCH_IMPORT_DEBUG && (ms > 50 || r.status !== 200))
            process.stderr.write(
              `ack sent at ${(t0 - started).toFixed(0)} ms: ${r.status} after ${ms.toFixed(0)} ms ${r.status === 200 ? '' : text}\n`,
            );
        },
        (e: unknown) => {
          bad++;
          if (process.env.BENCH_IMPORT_DEBUG) process.stderr.write(`ack failed: ${String(e)}\n`);
        },
      ),
    );
  };
  const started = performance.now();
  const timer = setInterval(post, ACK_EVERY_MS);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(pending);
      return {
        n: latencies.length,
        bad,
        p50: percentile(latencies, 0.5),
        p99: percentile(latencies, 0.99),
        max: Math.max(0, ...latencies),
      };
    },
  };
}

/** Fakes seeded with `count` appointments and a config for serve (Google off) in a fresh directory, for `run`; all removed after. */
async function withImportSetup<T>(count: number, run: (fakes: Fakes, config: string, port: number, dir: string) => Promise<T>): Promise<T> {
  const fakes = await startFakes({ seed: count, quota: 600, clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret });
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-import-'));
  try {
    const port = await freePort();
    // 100,000 appointments are 1,000 pages of 100: past booking.max_pages' default of 500.
    return await run(fakes, writeConfig(dir, port, fakes.ready, false, Math.max(500, Math.ceil(count / 100) + 10)), port, dir);
  } finally {
    await fakes.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function firstImport(
  count: number,
): Promise<{ count: number; ms: number; cpuMs: number; listings: number; listRequests: number; cold: Pass; warm: Pass; acks: Acks }> {
  return withImportSetup(count, async (fakes, config, port) => {
    const t0 = performance.now();
    const serve = await startServe(config, port);
    let ms = 0;
    let cpu = 0;
    let total = 0;
    let acks: Acks | undefined;
    const posting = acksWhile(port, await fakes.call<string[]>('keys'));
    try {
      // Done when the first poll has finished: every record it listed is stored (or reported skipped).
      await waitFor(
        'first import',
        async () => {
          const last = (await status(port)).ingest?.poll?.last;
          if (last && last.outcome !== 'success') throw new Error(`the first poll ended ${last.outcome}: ${last.error ?? ''}`);
          return last?.outcome === 'success';
        },
        Math.max(120_000, count * 3),
        STATUS_EVERY_MS,
      );
      ms = performance.now() - t0;
      cpu = cpuMs(serve.pid); // start included: a first import is also the daemon's first start
      acks = await posting.stop();
      total = await stored(port);
    } finally {
      await posting.stop();
      await serve.stop();
    }
    const listRequests = await fakes.call<number>('listRequests');
    // The unchanged pass, in this process (the fakes are elsewhere): what calbridge alone spends. The
    // first pass after start also compiles the code it runs; the second is a running daemon's.
    const runtime = buildRuntime(loadConfigFile(config).config, { log: silentLogger(), processMetrics: false, wake: () => undefined });
    const pass = async () => {
      const c0 = process.cpuUsage();
      const w0 = performance.now();
      const result = await runtime.scheduler.runNow('poll');
      const c = process.cpuUsage(c0);
      if (process.env.BENCH_IMPORT_DEBUG)
        process.stderr.write(`unchanged pass: user ${c.user / 1000} ms, system ${c.system / 1000} ms; ${JSON.stringify(result)}\n`);
      return { cpuMs: (c.user + c.system) / 1000, ms: performance.now() - w0 };
    };
    const cold = await pass();
    const warm = await pass();
    await runtime.close();
    return { count: total, ms, cpuMs: cpu, listRequests, listings: listRequests / Math.ceil(count / 100), cold, warm, acks: acks! };
  });
}

/**
 * Webhook acks while a first import of `count` runs and nothing else is asked of serve: its end is
 * watched in the database file (every listed appointment stored), not in /api/status, whose answers
 * during an import (every stored appointment counted for the feeds) hold the event loop themselves.
 */
async function acksDuringImport(count: number): Promise<Acks & { ms: number }> {
  return withImportSetup(count, async (fakes, config, port, dir) => {
    const serve = await startServe(config, port);
    const t0 = performance.now();
    const posting = acksWhile(port, await fakes.call<string[]>('keys'));
    try {
      const db = new Database(join(dir, 'calbridge.db'), { readonly: true, fileMustExist: true });
      try {
        const total = db.prepare('SELECT COUNT(*) FROM appointments').pluck();
        await waitFor('first import', async () => (total.get() as number) >= count, Math.max(120_000, count * 3), STATUS_EVERY_MS);
      } finally {
        db.close();
      }
      const ms = performance.now() - t0;
      return { ...(await posting.stop()), ms };
    } finally {
      await posting.stop();
      await serve.stop();
    }
  });
}

export async function runDaemonBench(): Promise<string> {
  // BENCH_IMPORT_ONLY=1: only the first import (its sizes from BENCH_IMPORT).
  if (process.env.BENCH_IMPORT_ONLY) return (await importSection()).join('\n');
  const out: string[] = ['## The whole daemon under load', ''];
  const fakes = await startFakes({ seed: 800, quota: 600, clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret });
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-daemon-'));
  const port = await freePort();
  // BENCH_NO_GOOGLE=1 (with BENCH_ACKS_ONLY or BENCH_FEEDS_ONLY): the same rows with Google off, to tell
  // what the backfill running meanwhile costs them from what the receiver or the feed route costs.
  const partial = Boolean(process.env.BENCH_ACKS_ONLY || process.env.BENCH_FEEDS_ONLY);
  const googleOff = partial && Boolean(process.env.BENCH_NO_GOOGLE);
  const config = writeConfig(dir, port, fakes.ready, !googleOff && { rpm: 600 });
  const serve = await startServe(config, port);
  let bare: Awaited<ReturnType<typeof startBare>> | undefined;
  let bareSettings: Awaited<ReturnType<typeof startBare>> | undefined;
  let bareTwin: Awaited<ReturnType<typeof startBare>> | undefined;
  try {
    const keys = await fakes.call<string[]>('keys');
    await waitFor('import', async () => (await status(port)).ingest?.poll?.last?.outcome === 'success', 120_000);
    const feedRes = await fetch(`http://127.0.0.1:${port}/feeds/${FEED_TOKEN}.ics`);
    const etag = feedRes.headers.get('etag')!;
    const feedFile = join(dir, 'feed.ics');
    // Node's fetch asks for gzip and undoes it: what it reads is the plain body (its Content-Length is the gzip one's).
    const plainBody = Buffer.from(await feedRes.arrayBuffer());
    const feedBytes = plainBody.length;
    writeFileSync(feedFile, plainBody);
    bare = await startBare(feedFile);
    // The same bare server under calbridge's runtime settings (bin/calbridge.js's #! line): tells what those
    // settings cost a 304 from what calbridge's work costs (in turns, nothing measurable: BENCHMARKS.md,
    // "Two layouts of ServerResponse, and the feed rows in turns").
    bareSettings = await startBare(feedFile, 'calbridge');
    // A second bare server, the same program: in the feed rows in turns, how far two identical servers
    // measured this way differ is the floor under any difference the rows show.
    bareTwin = await startBare(feedFile);

    // The backfill to Google has begun: acks are measured while it and the delivery backlog drain.
    const pendingDeliveries = async () => Number((await status(port)).ingest?.deliveries?.pending ?? 0);
    const drained = async () => void (await waitFor('deliveries drained', async () => (await pendingDeliveries()) === 0, 120_000));
    const googleBackfilled = () =>
      backfilled(port, ['google.default'], async () => (await fakes.call<{ events: number }>('googleStats')).events, {
        timeoutMs: 240_000,
      });
    const webhook = (p: number, extra: Partial<LoadSpec>): LoadSpec => ({
      port: p,
      method: 'POST',
      path: `/webhooks/${SECRET}/`,
      keys,
      durationMs: 3000,
      ...extra,
    });
    // BENCH_PROPAGATION_ONLY=1: only the propagation after the backfill (a short run while tuning it).
    if (process.env.BENCH_PROPAGATION_ONLY) {
      await sleep(5000); // the backfill's pass has planned its work (pending counts it)
      await googleBackfilled();
      let last = -1;
      for (;;) {
        const n = (await fakes.call<{ events: number }>('googleStats')).events;
        if (n === last) break;
        last = n;
        await sleep(3000);
      }
      await sleep(4000);
      const lat = await fakes.call<number[]>('propagate', { url: `http://127.0.0.1:${port}`, secret: SECRET, count: 40, perSecond: 20 });
      return `Propagation only: p50 ${percentile(lat, 0.5).toFixed(0)} ms, p99 ${percentile(lat, 0.99).toFixed(0)} ms, n ${lat.length}`;
    }
    // BENCH_BACKFILL_CPU=1: only serve's CPU while the backfill runs and nothing is asked of it (what
    // the background work costs the requests answered meanwhile), in windows of 5 s.
    if (process.env.BENCH_BACKFILL_CPU) {
      const lines: string[] = [];
      for (let i = 0; i < 4; i++) {
        const [c0, e0] = [cpuMs(serve.pid), (await fakes.call<{ events: number }>('googleStats')).events];
        await sleep(5000);
        const [c1, e1] = [cpuMs(serve.pid), (await fakes.call<{ events: number }>('googleStats')).events];
        lines.push(
          `window ${i + 1}: serve CPU ${((c1 - c0) / 5).toFixed(0)} ms/s, Google events +${e1 - e0}, ${e1 > e0 ? ((c1 - c0) / (e1 - e0)).toFixed(1) : '-'} ms CPU per event`,
        );
      }
      return lines.join('\n');
    }
    // Feed 304s and cached 200s: the bare server, the bare server under calbridge's runtime settings and
    // calbridge back to back in rounds, as the webhooks; the median round's trio. calbridge's minor
    // collections during its 304 rounds are read from its /metrics.
    const feedRows = async () => {
      const feed = (p: number, headers: Record<string, string> = {}): LoadSpec => ({
        port: p,
        method: 'GET',
        path: `/feeds/${FEED_TOKEN}.ics`,
        headers,
        durationMs: 2000,
        connections: 4,
      });
      const feedRounds = Math.max(1, Number(process.env.BENCH_FEED_ROUNDS ?? 5));
      type WithResult = Measured & { result: LoadResult };
      type Round = { bare: WithResult; settings: WithResult; ours: WithResult };
      const notModified: Round[] = [];
      const full: Round[] = [];
      const gc = { count: 0, seconds: 0, requests: 0, byRound: [] as string[] };
      // A 200 in a 304 round (the feed changed since its ETag was read) would count as an answer, at a 200's cost: counted.
      const our304Statuses: Record<string, number> = {};
      const twinsBackToBack: number[] = [];
      for (let i = 0; i < feedRounds; i++) {
        const bare304 = await measure(bare!.pid, feed(bare!.port, { 'if-none-match': '"bare-etag"' }));
        const settings304 = await measure(bareSettings!.pid, feed(bareSettings!.port, { 'if-none-match': '"bare-etag"' }));
        const gc0 = await minorGc(port);
        const ours304 = await measure(serve.pid, feed(port, { 'if-none-match': etag }));
        const gc1 = await minorGc(port);
        const mb = (g: { newSpaceBytes: number }) => (g.newSpaceBytes / 2 ** 20).toFixed(1);
        gc.byRound.push(
          `${fmt(ours304.result.ok / Math.max(1, gc1.count - gc0.count))} answers a collection at ${mb(gc0)} to ${mb(gc1)} MB`,
        );
        gc.count += gc1.count - gc0.count;
        gc.seconds += gc1.seconds - gc0.seconds;
        gc.requests += ours304.result.ok;
        for (const [status, n] of Object.entries(ours304.result.statuses)) our304Statuses[status] = (our304Statuses[status] ?? 0) + n;
        notModified.push({ bare: bare304, settings: settings304, ours: ours304 });
        // The second bare server, after calbridge: the floor of this method, as in the turns below.
        twinsBackToBack.push((await measure(bareTwin!.pid, feed(bareTwin!.port, { 'if-none-match': '"bare-etag"' }))).rate / bare304.rate);
        full.push({
          bare: await measure(bare!.pid, feed(bare!.port)),
          settings: await measure(bareSettings!.pid, feed(bareSettings!.port)),
          ours: await measure(serve.pid, feed(port)),
        });
      }
      // The same answers with the servers in turns, 200 ms slices, 2 s each in all per round: back to
      // back, two identical bare servers differed by up to a half from one 2 s round to the next on this
      // machine; in 200 ms turns, by about a tenth (BENCHMARKS.md, "Two layouts of ServerResponse, and the feed rows in turns").
      const twins: number[] = [];
      const inTurns = async (conditional: boolean): Promise<Round> => {
        const target = (p: number, pid: number, tag: string): Target => ({
          port: p,
          pid,
          path: `/feeds/${FEED_TOKEN}.ics`,
          headers: conditional ? { 'if-none-match': tag } : {},
        });
        const [b, st, o, twin] = await turns({
          method: 'GET',
          connections: 4,
          sliceMs: TURN_SLICE_MS,
          durationMs: 4 * 2000,
          targets: [
            target(bare!.port, bare!.pid, '"bare-etag"'),
            target(bareSettings!.port, bareSettings!.pid, '"bare-etag"'),
            target(port, serve.pid, etag),
            target(bareTwin!.port, bareTwin!.pid, '"bare-etag"'),
          ],
        });
        const round = { bare: measuredTurn(b!), settings: measuredTurn(st!), ours: measuredTurn(o!) };
        twins.push(measuredTurn(twin!).rate / round.bare.rate);
        return round;
      };
      const turns304: Round[] = [];
      const turns200: Round[] = [];
      for (let i = 0; i < feedRounds; i++) {
        turns304.push(await inTurns(true));
        turns200.push(await inTurns(false));
      }
      for (const r of turns304)
        for (const [status, n] of Object.entries(r.ours.result.statuses))
          if (status !== '304') our304Statuses[`${status} (in turns)`] = (our304Statuses[`${status} (in turns)`] ?? 0) + n;
      // The load thread's CPU per answer: when it nears the time per answer, the client set the pace.
      const clientShare = (items: Round[]) => {
        const all = items.flatMap((r) => [r.bare.result, r.settings.result, r.ours.result]);
        return all.reduce((n, r) => n + r.clientCpuMs, 0) / all.reduce((n, r) => n + r.elapsedMs, 0);
      };
      const ratio = (r: Round, base: 'bare' | 'settings' = 'bare') => r.ours.rate / r[base].rate;
      const inOrder = (items: Round[], base: 'bare' | 'settings' = 'bare') => [...items].sort((a, b) => ratio(a, base) - ratio(b, base));
      const mid = (items: Round[], base: 'bare' | 'settings' = 'bare') => inOrder(items, base)[Math.floor(items.length / 2)]!;
      const settingsShare = (items: Round[]) =>
        items
          .map((r) => r.settings.rate / r.bare.rate)
          .sort((a, b) => a - b)
          .map((v) => `${(v * 100).toFixed(0)} %`)
          .join(', ');
      const spreadOf = (items: Round[], base: 'bare' | 'settings' = 'bare') =>
        inOrder(items, base)
          .map((r) => `${(ratio(r, base) * 100).toFixed(0)} %`)
          .join(', ');
      return {
        bare304: mid(notModified).bare,
        our304: mid(notModified).ours,
        bare200: mid(full).bare,
        our200: mid(full).ours,
        settings304: mid(notModified, 'settings').settings,
        oursVsSettings304: mid(notModified, 'settings').ours,
        settings200: mid(full, 'settings').settings,
        oursVsSettings200: mid(full, 'settings').ours,
        feedSpread: `304 ${spreadOf(notModified)}; cached 200 ${spreadOf(full)}`,
        settingsSpread: `304 ${spreadOf(notModified, 'settings')}; cached 200 ${spreadOf(full, 'settings')}`,
        // What the settings alone cost: the bare server under them against itself with Node's defaults.
        settingsCost: `304 ${settingsShare(notModified)}; cached 200 ${settingsShare(full)}`,
        twinsBackToBack: percents(twinsBackToBack),
        gc:
          `calbridge's minor collections while it answered 304s: ${fmt(gc.count)} in ${fmt(gc.requests)} answers, one every ${fmt(gc.requests / Math.max(1, gc.count))}, ` +
          `${((gc.seconds * 1e6) / Math.max(1, gc.requests)).toFixed(1)} µs of collection per 304 (its /metrics, nodejs_gc_duration_seconds{kind="minor"}); ` +
          `round by round, with its young generation's size before and after (nodejs_heap_space_size_total_bytes{space="new"}): ${gc.byRound.join('; ')}`,
        rounds: feedRounds,
        turns: {
          bare304: mid(turns304).bare,
          our304: mid(turns304).ours,
          bare200: mid(turns200).bare,
          our200: mid(turns200).ours,
          settings304: mid(turns304, 'settings').settings,
          oursVsSettings304: mid(turns304, 'settings').ours,
          spread: `304 ${spreadOf(turns304)}; cached 200 ${spreadOf(turns200)}`,
          settingsSpread: `304 ${spreadOf(turns304, 'settings')}; cached 200 ${spreadOf(turns200, 'settings')}`,
          settingsCost: `304 ${settingsShare(turns304)}; cached 200 ${settingsShare(turns200)}`,
          rounds: feedRounds,
          twins: percents(twins),
          client: `the load thread was busy ${(clientShare(turns304) * 100).toFixed(0)} % of the 304 slices' time and ${(clientShare(turns200) * 100).toFixed(0)} % of the 200s'`,
        },
        our304Answers: `calbridge's answers in its 304 rounds: ${Object.entries(our304Statuses)
          .map(([status, n]) => `${fmt(n)} × ${status}`)
          .join(', ')}`,
      };
    };
    const row = (name: string, b: Measured, o: Measured, goal: string) =>
      `| ${name} | ${fmt(b.rate)}/s, p50 ${b.p50.toFixed(2)} ms, p99 ${b.p99.toFixed(2)} ms, CPU ${fmt(b.cpuUsPerRequest)} µs | ${fmt(o.rate)}/s, p50 ${o.p50.toFixed(2)} ms, p99 ${o.p99.toFixed(2)} ms, CPU ${fmt(o.cpuUsPerRequest)} µs | ${((o.rate / b.rate) * 100).toFixed(0)} % | ${goal} |`;
    if (process.env.BENCH_FEEDS_ONLY) {
      const f = await feedRows();
      return [
        ...(googleOff ? ['Google off (BENCH_NO_GOOGLE).'] : []),
        row('feed 304 (If-None-Match), 4 connections, in turns', f.turns.bare304, f.turns.our304, '≥ 90 % of bare'),
        row(`feed cached 200 (${fmt(feedBytes / 1024)} KiB), 4 connections, in turns`, f.turns.bare200, f.turns.our200, ''),
        row("feed 304 in turns, against bare under calbridge's runtime settings", f.turns.settings304, f.turns.oursVsSettings304, ''),
        row('feed 304, back to back', f.bare304, f.our304, ''),
        row(`feed cached 200, back to back`, f.bare200, f.our200, ''),
        row("feed 304 back to back, against bare under calbridge's runtime settings", f.settings304, f.oursVsSettings304, ''),
        row("feed cached 200 back to back, against bare under calbridge's runtime settings", f.settings200, f.oursVsSettings200, ''),
        `In turns, every round, calbridge / bare: ${f.turns.spread}; calbridge / bare under its settings: ${f.turns.settingsSpread}; bare under calbridge's settings / bare: ${f.turns.settingsCost}; a second bare server (the same program) / bare, 304 and 200 rounds: ${f.turns.twins}; ${f.turns.client}.`,
        `Back to back, every round, calbridge / bare: ${f.feedSpread}; calbridge / bare under its settings: ${f.settingsSpread}; bare under calbridge's settings / bare: ${f.settingsCost}; the second bare server / bare, 304: ${f.twinsBackToBack}.`,
        `${f.gc}. ${f.our304Answers}.`,
      ].join('\n');
    }
    // Re-reads of the appointments the webhooks name, counted at the booking fake, backlog drained.
    const reReads = async (m: () => Promise<Measured & { result: LoadResult }>) => {
      const r0 = await fakes.call<number>('bookingRequests');
      const got = await m();
      return { ...got, reReadsPerAck: ((await fakes.call<number>('bookingRequests')) - r0) / Math.max(1, got.result.ok) };
    };
    // Bare and calbridge back to back, BENCH_ACK_ROUNDS times (5): on a shared machine a lone pair
    // says more about the neighbours than about calbridge. The round with the median is reported.
    // Five since 2026-11-27 11:00: with three, one round from a noisy minute moved the median of
    // the 20-connection ratio by 5 to 10 points (rounds of one run ranged 37 to 50 %, of the next 54 to 60 %).
    const rounds = Math.max(1, Number(process.env.BENCH_ACK_ROUNDS ?? 5));
    type Clock = { now: number };
    const ackStart = await fakes.call<Clock>('googleStats');
    const closed: { bare: Measured; ours: Awaited<ReturnType<typeof reReads>> }[] = [];
    const open: typeof closed = [];
    for (let i = 0; i < rounds; i++) {
      closed.push({
        bare: await measure(bare.pid, webhook(bare.port, { connections: 20 })),
        ours: await reReads(() => measure(serve.pid, webhook(port, { connections: 20 }), drained)),
      });
      open.push({
        bare: await measure(bare.pid, webhook(bare.port, { rate: 500, durationMs: 5000 })),
        ours: await reReads(() => measure(serve.pid, webhook(port, { rate: 500, durationMs: 5000 }), drained)),
      });
    }
    const median = <T>(items: T[], by: (t: T) => number): T => [...items].sort((a, b) => by(a) - by(b))[Math.floor(items.length / 2)]!;
    const { bare: bareClosed, ours: ourClosed } = median(closed, (r) => r.ours.rate / r.bare.rate);
    const { bare: bareOpen, ours: ourOpen } = median(open, (r) => r.ours.p99);
    const spread = (items: typeof closed, f: (r: (typeof closed)[number]) => number, unit: string, d = 0) =>
      items
        .map(f)
        .sort((a, b) => a - b)
        .map((v) => `${v.toFixed(d)}${unit}`)
        .join(', ');
    const google0 = await fakes.call<{ events: number } & Clock>('googleStats');
    // The main thread's CPU per webhook, round by round: what bounds a receiver on one event loop.
    const loops = (items: typeof closed, who: 'bare' | 'ours') => spread(items, (r) => r[who].loopUsPerRequest ?? 0, ' µs');
    // BENCH_ACKS_ONLY=1: only the two webhook rows (a short run while tuning the receiver); BENCH_FEEDS_ONLY=1: only the feed rows.
    if (process.env.BENCH_ACKS_ONLY) {
      const line = (name: string, m: Measured) =>
        `${name}: ${fmt(m.rate)}/s, p50 ${m.p50.toFixed(2)} ms, p99 ${m.p99.toFixed(2)} ms, CPU ${fmt(m.cpuUsPerRequest)} µs, bad ${m.bad}`;
      const reads = (m: { reReadsPerAck: number }) => `, re-reads per ack ${m.reReadsPerAck.toFixed(2)}`;
      // The load thread's CPU per request: what the client itself took of this 2-core machine.
      const client = (rows: { bare: Measured & { result?: LoadResult }; ours: { result: LoadResult } }[]) =>
        `load thread CPU per request (${LOAD_CLIENT}): bare ${rows.map((r) => fmt(((r.bare.result?.clientCpuMs ?? 0) * 1000) / Math.max(1, r.bare.result?.ok ?? 0))).join(', ')} µs; ` +
        `calbridge ${rows.map((r) => fmt((r.ours.result.clientCpuMs * 1000) / Math.max(1, r.ours.result.ok))).join(', ')} µs`;
      return [
        ...(googleOff ? ['Google off (BENCH_NO_GOOGLE).'] : []),
        line('bare closed', bareClosed),
        line('ours closed', ourClosed) + reads(ourClosed),
        `event loop CPU per webhook at 20 connections, rounds: ours ${loops(closed, 'ours')}, bare ${loops(closed, 'bare')}`,
        `ratio ${((ourClosed.rate / bareClosed.rate) * 100).toFixed(0)} % (rounds: ${spread(closed, (r) => (r.ours.rate / r.bare.rate) * 100, ' %')})`,
        line('bare open', bareOpen),
        line('ours open', ourOpen) + reads(ourOpen),
        `p99 at 500/s, rounds: ours ${spread(open, (r) => r.ours.p99, ' ms', 1)}, bare ${spread(open, (r) => r.bare.p99, ' ms', 1)}`,
        `at 20 connections, ${client(closed)}`,
      ].join('\n');
    }

    // Feeds, after the acknowledgements, while the rest of the backfill runs (the note says how much was left).
    const atFeeds = await fakes.call<{ events: number } & Clock>('googleStats');
    const googleAtFeeds = atFeeds.events;
    const {
      bare304,
      our304,
      bare200,
      our200,
      feedSpread,
      settings304,
      oursVsSettings304,
      settings200,
      oursVsSettings200,
      settingsSpread,
      settingsCost,
      gc,
      our304Answers,
      turns: inTurns,
      twinsBackToBack,
    } = await feedRows();

    const feedsEnd = await fakes.call<Clock>('googleStats');

    // The backfill: until Google holds every mirrored appointment and the writer has nothing pending.
    await googleBackfilled();
    type Window = { calls: number; firstMs: number; lastMs: number; longestPause: { ms: number; fromMs: number } | null };
    const g = await fakes.call<{ calls: number; limited: number; inserts: number; events: number; firstMs: number; backfill: Window }>(
      'googleStats',
    );
    const b = g.backfill;
    const backfillMinutes = (b.lastMs - b.firstMs) / 60_000;
    const backfillShare = b.calls / backfillMinutes / 600;
    // Where the backfill's longest pause fell (the fakes' clock): a shortfall of the share shows up as one.
    const phaseAt = (t: number) =>
      t < ackStart.now
        ? 'before the ack rounds'
        : t < google0.now
          ? 'in the ack rounds'
          : t < atFeeds.now
            ? 'between the ack rounds and the feed rows'
            : t < feedsEnd.now
              ? 'in the feed rows'
              : 'after the feed rows';
    const pause = b.longestPause
      ? ` Longest pause between two Google calls in it: ${(b.longestPause.ms / 1000).toFixed(1)} s, ${((b.longestPause.fromMs - b.firstMs) / 1000).toFixed(0)} s after the first insert (${phaseAt(b.longestPause.fromMs)}).`
      : '';
    const before =
      b.firstMs - g.firstMs > 1000
        ? ` The first Google call came ${((b.firstMs - g.firstMs) / 1000).toFixed(1)} s before the first insert (not counted in the share).`
        : '';

    // Propagation: Google idle again (its bucket refilled), 40 changes at 20 a second.
    await sleep(4000);
    const lat = await fakes.call<number[]>('propagate', { url: `http://127.0.0.1:${port}`, secret: SECRET, count: 40, perSecond: 20 });
    const propagation = { p50: percentile(lat, 0.5), p99: percentile(lat, 0.99), n: lat.length };

    out.push(
      '`calbridge serve` as a process (delivery worker, Google writer at requests_per_minute 600 and reverse sync live), 800 appointments from the booking',
      'simulator, Google simulated with a rolling 600-a-minute quota (403 rateLimitExceeded past it); both fakes in one other process, the bare Hono',
      `baseline in a third. Load from a worker thread of the benchmark process over loopback keep-alive connections (${LOAD_CLIENT === 'undici' ? "undici's client, BENCH_CLIENT=undici" : "node:http's client"}). Webhooks name existing`,
      'appointments, so each is re-read from the booking simulator by the worker while the receiver acknowledges more; they are measured',
      `while the Google backfill runs, and the feeds after them, while the rest of it runs (the note below says how much was left). CPU per request`,
      "is the target process's (from /proc), and for calbridge includes the background work until its delivery backlog was drained.",
      '',
      '| measure | bare Hono | calbridge | calbridge / bare | goal |',
      '|---|---|---|---:|---|',
      row('webhook acks, 20 connections, 3 s', bareClosed, ourClosed, '≥ 50 % of bare'),
      row('webhook acks, open loop 500/s, 5 s', bareOpen, ourOpen, 'p99 ≤ 10 ms'),
      row('feed 304 (If-None-Match), 4 connections, in turns', inTurns.bare304, inTurns.our304, '≥ 90 % of bare'),
      row(`feed cached 200 (${fmt(feedBytes / 1024)} KiB), 4 connections, in turns`, inTurns.bare200, inTurns.our200, ''),
      row("feed 304 in turns, against bare Hono under calbridge's runtime settings", inTurns.settings304, inTurns.oursVsSettings304, ''),
      row('feed 304, back to back', bare304, our304, ''),
      row('feed cached 200, back to back', bare200, our200, ''),
      row("feed 304 back to back, against bare Hono under calbridge's runtime settings", settings304, oursVsSettings304, ''),
      row("feed cached 200 back to back, against bare Hono under calbridge's runtime settings", settings200, oursVsSettings200, ''),
      '',
      `Non-200 answers from calbridge: ${[...closed, ...open].reduce((n, r) => n + r.ours.bad, 0)} of ${fmt([...closed, ...open].reduce((n, r) => n + r.ours.bad + r.ours.result.ok, 0))} webhooks. ` +
        `Google events when the ack rounds had ended: ${google0.events}; when the feed rows began: ${googleAtFeeds} (of ${g.events} once the backfill was done). Re-reads at the booking service per webhook acknowledged (backlog drained): ` +
        `${ourClosed.reReadsPerAck.toFixed(2)} at 20 connections, ${ourOpen.reReadsPerAck.toFixed(2)} at 500/s (one re-read settles every pending delivery of its appointment).`,
      '',
      `The webhook rows are the median of ${rounds} rounds, bare and calbridge back to back. Every round: calbridge / bare at 20 connections ` +
        `${spread(closed, (r) => (r.ours.rate / r.bare.rate) * 100, ' %')}; p99 at 500/s, calbridge ${spread(open, (r) => r.ours.p99, ' ms', 1)}, ` +
        `bare ${spread(open, (r) => r.bare.p99, ' ms', 1)}.` +
        ` The event loop's CPU per webhook while the load ran (each process's main thread, from /proc; the background work after it not counted), every round: ` +
        `at 20 connections calbridge ${loops(closed, 'ours')}, bare ${loops(closed, 'bare')}; at 500/s calbridge ${loops(open, 'ours')}, bare ${loops(open, 'bare')}.`,
      '',
      `The feed rows are the median of their rounds too, ${inTurns.rounds} of each kind. In turns: bare Hono, bare Hono under calbridge's settings and calbridge ` +
        `${TURN_SLICE_MS} ms at a time, 2 s each in all per round, so that the three see the same seconds of this shared machine; every round, calbridge / bare: ${inTurns.spread}; ` +
        `calbridge / bare under its settings: ${inTurns.settingsSpread}; bare under calbridge's settings / bare: ${inTurns.settingsCost}; ` +
        `a second bare server (the same program, a fourth in the turns) / bare, 304 and 200 rounds: ${inTurns.twins}; ${inTurns.client}. ` +
        `Back to back (the method before 2026-11-27 09:00), 2 s each; every round, calbridge / bare: ${feedSpread}; the second bare server / bare, 304: ${twinsBackToBack}. ` +
        "The bare feed answers carry the same headers as calbridge's (ETag, Last-Modified, Cache-Control, Vary), as a 304 must. " +
        `The last two rows compare calbridge with the same bare server started with calbridge's runtime settings (\`${runtimeSettings().flags.join(' ')}\` and the malloc environment of bin/calbridge.js), ` +
        `in the same rounds; every round: ${settingsSpread}. What those settings cost the bare server itself, every round (under them / with Node's defaults): ${settingsCost}. ${gc}. ${our304Answers}.`,
      '',
      `Backfill: ${g.inserts} events inserted, ${b.calls} calls answered in ${(backfillMinutes * 60).toFixed(1)} s from the first insert to the last: ` +
        `**${(backfillShare * 100).toFixed(0)} %** of the configured 600 a minute (goal ≥ 95 %), **${g.limited}** usage-limit answers (goal 0).${pause}${before}`,
      '',
      `Propagation, webhook posted → Google event updated, ${propagation.n} changes at 20 a second: p50 **${propagation.p50.toFixed(0)} ms**, ` +
        `p99 **${propagation.p99.toFixed(0)} ms** (goal p50 ≤ 100 ms, p99 ≤ 250 ms).`,
    );
  } finally {
    await serve.stop();
    await bare?.stop();
    await bareSettings?.stop();
    await bareTwin?.stop();
    await fakes.stop();
    rmSync(dir, { recursive: true, force: true });
  }

  return [...out, ...(await importSection())].join('\n');
}

/** The first import by the poll and an unchanged pass, at each size of BENCH_IMPORT (comma-separated; 0: none). */
async function importSection(): Promise<string[]> {
  const sizes = (process.env.BENCH_IMPORT ?? '20000,100000')
    .split(',')
    .map(Number)
    .filter((n) => n > 0);
  if (sizes.length === 0) return [];
  const out = [
    '',
    '### First import by the poll',
    '',
    `Google off, booking.page_size 100; the time from starting \`serve\` until /api/status (asked every 250 ms) shows its first poll finished, every listed appointment stored; meanwhile a webhook posted every ${ACK_EVERY_MS} ms (open loop) and its answer's latency; then two passes over the same unchanged listing in a process of their own (the fakes elsewhere), their wall time and the CPU of that process: the first after start also compiles the code it runs, the next is what a running daemon spends.`,
    '',
    "| appointments | until all counted | serve's CPU meanwhile | listing requests | full listings | webhook acks meanwhile: p50, p99, max | unchanged pass, first after start: wall, CPU | unchanged pass, next: wall, CPU | goal |",
    '|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const n of sizes) {
    const r = await firstImport(n);
    const pass = (p: Pass) => `${(p.ms / 1000).toFixed(2)} s, ${(p.cpuMs / 1000).toFixed(2)} s`;
    const acks = `${r.acks.p50.toFixed(1)} ms, ${r.acks.p99.toFixed(1)} ms, ${r.acks.max.toFixed(1)} ms (${fmt(r.acks.n)} answered${r.acks.bad ? `, ${r.acks.bad} not 200` : ''})`;
    out.push(
      `| ${fmt(n)} listed, ${fmt(r.count)} stored | ${(r.ms / 1000).toFixed(1)} s | ${(r.cpuMs / 1000).toFixed(1)} s | ${fmt(r.listRequests)} | ${r.listings.toFixed(1)} | ${acks} | ${pass(r.cold)} | ${pass(r.warm)} | ≤ 15 s and one listing; unchanged well under 1 s CPU |`,
    );
  }
  out.push(
    '',
    `Webhook acks while a first import runs and nothing else is asked of serve (its end watched in the database file, not in /api/status): a webhook posted every ${ACK_EVERY_MS} ms, open loop, each a new delivery the worker then applies.`,
    '',
    '| appointments | until all stored | acks answered | p50 | p99 | max |',
    '|---:|---:|---:|---:|---:|---:|',
  );
  for (const n of sizes) {
    const a = await acksDuringImport(n);
    out.push(
      `| ${fmt(n)} | ${(a.ms / 1000).toFixed(1)} s | ${fmt(a.n)}${a.bad ? ` (${a.bad} not 200)` : ''} | ${a.p50.toFixed(1)} ms | ${a.p99.toFixed(1)} ms | ${a.max.toFixed(1)} ms |`,
    );
  }
  return out;
}
