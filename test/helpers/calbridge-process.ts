// Every calbridge process a test starts (serve, demo, one-shot commands) goes through here. Its
// stdout and stderr are kept, and when the test ends every line is searched for every secret its
// config holds: docs/reference/behaviour.md, "Secrets": no token, secret or refresh token in anything a command logs or prints.
import { spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterEach, expect } from 'vitest';
import { loadConfigFile } from '../../src/config/load.ts';
import { configuredSecrets } from '../../src/http/status-page/redact.ts';
import { healthy, PATIENCE_MS, waitFor } from './wait-for.ts';

/** The entry users and the image run; a test never starts calbridge any other way. */
export const CALBRIDGE = join(import.meta.dirname, '..', '..', 'bin', 'calbridge.js');

export interface CalbridgeOptions {
  /** On top of process.env; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** More secrets to look for, e.g. the ones the demo makes up for itself. */
  secrets?: string[];
  /** Secrets the command prints on stdout on purpose (the feed URLs of `feeds` and `demo`). */
  printsOnStdout?: string[];
  /** A pipe to write to the process's standard input (a pasted answer); otherwise it has none. */
  stdin?: boolean;
  /** What starts calbridge, when not `node bin/calbridge.js`: the container image's ENTRYPOINT (found on env.PATH). */
  entry?: string[];
}

/** The program and the arguments before the command's own. */
function entryOf(options: CalbridgeOptions): [string, string[]] {
  const [program, ...rest] = options.entry ?? [process.execPath, CALBRIDGE];
  return [program!, rest];
}

export interface CalbridgeProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** stdout then stderr, for failure messages. */
  output(): string;
  hasExited(): boolean;
  /** Resolves with the exit code (null after a signal) once the process and its output have ended. */
  exited: Promise<number | null>;
  /** `serve`: the URL from its "calbridge listening" line, once it listens. */
  listening(): Promise<string>;
  /** Once the daemon answers /healthz at `base` (http://127.0.0.1:port). */
  answering(base: string): Promise<void>;
  /** One more secret to look for, learnt while it runs (the demo makes up its own). */
  addSecret(secret: string, options?: { printedOnStdout?: boolean }): void;
}

interface Scanned {
  label: string;
  stdout(): string;
  stderr(): string;
  secrets: string[];
  printsOnStdout: string[];
}

const SECRET_NAME = /TOKEN|SECRET|PASSWORD/i;
/** As in the logger's backstop: shorter values are not secrets (a test's `token: t`). */
const MIN_SECRET = 8;

function environment(extra: CalbridgeOptions['env'] = {}): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = { ...process.env, ...extra };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  return env;
}

/** The config's secrets as this process reads them (its --config and environment), and secret-named variables the test set. */
function secretsOf(args: string[], options: CalbridgeOptions, env: NodeJS.ProcessEnv): string[] {
  const found = [...(options.secrets ?? [])];
  const at = args.findIndex((a) => a === '--config' || a === '-c');
  const file = (at >= 0 ? args[at + 1] : undefined) ?? (env.CALBRIDGE_CONFIG || undefined);
  if (file !== undefined) {
    try {
      found.push(...configuredSecrets(loadConfigFile(resolve(options.cwd ?? process.cwd(), file), env).config));
    } catch {
      // An invalid config is what some tests are about; its variables below still count.
    }
  }
  for (const [name, value] of Object.entries(options.env ?? {})) if (value && SECRET_NAME.test(name)) found.push(value);
  return [...new Set(found)].filter((s) => s.length >= MIN_SECRET);
}

/** Where each secret shows up in a process's output, as given or percent-encoded: `['stderr: <secret>', ...]`. */
export function leakedSecrets(p: { stdout: string; stderr: string; secrets: string[]; printsOnStdout: string[] }): string[] {
  const leaks: string[] = [];
  for (const secret of p.secrets) {
    const forms = [secret, encodeURIComponent(secret)];
    if (forms.some((f) => p.stderr.includes(f))) leaks.push(`stderr: ${secret}`);
    if (!p.printsOnStdout.includes(secret) && forms.some((f) => p.stdout.includes(f))) leaks.push(`stdout: ${secret}`);
  }
  return leaks;
}

function scan(p: Scanned): void {
  const leaks = leakedSecrets({ stdout: p.stdout(), stderr: p.stderr(), secrets: p.secrets, printsOnStdout: p.printsOnStdout });
  expect(leaks, `${p.label} wrote a configured secret:\n${p.stdout()}${p.stderr()}`).toEqual([]);
}

/**
 * Spawns and runs calbridge for one test file. Call it once at the top of the file: after each test
 * it kills what is still running, waits for the output to end, and checks every line of it.
 */
export function calbridgeProcesses() {
  const started: (Scanned & { process?: CalbridgeProcess })[] = [];

  afterEach(async () => {
    const all = started.splice(0);
    for (const s of all) if (s.process && !s.process.hasExited()) s.process.child.kill('SIGKILL');
    await Promise.all(all.map((s) => s.process?.exited));
    for (const s of all) scan(s);
  });

  return {
    /** A long-running command (serve, demo, a sync against a slow fake). */
    spawn(args: string[], options: CalbridgeOptions = {}): CalbridgeProcess {
      const env = environment(options.env);
      const [program, before] = entryOf(options);
      const child = spawn(program, [...before, ...args], {
        env,
        cwd: options.cwd,
        stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      // 'close' comes after the process exits and both streams have ended: all output is in.
      const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
      const scanned: Scanned = {
        label: `calbridge ${args.join(' ')}`,
        stdout: () => out,
        stderr: () => err,
        secrets: secretsOf(args, options, env),
        printsOnStdout: [...(options.printsOnStdout ?? [])],
      };
      const process_: CalbridgeProcess = {
        child,
        stdout: () => out,
        stderr: () => err,
        output: () => `${out}${err}`,
        hasExited: () => child.exitCode !== null || child.signalCode !== null,
        exited,
        listening: () =>
          waitFor('it listens', () => /"url":"([^"]+)"[^\n]*"msg":"calbridge listening"/.exec(out)?.[1], {
            process: process_,
            everyMs: 50,
          }),
        answering: async (base) => void (await waitFor(`${base}/healthz to answer`, () => healthy(base), { process: process_ })),
        addSecret(secret, { printedOnStdout = false } = {}) {
          scanned.secrets.push(secret);
          if (printedOnStdout) scanned.printsOnStdout.push(secret);
        },
      };
      started.push({ ...scanned, process: process_ });
      return process_;
    },

    /** A one-shot command, to its end. */
    run(args: string[], options: CalbridgeOptions = {}): SpawnSyncReturns<string> {
      const env = environment(options.env);
      const [program, before] = entryOf(options);
      const result = spawnSync(program, [...before, ...args], { env, cwd: options.cwd, encoding: 'utf8', timeout: PATIENCE_MS });
      started.push({
        label: `calbridge ${args.join(' ')}`,
        stdout: () => result.stdout,
        stderr: () => result.stderr,
        secrets: secretsOf(args, options, env),
        printsOnStdout: options.printsOnStdout ?? [],
      });
      return result;
    },
  };
}
