#!/usr/bin/env -S MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=32768 MALLOC_TRIM_THRESHOLD_=0 MALLOC_TOP_PAD_=0 node --optimize-for-size
// The entry users, service managers and the image run: plain JavaScript compiled from src/ into dist/
// by `npm install` (prepare → scripts/build.js), so no transpiler runs at start, and SIGTERM reaches
// calbridge itself, not a wrapper.
//
// The #! line is where calbridge's runtime settings live, for a small resident size; each is kept
// because it measurably lowers serve's RSS (BENCHMARKS.md, "Footprint"). The image's entry and the
// Node 20 path below run with them, `npm start` repeats them (a test holds it to this line), and
// `node bin/calbridge.js` runs without, the same program:
// - --optimize-for-size: V8 grows the old generation in smaller steps and gives pages back sooner,
//   and keeps the young generation at 1 MB (over any --max-semi-space-size). Its price is CPU on the
//   busy paths (fewer webhook acks a second at saturation, a higher p99 under load); memory is what a
//   small box runs out of, and a clinic's webhooks come a few a minute (CONTRIBUTING.md, "Runtime
//   settings").
// - MALLOC_ARENA_MAX=2: glibc gives each thread that allocates (V8's compiler and GC helpers, libuv's
//   pool) an arena of its own, whose pages stay resident; two in all is a common setting for
//   long-running processes in containers.
// - MALLOC_MMAP_THRESHOLD_=32768, MALLOC_TRIM_THRESHOLD_=0, MALLOC_TOP_PAD_=0: a block of 32 KiB or
//   more (the 64 KiB buffers that a page of the booking API's listing is read into) gets pages of
//   its own, given back when freed, and the heap's free top is given back at once. Otherwise glibc
//   keeps those blocks on its heap between longer-lived ones, where they stay resident.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { modernNode, runOn, runtimeSettings, thisNodeCanRun } from '../scripts/modern-node.js';

// better-sqlite3 13 is built for Node-API 10, which Node 20 lacks: it would crash on the first
// database opened. On such a machine `npm install` fetched Node 24 into the checkout; run on that
// (CONTRIBUTING.md, "Set-up"), else say what to do.
if (!thisNodeCanRun()) {
  const node = modernNode();
  if (!node) {
    process.stderr.write(
      `calbridge: needs Node.js 22 or newer (24 is what the image runs); this is ${process.version}. Run npm install in the checkout to fetch Node 24 into it, or install Node 24 LTS.\n`,
    );
    process.exit(1);
  }
  // The settings of the #! line, which `node bin/calbridge.js` on this old Node did not get.
  const file = fileURLToPath(import.meta.url);
  const { env, flags } = runtimeSettings(file);
  runOn(node, flags, file, process.argv.slice(2), { ...process.env, ...env });
} else {
  await main();
}

async function main() {
  const cli = new URL('../dist/cli.js', import.meta.url);
  if (!existsSync(cli)) {
    process.stderr.write('calbridge: the compiled program (dist/) is missing; run `npm install` or `npm run build` in the checkout.\n');
    process.exit(1);
  }
  const { runCli } = await import(cli.href);
  const code = await runCli(process.argv.slice(2));
  // Exit now: a finished command must not linger on an idle timer or socket (stdout/stderr are synchronous here).
  process.exit(code);
}
