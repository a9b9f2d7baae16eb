#!/usr/bin/env node
// `npm run build`, and `prepare` (run by `npm install` and `npm ci`, so no build step can be
// forgotten): compiles src/ to plain JavaScript in dist/, so the daemon, the CLI and the image run no
// transpiler, and copies the files the code reads at run time (the SQL migrations).
// Each file is transpiled on its own (TypeScript's transpileModule: types are erased, `./x.ts` imports
// become `./x.js`); types are checked by `npm run typecheck`, not here, which keeps a build a few
// seconds. Only files newer than their output are redone.
// Where the TypeScript toolchain is absent (`npm ci --omit=dev` over an already built dist/, as the
// image does) there is nothing to compile with: an existing dist/ is kept, a missing one is an error.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { fetchModernNode } from './modern-node.js';

// A machine whose own Node is too old to run calbridge gets Node 24 into the checkout first.
fetchModernNode();

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const dist = join(root, 'dist');

let ts;
try {
  ts = createRequire(join(root, 'package.json'))('typescript');
} catch {
  if (existsSync(join(dist, 'cli.js'))) process.exit(0);
  console.error('calbridge build: dist/ is missing and TypeScript is not installed; run `npm install` (with dev dependencies) first.');
  process.exit(1);
}

const { config } = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
const { options } = ts.convertCompilerOptionsFromJson(
  { ...config.compilerOptions, module: 'ESNext', moduleResolution: 'Bundler', noEmit: false, rewriteRelativeImportExtensions: true, removeComments: true, sourceMap: false, declaration: false },
  root,
);

/** Runtime files under dir: TypeScript sources (tests excluded) and the SQL the code reads. */
function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    if (e.name.endsWith('.test.ts')) return [];
    return e.name.endsWith('.ts') || e.name.endsWith('.sql') ? [path] : [];
  });
}

const outputOf = (file) => join(dist, relative(src, file)).replace(/\.ts$/, '.js');
const wanted = new Set();
let failed = false;
for (const file of sources(src)) {
  const out = outputOf(file);
  wanted.add(out);
  if (existsSync(out) && statSync(out).mtimeMs >= statSync(file).mtimeMs) continue;
  mkdirSync(dirname(out), { recursive: true });
  if (file.endsWith('.sql')) {
    copyFileSync(file, out);
    continue;
  }
  const result = ts.transpileModule(readFileSync(file, 'utf8'), { compilerOptions: options, fileName: file, reportDiagnostics: true });
  for (const d of result.diagnostics ?? []) {
    failed = true;
    console.error(`${relative(root, file)}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
  }
  writeFileSync(out, result.outputText);
}

// A source that was removed or renamed must not live on in dist/.
function prune(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      prune(path);
      if (readdirSync(path).length === 0) rmSync(path, { recursive: true });
    } else if (!wanted.has(path)) rmSync(path);
  }
}
prune(dist);
if (failed) process.exit(1);
