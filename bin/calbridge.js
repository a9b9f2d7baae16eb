#!/usr/bin/env -S MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=32768 MALLOC_TRIM_THRESHOLD_=0 MALLOC_TOP_PAD_=0 node --max-semi-space-size=1 --optimize-for-size
// The entry users, service managers and the image run: plain JavaScript compiled from src/ into dist/
// by `npm install` (prepare → scripts/build.js), so no transpiler runs at start, and SIGTERM reaches
// calbridge itself, not a wrapper.
//
// The #! line is where calbridge's runtime settings live, for a small resident size (BENCHMARKS.md,
// "Footprint"); the image's entry and the Node 20 path below run with them, `npm start` repeats them
// (a test holds it to this line), and `node bin/calbridge.js` runs without, the same program:
// - --max-semi-space-size=1 (MB): the young generation otherwise grows to 3 x 16 MB under a burst (a
//   poll, a feed render) and keeps it; a small one is collected more often, each time quickly.
//   --optimize-for-size implies this size, and V8 applies that over any explicit value: a larger
//   young generation means dropping --optimize-for-size too.
// - --optimize-for-size: V8 grows the old generation in smaller steps and gives pages back sooner;
//   with many appointments stored, far less resident after the start-up poll. Its price: fewer
//   webhook acks a second at saturation and a higher p99 under load (its compacting collections).
//   Memory is what a small box runs out of; a clinic's webhooks come a few a minute (figures in
//   BENCHMARKS.md, "Footprint"; CONTRIBUTING.md, "Runtime settings").
// - MALLOC_ARENA_MAX=2: glibc gives each thread that allocates (V8's compiler and GC helpers, libuv's
//   pool) an arena of its own, whose pages stay resident; two in all measured less after that poll
//   (a common setting for long-running processes in containers).
// - MALLOC_MMAP_THRESHOLD_=32768, MALLOC_TRIM_THRESHOLD_=0, MALLOC_TOP_PAD_=0: a block of 32 KiB or
//   more (the 64 KiB buffers that a page of the booking API's listing is read into) gets pages of
//   its own, given back when freed, and the heap's free top is given back at once. Otherwise glibc
//   keeps those blocks on its heap between longer-lived ones, where they stay resident after the
//   start-up poll. Measured with no cost in webhook acks or their p99 (BENCHMARKS.md, "Footprint").
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { modernNode, runOn, runtimeSettings, thisNodeCanRun } from '../scripts/modern-node.js';

// better-sqlite3 13 is built for Node-API 10, which Node 20 lacks: it would crash on the first
// database opened. On such a machine `npm install` fetched Node 24 into the checkout; run on that
// (CONTRIBUTING.md, "Set-up"), else say what to do.
if (!thisNodeCanRun()) {
  const node = modernNode();
  if (!node) {
    process.stderr.write(`calbridge: needs Node.js 22 or newer (24 is what the image runs); this is ${process.version}. Run npm install in the checkout to fetch Node 24 into it, or install Node 24 LTS.\n`);
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
