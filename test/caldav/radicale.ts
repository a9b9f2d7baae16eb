// A real CalDAV server for the tests: Radicale (Debian package `radicale`) on a free 127.0.0.1 port,
// with its storage, htpasswd file and config in a throw-away folder. Radicale picks the port itself
// (hosts = 127.0.0.1:0) and logs it; we read it from there, so two test files never race for one.
// Plain-text htpasswd: bcrypt would need python3-bcrypt, and these users exist only for one test.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Radicale {
  /** http://127.0.0.1:<port>/ */
  url: string;
  /** The storage folder: collection-root/<user>/<calendar>/ holds one .ics per object. */
  storage: string;
  stop(): Promise<void>;
}

export interface RadicaleOptions {
  users?: Record<string, string>;
}

/** Where a Debian package put a binary; a missing one fails the test with the package to install. */
export function requireBinary(name: string, debianPackage: string): string {
  for (const dir of ['/usr/bin', '/usr/local/bin']) {
    if (existsSync(join(dir, name))) return join(dir, name);
  }
  const found = spawnSync('which', [name], { encoding: 'utf8' }).stdout.trim();
  if (found) return found;
  throw new Error(
    `${name} is not installed: these tests run it as a real second party; install it with "apt-get install ${debianPackage}"`,
  );
}

export async function startRadicale(options: RadicaleOptions = {}): Promise<Radicale> {
  const binary = requireBinary('radicale', 'radicale');
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-radicale-'));
  const users = options.users ?? { alice: 'alice-app-password' };
  writeFileSync(
    join(dir, 'users'),
    Object.entries(users)
      .map(([u, p]) => `${u}:${p}\n`)
      .join(''),
  );
  const storage = join(dir, 'collections');
  writeFileSync(
    join(dir, 'config'),
    [
      '[server]',
      'hosts = 127.0.0.1:0',
      '[auth]',
      'type = htpasswd',
      `htpasswd_filename = ${join(dir, 'users')}`,
      'htpasswd_encryption = plain',
      'delay = 0', // a wrong password is answered at once, not after a second
      '[storage]',
      `filesystem_folder = ${storage}`,
      '[web]',
      'type = none',
      '[logging]',
      'level = info',
      'mask_passwords = True',
    ].join('\n'),
  );
  // An empty HOME and no XDG config: nothing from the machine's own Radicale config leaks in.
  const child = spawn(binary, ['--config', join(dir, 'config')], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8' },
  });
  try {
    const port = await listeningPort(child);
    return {
      url: `http://127.0.0.1:${port}/`,
      storage,
      stop: () => stopProcess(child).finally(() => rmSync(dir, { recursive: true, force: true })),
    };
  } catch (e) {
    await stopProcess(child);
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let log = '';
    let port: number | undefined;
    const timer = setTimeout(() => reject(new Error(`Radicale did not start within 20 s:\n${log}`)), 20_000);
    const read = (chunk: Buffer) => {
      log += chunk.toString();
      port ??= Number(/Listening on '\[127\.0\.0\.1\]:(\d+)'/.exec(log)?.[1]) || undefined;
      if (port && log.includes('Radicale server ready')) {
        clearTimeout(timer);
        resolve(port);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Radicale exited with ${code} before it was ready:\n${log}`));
    });
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
