// Starting the whole-daemon benchmark's processes: calbridge `serve` (as users run it), the fakes
// and the bare baseline, each its own process; and reading a process's CPU time from /proc.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { runtimeSettings } from '../../scripts/modern-node.js';

const ROOT = join(import.meta.dirname, '..', '..');
const RUN_TS = join(ROOT, 'bin', 'run-ts.js');

/** User plus system CPU of a process so far, in ms (Linux /proc; clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  return statCpuMs(`/proc/${pid}/stat`);
}

/** The CPU time of a process's main thread (its event loop, for Node), in ms. */
export function mainThreadCpuMs(pid: number): number {
  return statCpuMs(`/proc/${pid}/task/${pid}/stat`);
}

function statCpuMs(path: string): number {
  const stat = readFileSync(path, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** The Graph simulator in the fakes' process: one mailbox, Graph's limits, notifications to serve. */
export interface GraphArgs {
  clientId: string;
  clientSecret: string;
  mailbox: string;
  /** Per-mailbox requests in any rolling minute (429 past it); 0: none. */
  perMinute: number;
  /** Milliseconds each Graph call takes. */
  latencyMs: number;
  /** serve's https public_url, and the local port Graph's deliveries to it really go to. */
  publicUrl: string;
  servePort: number;
}

export interface Fakes {
  child: ChildProcess;
  ready: {
    bookingUrl: string;
    bookingToken: string;
    googleRoot: string;
    tokenUrl: string;
    /** Every simulated Google user's endpoints (the first is googleRoot and tokenUrl). */
    googleUsers: { root: string; tokenUrl: string }[];
    /** microsoft.authority_url and microsoft.graph_root, when started with `graph`. */
    graphRoot?: string;
  };
  call<T>(cmd: string, args?: Record<string, unknown>): Promise<T>;
  stop(): Promise<void>;
}

/** SIGTERM, and SIGKILL if it has not exited 15 s later. */
const stopChild = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });

export async function startFakes(args: {
  seed: number;
  quota: number;
  clientId: string;
  clientSecret: string;
  googleUsers?: number;
  graph?: GraphArgs;
}): Promise<Fakes> {
  const child = fork(RUN_TS, [join(ROOT, 'bench', 'daemon', 'fakes.ts'), JSON.stringify(args)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let next = 1;
  let ready!: Fakes['ready'];
  await new Promise<void>((resolve, reject) => {
    child.on('message', (m: { id: number; result?: unknown; error?: string }) => {
      if (m.id === 0) {
        ready = m.result as Fakes['ready'];
        return resolve();
      }
      const w = waiting.get(m.id);
      waiting.delete(m.id);
      if (m.error) w?.reject(new Error(m.error));
      else w?.resolve(m.result);
    });
    child.once('exit', (code) => reject(new Error(`the fakes exited (${code})`)));
  });
  return {
    child,
    ready,
    call: <T>(cmd: string, a: Record<string, unknown> = {}) =>
      new Promise<T>((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ id, cmd, ...a });
      }),
    stop: () => stopChild(child),
  };
}

/**
 * The bare Hono server; `runtime: 'calbridge'` starts it with calbridge's runtime settings (the same
 * node flags and malloc environment), which tells the cost of those settings from that of calbridge's work.
 */
export async function startBare(
  feedFile: string,
  runtime: 'node' | 'calbridge' = 'node',
): Promise<{ port: number; pid: number; stop(): Promise<void> }> {
  const settings = runtime === 'calbridge' ? runtimeSettings() : undefined;
  const child = fork(RUN_TS, [join(ROOT, 'bench', 'daemon', 'bare.ts'), feedFile], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    ...(settings ? { execArgv: settings.flags, env: { ...process.env, ...settings.env } } : {}),
  });
  const port = await new Promise<number>((resolve) => child.once('message', (m: { port: number }) => resolve(m.port)));
  return { port, pid: child.pid!, stop: () => stopChild(child) };
}

/** `calbridge serve --config <file>`, as users start it; resolves once /healthz answers. */
export async function startServe(config: string, port: number): Promise<{ pid: number; child: ChildProcess; stop(): Promise<void> }> {
  // BENCH_PROFILE=<dir>: a CPU profile of serve, written when it stops.
  const profile = process.env.BENCH_PROFILE ? `--cpu-prof --cpu-prof-dir=${process.env.BENCH_PROFILE}` : '';
  // BENCH_SERVE_ROOT=<dir>: serve another build of calbridge (a checkout with dist/ built), to compare two.
  const root = process.env.BENCH_SERVE_ROOT ?? ROOT;
  const entry = join(root, 'bin', 'calbridge.js');
  // As the image's entry starts it: the file itself, its #! line giving node calbridge's flags.
  // BENCH_NODE_FLAGS="<flags>" runs `node <flags> bin/calbridge.js` instead, to compare flags.
  const [program, args] =
    process.env.BENCH_NODE_FLAGS === undefined
      ? [entry, []]
      : [process.execPath, [...process.env.BENCH_NODE_FLAGS.split(' ').filter(Boolean), entry]];
  const child = spawn(program, [...args, 'serve', '--config', config], {
    stdio: ['ignore', process.env.BENCH_SERVE_LOG ? 'inherit' : 'ignore', 'inherit'],
    env: {
      ...process.env,
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
      NODE_OPTIONS: [process.env.NODE_OPTIONS, profile].filter(Boolean).join(' '),
      CALBRIDGE_LOG_LEVEL: process.env.CALBRIDGE_LOG_LEVEL ?? 'info',
    },
  });
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`serve exited (${child.exitCode})`);
    const up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { pid: child.pid!, child, stop: () => stopChild(child) };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('serve did not answer /healthz within 30 s');
}
