#!/usr/bin/env -S node --max-semi-space-size=1 --optimize-for-size
// The #! line gives Node calbridge's V8 flags (RUNTIME_FLAGS in scripts/modern-node.js says why each).
// The image's entry and `npm start` run with them; `node bin/calbridge.js` runs without, the same program.
// The entry users, service managers and the image run: plain JavaScript compiled from src/ into dist/
// by `npm install` (prepare → scripts/build.js), so no transpiler runs at start, and SIGTERM reaches
// calbridge itself, not a wrapper.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { RUNTIME_FLAGS, modernNode, runOn, thisNodeCanRun } from '../scripts/modern-node.js';

// better-sqlite3 13 is built for Node-API 10, which Node 20 lacks: it would crash on the first
// database opened. On such a machine `npm install` fetched Node 24 into the checkout; run on that
// (README, "Node.js"), else say what to do.
if (!thisNodeCanRun()) {
  const node = modernNode();
  if (!node) {
    process.stderr.write(`calbridge: needs Node.js 22 or newer (24 is what the image runs); this is ${process.version}. Run npm install in the checkout to fetch Node 24 into it, or install Node 24 LTS.\n`);
    process.exit(1);
  }
  runOn(node, RUNTIME_FLAGS, fileURLToPath(import.meta.url), process.argv.slice(2));
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
