#!/usr/bin/env node
// `npm test`'s pretest: the programs the tests drive for real, Debian packages all three: chromium
// (the status page in a browser), radicale (a CalDAV server) and vdirsyncer (a second CalDAV client).
// Missing ones are installed with apt-get when that is possible (root, apt-get on PATH), as .ci/run
// does; otherwise one sentence says what to install, instead of failing tests to decode later.
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { spawnSync } from 'node:child_process';

/** The tests launch chromium from this path (test/process/browser.test.ts). */
const CHROMIUM = '/usr/bin/chromium';

function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      // not in this folder
    }
  }
  return false;
}

const missing = [
  ...(existsSync(CHROMIUM) ? [] : ['chromium']),
  ...(onPath('radicale') ? [] : ['radicale']),
  ...(onPath('vdirsyncer') ? [] : ['vdirsyncer']),
];
if (missing.length === 0) process.exit(0);

const list = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}`;
const root = typeof process.getuid === 'function' && process.getuid() === 0;
if (!root || !onPath('apt-get')) {
  const why = onPath('apt-get') ? 'apt-get needs root' : 'there is no apt-get here';
  console.error(
    `calbridge tests: ${list} ${missing.length === 1 ? 'is' : 'are'} missing (the tests drive ${missing.length === 1 ? 'it' : 'them'} for real) and cannot be installed from here (${why}); install the Debian package${missing.length === 1 ? '' : 's'} with \`sudo apt-get install -y ${missing.join(' ')}\` and run npm test again.`,
  );
  process.exit(1);
}

console.error(`calbridge tests: installing ${list} with apt-get (the tests drive ${missing.length === 1 ? 'it' : 'them'} for real)…`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [
  ['update', '-qq'],
  ['install', '-y', '-qq', '--no-install-recommends', ...missing],
]) {
  const run = spawnSync('apt-get', args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
  if (run.status !== 0) {
    console.error(
      `calbridge tests: \`apt-get ${args.join(' ')}\` failed (exit ${run.status ?? run.signal}); install ${list} by hand and run npm test again.`,
    );
    process.exit(1);
  }
}
