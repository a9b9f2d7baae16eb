// Microsoft Graph writes, measured on the whole daemon as users run it: `calbridge serve` as a
// process (bin/calbridge.js, the build of this checkout), the booking and Graph simulators in the
// fakes' process (Graph's own limits enforced there: 4 in flight per mailbox, a per-minute cap), and
// the Google backfill of the same appointments at the same rate through serve as the baseline, in
// the same run. Counted at the Graph simulator: the backfill's pace, writes per appointment, and a
// person's move in Outlook to its reschedule at the booking service through Graph's notifications.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLIENT_ID, CLIENT_SECRET, MAILBOX, TENANT } from '../test/microsoft/env.ts';
import { backfill as googleBackfill } from './accounts-bench.ts';
import { backfilled, type BackfillWindow, metrics, SECRET, status, waitFor, windowShare, writeConfig } from './daemon-bench.ts';
import { freePort, startFakes, startServe, type Fakes } from './daemon/processes.ts';
import { percentile } from './daemon/load.ts';
import { buildDist } from './footprint-bench.ts';
import { defaultBurst, WINDOW_MS } from '../src/net/pacer.ts';

/** serve's webhook deliveries, from /api/status (asked with the admin token, so the ingest section is there). */
async function deliveries(port: number): Promise<{ applied: number; pending: number }> {
  const ingest = (await status(port)).ingest;
  if (!ingest) throw new Error('/api/status has no ingest section: is the admin token right?');
  return ingest.deliveries;
}

const COUNT = Number(process.env.BENCH_MICROSOFT_BACKFILL ?? 2000);
const RPM = Number(process.env.BENCH_MICROSOFT_RPM ?? 1000);
// Each Graph call takes this long in the backfill, so that four in flight can be seen.
const LATENCY_MS = 20;
// serve's public_url where Graph's notifications are on; the fakes deliver to serve's port.
const PUBLIC_URL = 'https://calbridge.bench';
const ECONOMY = 100;
const MOVES = 40;
const H = 3_600_000;
// Each phase of the economy ends once serve has settled (see `settled`); past this, the bench fails.
// Longer than the reverse sync's default schedule (every 2 minutes): a round that began in the very
// millisecond of the last change is not taken as having read it, and the next one may be that far.
const SETTLE_TIMEOUT_MS = 180_000;
// How long after its last request serve's Graph pacer holds its whole burst again, by its own rule
// (src/net/pacer.ts: `burst` tokens of WINDOW_MS + 1 units, refilled at rpm + 1 - burst units a ms).
const BURST = defaultBurst(RPM);
const PACER_REFILL_MS = Math.ceil((BURST * (WINDOW_MS + 1)) / (RPM + 1 - BURST));

const fmt = (n: number) => n.toLocaleString('en', { maximumFractionDigits: 0 });

interface GraphStats {
  calls: number;
  throttled: number;
  creates: number;
  writes: number;
  events: number;
  maxInFlight: number;
  backfill: BackfillWindow | null;
}

const MS = { tenant: TENANT, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, mailbox: MAILBOX };
const TARGET = 'microsoft.default';
/** `targets["microsoft.default"]` in /api/status (docs/status.schema.json). */
const target = async (port: number) => (await status(port)).targets?.[TARGET];
/** Graph subscriptions serve holds (0 while push is off or not set up yet). */
const subscriptions = async (port: number) => {
  const push = (await target(port))?.reverse_sync;
  return push?.enabled && push.push?.enabled ? push.push.channels_active : 0;
};
/** Reschedules serve has carried to the booking service from Outlook moves. */
const reschedulesDone = async (port: number) => {
  const reverse = (await target(port))?.reverse_sync;
  return reverse?.enabled ? reverse.reschedules.done : 0;
};
const graphStats = (fakes: Fakes) => fakes.call<GraphStats>('graphStats');

/** Fakes with the Graph simulator and `seed` appointments, serve's config and port; serve not started. */
async function setup(seed: number, graph: { perMinute: number; latencyMs: number; push: boolean }) {
  const port = await freePort();
  const fakes = await startFakes({
    seed,
    quota: 0,
    clientId: 'unused',
    clientSecret: 'unused',
    graph: { ...MS, perMinute: graph.perMinute, latencyMs: graph.latencyMs, publicUrl: PUBLIC_URL, servePort: port },
  });
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-microsoft-'));
  const maxPages = Math.max(500, Math.ceil(seed / 100) + 10);
  const config = writeConfig(dir, port, fakes.ready, false, maxPages, {
    ...MS,
    rpm: RPM,
    ...(graph.push ? { publicUrl: PUBLIC_URL } : {}),
  });
  return {
    fakes,
    port,
    config,
    async close() {
      await fakes.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface Backfill {
  events: number;
  calls: number;
  throttled: number;
  maxInFlight: number;
  /** The most in flight as serve itself counted it (its status document). */
  servePeak: number;
  seconds: number;
  share: number;
}

/** COUNT appointments from the booking simulator into Outlook at RPM, Graph capping the mailbox at RPM a minute. */
async function microsoftBackfill(): Promise<Backfill> {
  const s = await setup(COUNT, { perMinute: RPM, latencyMs: LATENCY_MS, push: false });
  try {
    const serve = await startServe(s.config, s.port);
    let servePeak = 0;
    try {
      await backfilled(s.port, [TARGET], async () => (await graphStats(s.fakes)).events, { timeoutMs: 30 * 60_000, everyMs: 1000 });
      servePeak = Math.max(0, ...((await target(s.port))?.mailboxes ?? []).map((m) => m.peak_in_flight));
    } finally {
      await serve.stop();
    }
    const g = await graphStats(s.fakes);
    if (!g.backfill) throw new Error('nothing was created in Outlook');
    return {
      events: g.events,
      calls: g.backfill.calls,
      throttled: g.throttled,
      maxInFlight: g.maxInFlight,
      servePeak,
      seconds: (g.backfill.lastMs - g.backfill.firstMs) / 1000,
      share: windowShare(g.backfill, RPM),
    };
  } finally {
    await s.close();
  }
}

/** The change notifications the Graph simulator has told serve of, and its calls (bench/daemon/fakes.ts). */
type Told = { changes: number; unanswered: number; lastAt: number; calls: number; quietMs: number | null };

/** When serve's writer last finished a pass without failing (ms), from its /metrics. */
async function writerDoneAt(port: number): Promise<number> {
  const line = /^calbridge_job_last_success_timestamp_seconds\{job="microsoft-writer"\} (\S+)$/m.exec(await metrics(port));
  return line ? Math.round(Number(line[1]) * 1000) : 0;
}

/**
 * Until serve has done all it will do after the last change in Outlook, by its own reports: nothing
 * pending for its writer and no reschedule left to send (/api/status), every one of `keys` at its
 * booking time in Outlook, every change notification answered, a reverse-sync round begun after the
 * last change and finished (the delta read our own writes wake), and the writer's pass of that time
 * over (its last pass began before its last success, which came after the change; /metrics). The
 * simulator is asked before and after serve: a change or call meanwhile means looking again.
 */
/**
 * Until serve's Graph pacer is full again, so that each measured phase meets serve at rest, as a
 * person's change in a quiet hour does (the phase before would otherwise leave it paced at
 * requests_per_minute): PACER_REFILL_MS since the last request the simulator saw, however many
 * requests came before it. A request meanwhile puts the moment off.
 */
async function rested(fakes: Fakes): Promise<void> {
  for (;;) {
    const { quietMs } = await fakes.call<Told>('graphTold');
    if (quietMs === null || quietMs >= PACER_REFILL_MS) return;
    await new Promise((r) => setTimeout(r, PACER_REFILL_MS - quietMs));
  }
}

async function settled(s: { fakes: Fakes; port: number }, keys: string[]): Promise<void> {
  await waitFor(
    'serve settled after the last change in Outlook',
    async () => {
      const told = await s.fakes.call<Told>('graphTold');
      if (told.unanswered > 0 || (await s.fakes.call<number>('graphAgrees', { keys })) !== keys.length) return false;
      const t = await target(s.port);
      const reverse = t?.reverse_sync;
      if (!(t?.pending === 0 && reverse?.enabled && reverse.reschedules.pending === 0)) return false;
      // The last finished round's start, to the millisecond: strictly after the change, so it read it.
      if (!(Date.parse(reverse.last_round_at ?? '') > told.lastAt)) return false;
      const writerDone = await writerDoneAt(s.port);
      if (!(writerDone >= told.lastAt && writerDone >= Date.parse(t.last_pass_at ?? ''))) return false;
      const again = await s.fakes.call<Told>('graphTold');
      return again.changes === told.changes && again.calls === told.calls;
    },
    SETTLE_TIMEOUT_MS,
    100,
  );
}

type Counted = { writes: number; all: number };

/**
 * Writes per new appointment, per move at the booking service and per repeated delivery, through
 * serve with Graph's notifications on; then a person's moves in Outlook to their reschedules.
 */
async function economyAndPush(): Promise<{ rows: [string, Counted][]; latencies: number[]; writesAfter: number; rescheduled: number }> {
  const s = await setup(0, { perMinute: 0, latencyMs: 0, push: true });
  try {
    const serve = await startServe(s.config, s.port);
    try {
      await waitFor('the Graph subscription', async () => (await subscriptions(s.port)) === 1, 60_000, 250);
      const hook = { url: `http://127.0.0.1:${s.port}`, secret: SECRET };
      // Days ahead, inside the poll's window and the delta's; two hours apart, an hour long.
      const base = Math.ceil((Date.now() + 2 * 86_400_000) / H) * H;
      const create = async (calendarKey: string, count: number, startMs: number) => {
        const keys = await s.fakes.call<string[]>('newAppointments', { count, calendarKey, startMs, stepMs: 2 * H });
        await s.fakes.call('webhooks', { ...hook, event: 'appointment.created', keys, tag: 'new' });
        return keys;
      };
      const counted = async (change: () => Promise<void>): Promise<Counted> => {
        await rested(s.fakes);
        await s.fakes.call('graphResetLog');
        await change();
        const g = await graphStats(s.fakes);
        return { writes: g.writes / ECONOMY, all: g.calls / ECONOMY };
      };

      // The calendar's discovery and the first token are not per-appointment costs: one appointment first.
      await settled(s, await create('c0000000-0000-4000-a000-0000000000e0', 1, base - 2 * H));
      let keys: string[] = [];
      const created = await counted(async () => {
        keys = await create('c0000000-0000-4000-a000-0000000000e1', ECONOMY, base);
        await settled(s, keys);
      });
      const moved = await counted(async () => {
        await s.fakes.call('reschedule', { keys, shiftMs: H });
        await s.fakes.call('webhooks', { ...hook, event: 'appointment.updated', keys, tag: 'moved' });
        await settled(s, keys);
      });
      const repeated = await counted(async () => {
        const applied = (await deliveries(s.port)).applied;
        await s.fakes.call('webhooks', { ...hook, event: 'appointment.updated', keys, tag: 'again' });
        await waitFor(
          'the repeated deliveries',
          async () => {
            const d = await deliveries(s.port);
            return d.applied >= applied + ECONOMY && d.pending === 0;
          },
          120_000,
          100,
        );
        await settled(s, keys);
      });

      // A person's moves in Outlook: another booking calendar (its slots free an hour later), each
      // event moved an hour on, one after another, once the previous one's reschedule has arrived.
      const people = await create('c0000000-0000-4000-a000-0000000000e2', MOVES, base + 2 * ECONOMY * H + H);
      await settled(s, people);
      await rested(s.fakes);
      const before = await graphStats(s.fakes);
      const done0 = await reschedulesDone(s.port);
      const latencies = await s.fakes.call<number[]>('personMoves', { keys: people, shiftMs: H });
      // Until serve has stored the booking service's answers and Outlook agrees with it.
      await settled(s, people);
      const rescheduled = (await reschedulesDone(s.port)) - done0;
      const writesAfter = (await graphStats(s.fakes)).writes - before.writes;
      return {
        rows: [
          ['new appointment', created],
          ['material change (moved at the booking service)', moved],
          ['repeated delivery with nothing new', repeated],
        ],
        latencies,
        writesAfter,
        rescheduled,
      };
    } finally {
      await serve.stop();
    }
  } finally {
    await s.close();
  }
}

export async function runMicrosoftBench(): Promise<string> {
  buildDist();
  const load = loadavg();
  // The baseline first, as the Named accounts section runs it: Google, one account, same N, same rate.
  const [google] = await googleBackfill(1, COUNT, RPM);
  const ms = await microsoftBackfill();
  const e = await economyAndPush();
  const loadAfter = loadavg();
  const g = google!;
  const gSeconds = (g.window.lastMs - g.window.firstMs) / 1000;
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  const p50 = percentile(e.latencies, 0.5);
  const p99 = percentile(e.latencies, 0.99);
  const row = ([what, r]: [string, Counted]) => `| ${what} | ${r.writes.toFixed(2)} | ${r.all.toFixed(2)} |`;
  return [
    '## Microsoft Graph writes',
    '',
    '`calbridge serve` as a process (bin/calbridge.js, its `#!` line, the build of this checkout), `microsoft` app-only with one',
    'mailbox’s calendar taking every appointment; the booking simulator and the Graph simulator (the product’s, src/microsoft/simulator)',
    'in the fakes’ process, which enforces Graph’s limits itself: a fifth request while four are in flight for the mailbox, or one',
    'over its per-minute cap, is answered 429 with Retry-After. Every figure is counted at the simulators, not by calbridge.',
    `Load average of the machine (other work on it, a soak among them): ${load.map((l) => l.toFixed(2)).join(', ')} when this section began,`,
    `${loadAfter.map((l) => l.toFixed(2)).join(', ')} when it ended.`,
    '',
    `**Backfill.** ${fmt(COUNT)} appointments seeded in the booking simulator (those the default statuses write become events),`,
    `requests_per_minute ${fmt(RPM)}, reverse sync on at its default schedule (its reads count in the calls and in the cap).`,
    `Microsoft: the mailbox capped at ${fmt(RPM)} requests a minute, ${LATENCY_MS} ms a call, a look-up of the appointment_key`,
    'property (adoption) and a create per event. The baseline, in the same run just before: the Google backfill of the same',
    `seed at the same requests_per_minute through serve, its simulated user allowing ${fmt(RPM)} calls in any rolling minute`,
    '(403 rateLimitExceeded past it), as the Named accounts section’s one-account run. The rate is the calls answered from the',
    'first create (insert) to the last, a minute, against requests_per_minute.',
    '',
    '| run | events | calls answered in the backfill | rate, % of requests_per_minute (goal ≥ 95 %) | limit answers (goal 0) | most in flight at the mailbox (limit 4) |',
    '|---|---:|---:|---:|---:|---:|',
    `| Google, one account (baseline) | ${fmt(g.events)} | ${fmt(g.window.calls)} in ${gSeconds.toFixed(1)} s | **${pct(g.share)}** | **${g.limited}** (403) | |`,
    `| Microsoft | ${fmt(ms.events)} | ${fmt(ms.calls)} in ${ms.seconds.toFixed(1)} s | **${pct(ms.share)}** | **${ms.throttled}** (429) | **${ms.maxInFlight}** |`,
    '',
    `The most in flight is what the simulator admitted at once (a fifth would have been answered 429 and counted beside it); serve's own count in /api/status: ${ms.servePeak}.`,
    '',
    `**Write economy.** Through the same kind of serve with Graph’s change notifications on (public_url https, the simulator`,
    'delivering each change at once to serve’s `/microsoft/notifications`, no added latency per call): one appointment first (the',
    `calendar found, a token held), then ${ECONOMY} new appointments, each announced to serve by a booking webhook; then the same`,
    `${ECONOMY} moved an hour at the booking service (webhooks); then the same webhooks again with nothing new. Each phase begins`,
    `with serve at rest (its Graph pacer full again: ${(PACER_REFILL_MS / 1000).toFixed(1)} s after the last request, by the pacer’s rule) and ends once`,
    'serve has settled, by its own reports: nothing pending, Outlook showing every appointment at its booking time, every change',
    'notification answered, a reverse-sync round begun after the last change and finished, and the writer’s pass of that time over.',
    'Requests that write are creates, PATCHes and DELETEs that reached the simulator’s state; all requests include the delta',
    'reads that the notifications of serve’s own writes wake (they end there: no write follows an echo), and a new appointment’s',
    'look-up of its appointment_key property before the create (adoption). Nothing here is counted in-process: the section',
    'measured before 2026-11-28 drove the Microsoft target inside the bench’s process.',
    '',
    '| what happened | requests that write, per appointment | all requests, per appointment |',
    '|---|---:|---:|',
    ...e.rows.map(row),
    '',
    `**Push.** ${MOVES} appointments of another booking calendar mirrored and serve at rest, then a person moves each event an hour on in the`,
    'simulated Outlook, one after another: from the move (the simulator posts the change notification to serve at once) to the',
    `reschedule PATCH arriving at the booking simulator, both clocks the fakes’ process’s: p50 **${p50.toFixed(0)} ms**, p99`,
    `**${p99.toFixed(0)} ms**, max ${Math.max(...e.latencies).toFixed(0)} ms (goal p99 < 2 s); ${e.rescheduled} reschedules done by serve. Requests that`,
    `wrote to Outlook after the ${MOVES} moves, until serve had settled as above (every reschedule sent, every event where the`,
    `person put it): **${e.writesAfter}** (goal 0: no move is written back).`,
  ].join('\n');
}
