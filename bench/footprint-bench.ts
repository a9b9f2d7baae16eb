// Footprint: what calbridge costs a small machine, measured from outside as a user runs it (the
// compiled program, `node bin/calbridge.js serve`, not via npm): RSS idle, with 20,000 and 100,000
// appointments stored while it serves and polls them, right after one GET of the largest feed; cold
// start to /healthz 200; `--help`; the size of production node_modules. A bare `node` HTTP server
// measured in the same run is the baseline.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startSimulator, type Simulator } from '../src/booking/simulator/index.ts';
import { productionPackages } from '../test/helpers/production-packages.ts';

const REPO = resolve(import.meta.dirname, '..');
const CALBRIDGE = join(REPO, 'bin', 'calbridge.js');
const FEED_TOKEN = 'footprint-feed-token-0123456789';
const SIZES = (process.env.FOOTPRINT_SIZES ?? '20000,100000').split(',').map(Number);

const mb = (kb: number) => `${Math.round(kb / 1024)} MB`;

export function rssKb(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(line?.[1] ?? 0);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Running {
  child: ChildProcess;
  out: () => string;
  /** Spawn to the first 200 from url. */
  startMs: number;
}

async function startUntilOk(
  command: string[],
  url: (out: string) => string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Running> {
  const t0 = performance.now();
  const child = spawn(command[0]!, command.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command.join(' ')} exited:\n${out}`);
    const target = url(out);
    if (
      target &&
      (await fetch(target).then(
        (r) => r.ok,
        () => false,
      ))
    )
      return { child, out: () => out, startMs: performance.now() - t0 };
    await sleep(5);
  }
}

async function stop(child: ChildProcess): Promise<void> {
  const done = new Promise((r) => child.once('close', r));
  child.kill('SIGTERM');
  await done;
}

/**
 * The bare baseline: node answering HTTP with nothing else loaded. With `floor`, it has also made one
 * fetch() and formatted one date in a time zone, as any daemon that polls an HTTP API with fetch and
 * keeps appointments' local times must: Node's fetch (undici) and ICU's zone data are then in memory.
 */
async function bareNode(floor = false): Promise<{ startMs: number; rss: number }> {
  const work = floor
    ? "new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', dateStyle: 'full', timeStyle: 'long' }).format(new Date()); fetch('http://127.0.0.1:' + port + '/').then((r) => r.text()).then(() => console.log('port ' + port));"
    : "console.log('port ' + port);";
  const code = `require('http').createServer((q, s) => s.end('ok')).listen(0, '127.0.0.1', function () { const port = this.address().port; ${work} });`;
  const run = await startUntilOk(
    [process.execPath, '-e', code],
    (out) => /port (\d+)/.exec(out)?.[1] && `http://127.0.0.1:${/port (\d+)/.exec(out)![1]}/`,
  );
  await sleep(2000);
  const rss = rssKb(run.child.pid!);
  await stop(run.child);
  return { startMs: run.startMs, rss };
}

function writeConfig(dir: string, sim: Simulator, pageSize = 1000): string {
  const file = join(dir, `config-${pageSize}.yaml`);
  writeFileSync(
    file,
    `server:
  host: 127.0.0.1
  port: 0
  public_url: https://calendar.example.com
database:
  path: calbridge.db
booking:
  base_url: ${sim.url}
  token: ${sim.token}
  page_size: ${pageSize}
webhook:
  secret: footprint-webhook-secret-0123
  register: false
poll:
  schedule: "0 0 1 1 *"
  past_days: 14
  future_days: 30
  max_gone_per_hour: 1000000
google:
  enabled: false
feeds:
  - name: Everyone
    token: ${FEED_TOKEN}
`,
  );
  return file;
}

const listeningUrl = (out: string) => {
  const url = /"url":"([^"]+)"[^\n]*"msg":"calbridge listening"/.exec(out)?.[1];
  return url && `${url}/healthz`;
};

const pollsDone = (out: string) => (out.match(/"job":"poll"[^\n]*"msg":"job run"/g) ?? []).length;

interface Serving {
  startMs: number;
  /** Highest RSS from start until the start-up poll has finished. */
  peakPolling: number;
  /** Two seconds after that poll. */
  settled: number;
  /** Right after one GET of the whole feed (null: not asked). */
  afterFeed: number | null;
  /** Ten seconds after that GET, once V8's memory reducer (8 s after the last burst) has run. */
  steady: number | null;
  feedBytes: number;
}

/** After the poll, `feed`: one GET of the feed, then 10 s idle; `idle`: 10 s idle; `nothing`: no more. */
type Then = 'feed' | 'idle' | 'nothing';

/** serve over dir's config: cold start, the start-up poll watched, then what `then` says. */
async function serveAndMeasure(config: string, then: Then, nodeDefaults = false): Promise<Serving> {
  // As the image's entry runs it: the file itself, its #! line giving node its flags and
  // environment. nodeDefaults: `node bin/calbridge.js`, none of them (what the flags save).
  const env = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` };
  const command = nodeDefaults ? [process.execPath, CALBRIDGE] : [CALBRIDGE];
  const run = await startUntilOk([...command, 'serve', '--config', config], listeningUrl, env);
  try {
    const pid = run.child.pid!;
    let peak = rssKb(pid);
    const deadline = Date.now() + 600_000;
    while (pollsDone(run.out()) < 1 && Date.now() < deadline) {
      peak = Math.max(peak, rssKb(pid));
      await sleep(50);
    }
    const poll = /[^\n]*"job":"poll"[^\n]*"msg":"job run"/.exec(run.out())?.[0] ?? 'no poll ran';
    if (!poll.includes('"outcome":"success"')) throw new Error(`the start-up poll did not succeed: ${poll}`);
    await sleep(2000);
    const settled = rssKb(pid);
    let afterFeed: number | null = null;
    let steady: number | null = null;
    let feedBytes = 0;
    if (then === 'feed') {
      const base = listeningUrl(run.out())!.replace(/\/healthz$/, '');
      feedBytes = (await (await fetch(`${base}/feeds/${FEED_TOKEN}.ics`)).arrayBuffer()).byteLength;
      await sleep(1000);
      afterFeed = rssKb(pid);
      await sleep(10_000);
      steady = rssKb(pid);
    } else if (then === 'idle') {
      // Idle a while longer, nothing asked: what a quiet daemon holds once V8's memory reducer has run.
      await sleep(10_000);
      steady = rssKb(pid);
    }
    return { startMs: run.startMs, peakPolling: peak, settled, afterFeed, steady, feedBytes };
  } finally {
    await stop(run.child);
  }
}

/** Fills dir's database from the simulator with one `calbridge sync`, as a first run would. */
async function fill(config: string): Promise<number> {
  const t0 = performance.now();
  // Not spawnSync: the simulator answering it lives in this process.
  const child = spawn(process.execPath, [CALBRIDGE, 'sync', '--config', config, '--allow-mass-changes'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise((r) => child.once('close', r));
  if (code !== 0) throw new Error(`sync failed:\n${out}`);
  return performance.now() - t0;
}

function helpMs(): number {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    spawnSync(process.execPath, [CALBRIDGE, '--help']);
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[2]!;
}

function bareMs(): number {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[2]!;
}

/** Bytes on disk (allocated blocks, as du counts) under path. */
function diskBytes(path: string): number {
  const s = lstatSync(path);
  if (!s.isDirectory()) return s.blocks * 512;
  return s.blocks * 512 + readdirSync(path).reduce((sum, name) => sum + diskBytes(join(path, name)), 0);
}

function productionNodeModules(): number {
  // Nested packages sit inside their parents' folders: count each top folder once.
  const tops = productionPackages(REPO).filter((p, _i, all) => !all.some((q) => q !== p && p.startsWith(`${q}/`)));
  return tops.reduce((sum, p) => sum + diskBytes(join(REPO, p)), 0);
}

/** dist/ built from this checkout: bin/calbridge.js runs it, and a stale one would measure another build. */
export function buildDist(): void {
  const built = spawnSync(process.execPath, [join(REPO, 'scripts', 'build.js')], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the build failed');
}

export async function runFootprintBench(): Promise<string> {
  buildDist();
  const bare = await bareNode();
  const floor = await bareNode(true);
  const rows: string[][] = [];
  const row = (what: string, value: string, goal: string) => rows.push([what, value, goal]);

  const emptyDir = mkdtempSync(join(tmpdir(), 'calbridge-footprint-'));
  const emptySim = await startSimulator();
  try {
    const empty = await serveAndMeasure(writeConfig(emptyDir, emptySim), 'idle');
    row('RSS idle, empty database', mb(empty.settled), '≤ 80 MB');
    row('RSS idle, empty database: 10 s later, nothing asked meanwhile', mb(empty.steady!), '≤ 80 MB');
    // One start says more about the neighbours than about calbridge: the median of this one and two more.
    const starts = [empty.startMs];
    for (let i = 0; i < 2; i++) {
      const again = await startUntilOk([CALBRIDGE, 'serve', '--config', writeConfig(emptyDir, emptySim)], listeningUrl, {
        ...process.env,
        PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
      });
      starts.push(again.startMs);
      await stop(again.child);
    }
    const sorted = starts.sort((a, b) => a - b);
    row(
      'cold start to /healthz 200, empty (median of 3)',
      `${Math.round(sorted[1]!)} ms (${sorted.map(Math.round).join(', ')})`,
      '≤ 500 ms',
    );
  } finally {
    await emptySim.close();
    rmSync(emptyDir, { recursive: true, force: true });
  }

  for (const size of SIZES) {
    const dir = mkdtempSync(join(tmpdir(), 'calbridge-footprint-'));
    const sim = await startSimulator({ seed: { count: size, random: 7 }, maxPageSize: 1000 });
    try {
      // Listed as users run it, in pages of booking.page_size's default (100), where the default
      // booking.max_pages (500) lets that list everything; beyond 50,000, in the largest pages (1,000).
      const pageSize = size <= 50_000 ? 100 : 1000;
      const config = writeConfig(dir, sim, pageSize);
      const fillMs = await fill(config);
      const s = await serveAndMeasure(config, 'feed');
      const n = size.toLocaleString('en-US');
      const goal = size <= 20_000 ? '≤ 100 MB' : '≤ 120 MB';
      row(`RSS serving and polling, ${n} stored: peak during the start-up poll`, mb(s.peakPolling), goal);
      row(`RSS serving, ${n} stored: after that poll`, mb(s.settled), goal);
      row(`RSS right after one GET of the ${n}-event feed (${Math.round(s.feedBytes / 2 ** 20)} MiB)`, mb(s.afterFeed!), '≤ 150 MB');
      row(`RSS serving, ${n} stored: 10 s later, nothing asked meanwhile`, mb(s.steady!), goal);
      row(`cold start to /healthz 200, ${n} stored`, `${Math.round(s.startMs)} ms`, '≤ 1 s');
      row(`(first \`sync\` storing ${n}, not a goal)`, `${(fillMs / 1000).toFixed(1)} s`, '');
      // The same with Node's defaults, to show what the runtime flags save (CONTRIBUTING.md, "Runtime settings").
      const plain = await serveAndMeasure(config, 'feed', true);
      row(
        `(the same with Node's defaults, \`node bin/calbridge.js\`: peak, after the poll, after the GET, 10 s later)`,
        `${[plain.peakPolling, plain.settled, plain.afterFeed!, plain.steady!].map(mb).join(', ')}`,
        '',
      );
      // The same listing in the largest pages the booking service gives: fewer requests, more held at once.
      if (pageSize !== 1000) {
        const large = await serveAndMeasure(writeConfig(dir, sim, 1000), 'nothing');
        row(
          `(the same in pages of 1,000, booking.page_size's largest: peak during the poll, after it)`,
          `${[large.peakPolling, large.settled].map(mb).join(', ')}`,
          '',
        );
      }
    } finally {
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  row('`calbridge --help` (median of 5)', `${Math.round(helpMs())} ms`, '< 200 ms');
  row('production node_modules', `${(productionNodeModules() / 2 ** 20).toFixed(0)} MiB`, '≤ 100 MiB');

  return [
    '## Footprint',
    '',
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpus()[0]?.model ?? 'an unknown CPU'} (${cpus().length} cores, shared), ${Math.round(totalmem() / 2 ** 30)} GiB.`,
    `\`bin/calbridge.js serve\` (the compiled program, started as the image's entry starts it) on Node ${process.version}, booking simulator with`,
    "the appointments in the poll window (listed in pages of 100, booking.page_size's default, up to 50,000; in pages of 1,000 beyond, as",
    'the default booking.max_pages of 500 would stop a listing of 100), one feed of all of them, Google off. RSS from /proc, read from outside.',
    `Baseline in the same run: a bare \`node\` HTTP server idles at ${mb(bare.rss)} and answers its first request`,
    `${Math.round(bare.startMs)} ms after spawn; \`node -e 0\` takes ${Math.round(bareMs())} ms. The same server after one \`fetch()\` and one date formatted`,
    `in a time zone (what polling the booking API and local times cost any Node daemon) idles at ${mb(floor.rss)}.`,
    '',
    '| measure | calbridge | goal |',
    '|---|---|---|',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}
