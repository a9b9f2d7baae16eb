// calbridge's CLI in process (the real composition root) on a config file in a temp dir, pointed at
// the booking simulator over HTTP and the Google simulator (through the real googleapis client).
// The test registers `cleanups` and runs them in afterEach, newest first.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Simulator } from '../../src/booking/simulator/index.ts';
import { startGoogleSimulator, type GoogleSimulator } from '../../src/google/simulator/index.ts';
import { CLIENT } from '../google/google-env.ts';
import { cli } from './run-cli.ts';
import { startTestSimulator, TEST_ZONE } from './simulator.ts';

export interface CliEnv {
  dir: string;
  file: string;
  sim: Simulator;
  fake: GoogleSimulator;
  /** Runs `calbridge <args> --config <file>`: its exit status and its stdout lines. */
  run(...args: string[]): Promise<{ code: number; out: string[] }>;
}

export interface CliEnvOptions {
  /** Extra lines of the google section, e.g. ['title: "{person.full_name}"']. */
  google?: string[];
  /** Extra top-level YAML, e.g. a feeds section. */
  extra?: string;
}

/**
 * A temp dir (removed by `cleanups`) with the booking simulator and a config file pointing at it,
 * followed by `sections` (YAML: a calendar target's section and anything else).
 */
export async function cliFolder(
  cleanups: (() => unknown)[],
  sections: (sim: Simulator) => Promise<string>,
): Promise<{ dir: string; file: string; sim: Simulator }> {
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-cli-env-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const sim = await startTestSimulator();
  cleanups.push(() => sim.close());
  const file = join(dir, 'config.yaml');
  writeFileSync(
    file,
    `server: { host: 127.0.0.1, port: 0, public_url: "http://127.0.0.1:1" }
database: { path: calbridge.db }
booking: { base_url: "${sim.url}", token: "${sim.token}", timezone: ${TEST_ZONE} }
webhook: { secret: cli-env-webhook-secret-0123456789, register: false }
${await sections(sim)}`,
  );
  return { dir, file, sim };
}

export async function startCliEnv(cleanups: (() => unknown)[], options: CliEnvOptions = {}): Promise<CliEnv> {
  let fake!: GoogleSimulator;
  const { dir, file, sim } = await cliFolder(cleanups, async () => {
    fake = await startGoogleSimulator({ clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret });
    cleanups.push(() => fake.close());
    return `google:
  credentials: { client_id: ${CLIENT.client_id}, client_secret: ${CLIENT.client_secret}, refresh_token: ${CLIENT.refresh_token} }
  api_root: "${fake.rootUrl}"
  token_url: "${fake.tokenUrl}"
${(options.google ?? []).map((l) => `  ${l}\n`).join('')}${options.extra ?? ''}`;
  });
  return {
    dir,
    file,
    sim,
    fake,
    async run(...args) {
      const { code, lines } = await cli(...args, '--config', file);
      return { code, out: lines };
    },
  };
}
