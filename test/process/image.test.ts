// The container image without Docker: the Dockerfile's runtime stage is laid out in a folder as its
// COPY and RUN lines make it (the compiled dist/ from the build stage, production dependencies only,
// the `calbridge` link on PATH), then its ENTRYPOINT and CMD run there with its ENV, and its
// HEALTHCHECK command asks the running daemon. What the image would lack (a file not copied, a
// dependency only installed for development, a TypeScript loader) fails here as it would in Docker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { readDockerfile, type ImageSpec } from '../cli/dockerfile.ts';
import { CALBRIDGE, calbridgeProcesses } from '../helpers/calbridge-process.ts';
import { productionPackages } from '../helpers/production-packages.ts';
import { freePort } from '../helpers/free-port.ts';
import { runtimeSettings } from '../../scripts/modern-node.js';

const REPO = resolve(import.meta.dirname, '..', '..');
const image: ImageSpec = readDockerfile(readFileSync(join(REPO, 'Dockerfile'), 'utf8'));
const calbridge = calbridgeProcesses();
let root: string;

/** A path inside the image, in the folder standing in for its file system. */
const inImage = (path: string) => join(root, resolve(image.workdir, path));

/** Hard links, not copies: the same files at a fraction of the cost. */
function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const e of readdirSync(from, { withFileTypes: true })) {
    const [source, target] = [join(from, e.name), join(to, e.name)];
    if (e.isDirectory()) linkTree(source, target);
    else if (e.isSymbolicLink()) cpSync(source, target, { verbatimSymlinks: true });
    else linkSync(source, target);
  }
}

/** The image's ENV, its absolute paths moved into the stand-in folder, and its PATH's /usr/local/bin. */
function imageEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(image.env)) env[k] = v.startsWith('/') ? join(root, v) : v;
  env.PATH = `${join(root, 'usr/local/bin')}:${dirname(process.execPath)}:/usr/bin:/bin`;
  return env;
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'calbridge-image-'));
  for (const copy of image.copies) {
    for (const source of copy.sources) {
      // The build stage's /app is this checkout after `npm ci` (prepare compiled dist/, as here).
      const from = copy.from === undefined ? join(REPO, source) : join(REPO, source.replace(/^\/app\/?/, ''));
      const target = copy.target.endsWith('/') ? join(inImage(copy.target), source.split('/').at(-1)!) : inImage(copy.target);
      expect(existsSync(from), `COPY ${source}: not in the checkout`).toBe(true);
      cpSync(from, target, { recursive: true });
    }
  }
  const install = image.runs.find((r) => r.includes('npm ci'));
  expect(install, 'the runtime stage installs with npm ci --omit=dev').toMatch(/npm ci --omit=dev/);
  for (const pkg of productionPackages(REPO)) linkTree(join(REPO, pkg), inImage(pkg));
  const link = / ln -s (\S+) (\S+)/.exec(` ${image.runs.join(' ')}`);
  expect(link, 'the runtime stage links calbridge onto PATH').not.toBeNull();
  mkdirSync(dirname(join(root, link![2]!)), { recursive: true });
  symlinkSync(join(root, link![1]!), join(root, link![2]!));
  for (const dir of ['/data', '/config']) mkdirSync(join(root, dir), { recursive: true });
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/** What the entry's #! line gives node: `#!/usr/bin/env -S NAME=value node <flags>`. */
const SETTINGS = runtimeSettings(CALBRIDGE);
const SIZE_FLAGS = SETTINGS.flags;
const SIZE_ENV = Object.entries(SETTINGS.env).map(([name, value]) => `${name}=${value}`);

describe('the container image, run from its runtime stage', () => {
  it('and `npm start` give node the same V8 flags and malloc arenas, for a small resident size', () => {
    expect(SIZE_FLAGS).toEqual(['--optimize-for-size']);
    expect(SIZE_ENV).toEqual(['MALLOC_ARENA_MAX=2', 'MALLOC_MMAP_THRESHOLD_=32768', 'MALLOC_TRIM_THRESHOLD_=0', 'MALLOC_TOP_PAD_=0']);
    const start = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
    expect(start).toBe(`${SIZE_ENV.join(' ')} node ${SIZE_FLAGS.join(' ')} ${relative(REPO, CALBRIDGE)}`);
  });

  it('holds the compiled program and no TypeScript toolchain', () => {
    expect(existsSync(inImage('dist/cli.js'))).toBe(true);
    expect(existsSync(inImage('src'))).toBe(false);
    for (const tool of ['typescript', 'tsx', 'esbuild', 'vitest']) expect(existsSync(inImage(`node_modules/${tool}`)), tool).toBe(false);
  });

  it('answers --version through its entry', () => {
    const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
    const run = calbridge.run(['--version'], { entry: image.entrypoint!, env: imageEnv(), cwd: inImage('.') });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe(version);
    expect(run.status).toBe(0);
  });

  it('serves with its ENTRYPOINT, CMD and ENV, passes its HEALTHCHECK, and stops on SIGTERM', async () => {
    const port = await freePort();
    const env = imageEnv();
    writeFileSync(
      env.CALBRIDGE_CONFIG!,
      `server:
  host: 127.0.0.1
  port: ${port}
  public_url: http://127.0.0.1:${port}
booking:
  base_url: http://127.0.0.1:9
  token: \${BOOKING_TOKEN}
webhook:
  secret: image-test-secret-0123456789
  register: false
poll:
  schedule: "0 0 1 1 *"
`,
    );
    env.BOOKING_TOKEN = 'booking-token-image-0123456789';
    const serve = calbridge.spawn(image.cmd!, { entry: image.entrypoint!, env, cwd: inImage('.') });
    await serve.listening();
    // The entry's #! line gave node calbridge's V8 flags, for a small resident size (BENCHMARKS.md, "Footprint").
    const argv = readFileSync(`/proc/${serve.child.pid}/cmdline`, 'utf8').split('\0');
    expect(argv).toEqual(expect.arrayContaining(SIZE_FLAGS));
    expect(readFileSync(`/proc/${serve.child.pid}/environ`, 'utf8').split('\0')).toEqual(expect.arrayContaining(SIZE_ENV));
    // The daemon took the database path from the image's ENV: the file sits on the volume.
    expect(existsSync(env.CALBRIDGE_DATABASE_PATH!)).toBe(true);

    const [program, ...args] = image.healthcheck!.test.map((a) => a.replace('127.0.0.1:8080', `127.0.0.1:${port}`));
    const healthcheck = () => spawnSync(program!, args, { env, timeout: 10_000 }).status;
    expect(healthcheck(), serve.output()).toBe(0);

    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
    expect(healthcheck()).toBe(1);
  });
});
