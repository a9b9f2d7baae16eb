#!/usr/bin/env node
// `npm run build`, and `prepare` (run by `npm install` and `npm ci`, so no build step can be
// forgotten): builds src/ into dist/, the plain JavaScript that the daemon, the CLI and the image run,
// so no transpiler runs at start.
//
// dist/ is a bundle (esbuild): src/cli.ts and the packages it imports, minified, in one entry and
// chunks that load when first needed (a command's code, the demo, the status page's QR encoder). One
// file in place of some 400 saves what Node's module loader keeps for each, and minified sources are
// what V8 holds in its heap for as long as the process lives: an idle daemon is measurably smaller
// (BENCHMARKS.md, "Footprint"). Names are not minified, so a stack trace names functions as src/
// does, and dist/*.js.map maps it back to src/ files and lines (`node --enable-source-maps bin/calbridge.js`).
// Left out of the bundle, loaded from node_modules at run time: better-sqlite3 (a native addon) and
// Google's client libraries (CommonJS, required on first use: src/google/library.ts).
// Types are checked by `npm run typecheck`, not here, which keeps a build under a second.
//
// Where the build toolchain is absent (`npm ci --omit=dev` over an already built dist/, as the image
// does) there is nothing to build with: an existing dist/ is kept, a missing one is an error.
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { fetchModernNode } from './modern-node.js';

// A machine whose own Node is too old to run calbridge gets Node 24 into the checkout first.
fetchModernNode();

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
// Beside dist/, at the same depth, so the source maps' relative paths to src/ hold once it is renamed.
const staging = join(root, '.dist-building');

let esbuild;
try {
  esbuild = createRequire(join(root, 'package.json'))('esbuild');
} catch {
  if (existsSync(join(dist, 'cli.js'))) process.exit(0);
  console.error('calbridge build: dist/ is missing and esbuild is not installed; run `npm install` (with dev dependencies) first.');
  process.exit(1);
}

// Node's built-in modules are required, not imported. An ES module import of one makes Node build its
// ES module facade, which reads every export; node:http's include WebSocket, CloseEvent and
// MessageEvent, lazy getters that load Node's fetch implementation (undici): megabytes resident for
// the life of the process, in a daemon that never calls fetch() (BENCHMARKS.md, "Footprint"). require()
// hands back the module object and reads nothing. (The banner below gives each chunk its `require`.)
// A dynamic import() stays Node's own: it runs only when that code is first needed, and the shim's
// chunk would export the module as a default alone, without its named exports.
const requireBuiltins = {
  name: 'require-builtins',
  setup(build) {
    build.onResolve({ filter: /^node:/ }, (args) =>
      // The shim's own require() is left to Node; every static import of a built-in goes through the shim.
      args.namespace === 'builtin-by-require' || args.kind === 'dynamic-import'
        ? { path: args.path, external: true }
        : { path: args.path, namespace: 'builtin-by-require' },
    );
    build.onLoad({ filter: /.*/, namespace: 'builtin-by-require' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

rmSync(staging, { recursive: true, force: true });
try {
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['src/cli.ts'],
    outdir: staging,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    // Whitespace and syntax, not names: a stack trace names functions as src/ does, with no helper
    // call to keep each name (esbuild's keepNames runs one whenever a closure is made, on every request).
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'linked',
    external: ['better-sqlite3', '@googleapis/calendar', 'google-auth-library'],
    // Some bundled packages are CommonJS and require Node's built-ins; an ES module has no `require`.
    banner: {
      js: "import { createRequire as __calbridgeRequire } from 'node:module'; const require = __calbridgeRequire(import.meta.url);",
    },
    logLevel: 'warning',
    plugins: [requireBuiltins],
  });
} catch {
  process.exit(1); // esbuild has printed what and where
}
// esbuild escapes what is not ASCII, except inside a /u regular expression. One character there beyond
// Latin-1 makes V8 hold that whole chunk's source at two bytes a character, for the life of the
// process: write it as \uXXXX in src/ instead.
for (const name of readdirSync(staging).filter((n) => n.endsWith('.js'))) {
  const code = readFileSync(join(staging, name), 'utf8');
  const at = code.search(/[^\x00-\xff]/);
  if (at < 0) continue;
  console.error(
    `calbridge build: dist/${name} has a character beyond Latin-1 (write it as \\uXXXX in src/): …${code.slice(Math.max(0, at - 60), at + 20)}…`,
  );
  process.exit(1);
}

// Every chunk sits in dist/ itself, so the code that opens the database finds its SQL in dist/migrations.
cpSync(join(root, 'src', 'store', 'migrations'), join(staging, 'migrations'), { recursive: true });

// Swapped in whole: chunk names carry content hashes, and a chunk of an older build must not linger.
rmSync(dist, { recursive: true, force: true });
renameSync(staging, dist);
