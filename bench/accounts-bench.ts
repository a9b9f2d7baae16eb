// Named accounts (docs/reference/configuration.md, "Several accounts of one kind"), measured on the
// whole daemon as users run it: `calbridge serve` from bin/calbridge.js, each account its own
// simulated Google user in the fakes' process. The backfill of two accounts side by side against
// one account of the same size, and the resident size with ten accounts against one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backfilled, type BackfillWindow, CLIENT, metrics, status, waitFor, windowShare, writeConfig } from './daemon-bench.ts';
import { freePort, startFakes, startServe, type Fakes } from './daemon/processes.ts';
import { buildDist, rssKb } from './footprint-bench.ts';

// The backfill: each simulated user allows QUOTA calls in any rolling minute (403 rateLimitExceeded
// past it) and each account is configured at that rate, as the Google writes section sets it up.
const QUOTA = 600;
const BACKFILL_APPOINTMENTS = Number(process.env.BENCH_ACCOUNTS_BACKFILL ?? 1200);
// The footprint: as many stored as the footprint section's first size, written at the schema's
// largest rate (no quota) so the backfill before the measure is short; reverse sync every 5 s so
// every account's jobs run while its memory is read.
const STORED = Number(process.env.BENCH_ACCOUNTS_STORED ?? 20_000);
const MANY = 10;
const FAST_RPM = 10_000;
const REVERSE_EVERY = '*/5 * * * * *';
// After the last work asked of serve, as the footprint section waits: V8's memory reducer runs 8 s after a burst.
const SETTLE_MS = 10_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (kb: number) => kb / 1024;
const fmt = (n: number) => n.toLocaleString('en', { maximumFractionDigits: 0 });

type GoogleStats = { calls: number; limited: number; inserts: number; events: number; backfill: BackfillWindow | null };

interface Setup {
  fakes: Fakes;
  dir: string;
  port: number;
  config: string;
  accounts: number;
  close(): Promise<void>;
}

/** Fakes with `accounts` simulated Google users and `count` appointments, dealt one booking calendar per account; serve's config for them. */
async function setup(accounts: number, count: number, google: { rpm: number; quota: number; reverseSchedule?: string }): Promise<Setup> {
  const fakes = await startFakes({
    seed: count,
    quota: google.quota,
    clientId: CLIENT.client_id,
    clientSecret: CLIENT.client_secret,
    googleUsers: accounts,
  });
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-accounts-'));
  const port = await freePort();
  const calendarKeys = accounts > 1 ? await fakes.call<string[]>('spreadCalendars', { count: accounts }) : ['*'];
  const maxPages = Math.max(500, Math.ceil(count / 100) + 10);
  const config = writeConfig(dir, port, fakes.ready, { rpm: google.rpm, calendarKeys, reverseSchedule: google.reverseSchedule }, maxPages);
  return {
    fakes,
    dir,
    port,
    config,
    accounts,
    async close() {
      await fakes.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const names = (n: number) => Array.from({ length: n }, (_, i) => `u${i + 1}`);

/** Every account has nothing pending and its Google user holds what it mirrored. `onCheck` runs at every look. */
const accountsBackfilled = (s: Setup, timeoutMs: number, onCheck?: () => void) =>
  backfilled(
    s.port,
    names(s.accounts).map((n) => `google.${n}`),
    async (i) => (await s.fakes.call<GoogleStats>('googleStats', { user: i })).events,
    { timeoutMs, everyMs: 1000, ...(onCheck ? { onCheck } : {}) },
  );

/** Each simulated user's figures, once every account is backfilled. */
const userStats = (s: Setup) => Promise.all(names(s.accounts).map((_, i) => s.fakes.call<GoogleStats>('googleStats', { user: i })));

interface AccountBackfill {
  events: number;
  calls: number;
  limited: number;
  window: BackfillWindow;
  /** Calls answered a minute over its window, as a share of its requests_per_minute. */
  share: number;
}

/**
 * The backfill of `count` appointments through serve, `accounts` accounts at `rate` each, each
 * simulated user allowing `rate` calls in any rolling minute; each account's figures. The Microsoft
 * section's baseline is this with one account.
 */
export async function backfill(accounts: number, count = BACKFILL_APPOINTMENTS, rate = QUOTA): Promise<AccountBackfill[]> {
  const s = await setup(accounts, count, { rpm: rate, quota: rate });
  try {
    const serve = await startServe(s.config, s.port);
    try {
      await accountsBackfilled(s, 600_000);
    } finally {
      await serve.stop();
    }
    return (await userStats(s)).map((g) => {
      if (!g.backfill) throw new Error('an account inserted nothing');
      return {
        events: g.events,
        calls: g.backfill.calls,
        limited: g.limited,
        window: g.backfill,
        share: windowShare(g.backfill, rate),
      };
    });
  } finally {
    await s.close();
  }
}

/** Successful runs of each account's reverse sync and writer so far, from serve's /metrics. */
async function jobRuns(port: number, accounts: number): Promise<{ reverse: number[]; writer: number[] }> {
  const text = await metrics(port);
  const runs = (job: string) =>
    Number(
      new RegExp(`^calbridge_job_runs_total\\{job="${job.replace('.', '\\.')}",status="success"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? 0,
    );
  return {
    reverse: names(accounts).map((n) => runs(`google.${n}-reverse-sync`)),
    writer: names(accounts).map((n) => runs(`google.${n}-writer`)),
  };
}

interface Resident {
  /** RSS SETTLE_MS after the work asked of serve ended (MB). */
  settled: number;
  /** Highest RSS seen meanwhile (MB). */
  peak: number;
}

/** RSS read from outside every 250 ms for SETTLE_MS: the last reading and the highest. */
async function settle(pid: number): Promise<Resident> {
  let peak = 0;
  const end = performance.now() + SETTLE_MS;
  while (performance.now() < end) {
    peak = Math.max(peak, rssKb(pid));
    await sleep(250);
  }
  const settled = rssKb(pid);
  return { settled: mb(settled), peak: mb(Math.max(peak, settled)) };
}

/** The backfill of STORED appointments at FAST_RPM per account, then RSS in that process once it has settled. */
async function filled(accounts: number): Promise<{ s: Setup; resident: Resident; backfillPeak: number; seconds: number }> {
  const s = await setup(accounts, STORED, { rpm: FAST_RPM, quota: 0, reverseSchedule: REVERSE_EVERY });
  try {
    const t0 = performance.now();
    const serve = await startServe(s.config, s.port);
    try {
      let peak = 0;
      await accountsBackfilled(s, 1_200_000, () => (peak = Math.max(peak, rssKb(serve.pid))));
      const seconds = (performance.now() - t0) / 1000;
      return { s, resident: await settle(serve.pid), backfillPeak: mb(peak), seconds };
    } finally {
      await serve.stop();
    }
  } catch (e) {
    await s.close();
    throw e;
  }
}

/**
 * serve restarted over a filled database, every appointment already mirrored: after its start-up
 * poll, once every account's reverse sync has run twice, RSS over SETTLE_MS; and each account's
 * job runs meanwhile (every one must really be running).
 */
async function restarted(s: Setup): Promise<Resident & { reverseRuns: number; writerRuns: number }> {
  const serve = await startServe(s.config, s.port);
  try {
    await waitFor('start-up poll', async () => (await status(s.port)).ingest?.poll?.last?.outcome === 'success', 120_000, 250);
    await waitFor('every reverse sync twice', async () => Math.min(...(await jobRuns(s.port, s.accounts)).reverse) >= 2, 60_000, 250);
    const resident = await settle(serve.pid);
    const runs = await jobRuns(s.port, s.accounts);
    const targets = (await status(s.port)).targets ?? {};
    if (names(s.accounts).some((n) => targets[`google.${n}`]?.pending !== 0)) throw new Error('writes were pending after the restart');
    return { ...resident, reverseRuns: Math.min(...runs.reverse), writerRuns: Math.min(...runs.writer) };
  } finally {
    await serve.stop();
  }
}

export async function runAccountsBench(): Promise<string> {
  buildDist();

  // 1. The backfill: one account of the whole size first (the baseline), then two accounts sharing it.
  const [one] = await backfill(1);
  const two = await backfill(2);
  if (two.reduce((n, a) => n + a.events, 0) !== one!.events)
    throw new Error("the two accounts do not hold the one account's events between them");
  const overlap = (Math.min(...two.map((a) => a.window.lastMs)) - Math.max(...two.map((a) => a.window.firstMs))) / 1000;
  const span = (a: AccountBackfill) => (a.window.lastMs - a.window.firstMs) / 1000;
  const bothSpan = (Math.max(...two.map((a) => a.window.lastMs)) - Math.min(...two.map((a) => a.window.firstMs))) / 1000;
  const backfillRow = (run: string, a: AccountBackfill) =>
    `| ${run} | ${fmt(a.events)} | ${fmt(a.calls)} in ${span(a).toFixed(1)} s | **${(a.share * 100).toFixed(0)} %** | **${a.limited}** |`;

  // 2. The footprint: both filled once (each in the process that wrote them), then restarted in turns.
  const single = await filled(1);
  const many = await filled(MANY).catch(async (e: unknown) => {
    await single.s.close();
    throw e;
  });
  const rounds: { one: Awaited<ReturnType<typeof restarted>>; many: Awaited<ReturnType<typeof restarted>> }[] = [];
  try {
    for (let round = 0; round < 2; round++) {
      if (round % 2 === 0) {
        const o = await restarted(single.s);
        rounds.push({ one: o, many: await restarted(many.s) });
      } else {
        const m = await restarted(many.s);
        rounds.push({ one: await restarted(single.s), many: m });
      }
    }
  } finally {
    await single.s.close();
    await many.s.close();
  }
  const diff = (a: number, b: number) => `${b - a >= 0 ? '+' : ''}${(b - a).toFixed(1)} MB`;
  const met = (ok: boolean) => (ok ? 'met' : '**not met**');
  const worst = Math.max(many.resident.settled - single.resident.settled, ...rounds.map((r) => r.many.settled - r.one.settled));
  const rssRow = (what: string, a: Resident, b: Resident) =>
    `| ${what} | ${a.settled.toFixed(1)} MB (peak ${a.peak.toFixed(1)}) | ${b.settled.toFixed(1)} MB (peak ${b.peak.toFixed(1)}) | ${diff(a.settled, b.settled)} | ≤ +10 MB: ${met(b.settled - a.settled <= 10)} |`;

  return [
    '## Named accounts',
    '',
    '`calbridge serve` as a process (bin/calbridge.js, its `#!` line, the build of this checkout), `google.accounts` with one',
    'account per simulated Google user:',
    'each user is a Google simulator of its own in the fakes’ process, with the booking simulator; each account writes the primary',
    'calendar of its user. Where there are several accounts, the appointments are dealt round-robin to as many booking calendars, one',
    'per account (its `calendar_key`); the one-account baseline takes them all (`"*"`) from the same seed.',
    '',
    `**Backfill, two accounts at once.** ${fmt(BACKFILL_APPOINTMENTS)} appointments from the booking simulator (those the default statuses`,
    `write become events), each account at requests_per_minute ${QUOTA} and its Google user allowing ${QUOTA} calls in any rolling minute`,
    '(403 rateLimitExceeded past it), reverse sync on (its listings count in the calls and the quota). The rate is an account’s calls',
    'answered from its first insert to its last, a minute, against its configured rate; the baseline, one account with all of them,',
    'ran first in the same run.',
    '',
    '| run | events | calls answered in its backfill | rate, % of its requests_per_minute (goal ≥ 95 %) | usage-limit answers (goal 0) |',
    '|---|---:|---:|---:|---:|',
    backfillRow('one account, all appointments (baseline)', one!),
    ...two.map((a, i) => backfillRow(`two accounts: u${i + 1}`, a)),
    '',
    `The two accounts wrote side by side: their backfills overlapped for ${overlap.toFixed(1)} s (of ${span(two[0]!).toFixed(1)} and ${span(two[1]!).toFixed(1)} s),`,
    `and the two together took ${bothSpan.toFixed(1)} s from the first insert to the last against ${span(one!).toFixed(1)} s for one account:`,
    `${((span(one!) / bothSpan) * 100).toFixed(0)} % of one account's throughput. Every account's calendar held exactly its appointments, once`,
    `(u1 ${fmt(two[0]!.events)} + u2 ${fmt(two[1]!.events)} = the baseline's ${fmt(one!.events)}).`,
    '',
    `**Resident size, ${MANY} accounts against one, ${fmt(STORED)} appointments stored.** Each set-up first backfilled (every account at`,
    `requests_per_minute ${fmt(FAST_RPM)}, no quota, reverse sync every 5 s): ${fmt(STORED)} events in one account in ${single.seconds.toFixed(0)} s,`,
    `${fmt(STORED / MANY)} in each of ${MANY} in ${many.seconds.toFixed(0)} s (RSS peak meanwhile ${single.backfillPeak.toFixed(0)} and`,
    `${many.backfillPeak.toFixed(0)} MB, not a goal). The fair comparison is the same stored data with every write done: the same ${fmt(STORED)}`,
    `appointments and ${fmt(STORED)} mirrored events, so the difference is what each account's own machinery holds (its Google client,`,
    'pacer, jobs and reverse sync), not a backlog one set-up has and the other has not. RSS is read from /proc from outside, every 250 ms',
    `for ${SETTLE_MS / 1000} s (the last reading; the peak beside it): first in the process that did the backfill, once it had settled; then`,
    'in serve restarted over the same database and simulators, after its start-up poll (every appointment listed, nothing to write)',
    `and once every account's reverse sync had run twice, two rounds in turns (one account first, then ${MANY} first).`,
    '',
    `| measure | 1 account | ${MANY} accounts | difference | goal |`,
    '|---|---:|---:|---:|---|',
    rssRow('after the backfill, in the process that wrote', single.resident, many.resident),
    ...rounds.map((r, i) => rssRow(`restarted, round ${i + 1} (${i % 2 === 0 ? `1 then ${MANY}` : `${MANY} then 1`})`, r.one, r.many)),
    '',
    `Over each restarted measure every account was running its jobs: each of the ${MANY} accounts' reverse sync had run at least`,
    `${Math.min(...rounds.map((r) => r.many.reverseRuns))} times and its writer at least ${Math.min(...rounds.map((r) => r.many.writerRuns))} times (the one account's: ${Math.min(...rounds.map((r) => r.one.reverseRuns))} and ${Math.min(...rounds.map((r) => r.one.writerRuns))}).`,
    `Largest difference: ${worst.toFixed(1)} MB (goal ≤ 10 MB: ${met(worst <= 10)}).`,
  ].join('\n');
}
