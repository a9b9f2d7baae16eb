// scripts/modern-node.js runs the tests, benches and the simulator (`npm test`, `npm run bench`): a
// file it runs may import it in turn (the bench reads the runtime settings from it), and must run.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const launcher = join(import.meta.dirname, '..', '..', 'scripts', 'modern-node.js');
const dir = mkdtempSync(join(tmpdir(), 'calbridge-modern-node-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('node scripts/modern-node.js <file>', () => {
  it('runs a file that imports the launcher itself, with its arguments, to its end', () => {
    const file = join(dir, 'reads-settings.mjs');
    writeFileSync(
      file,
      `import { runtimeSettings } from ${JSON.stringify(pathToFileURL(launcher).href)};\n` +
        `await new Promise((r) => setTimeout(r, 10));\n` +
        `process.stdout.write(JSON.stringify({ args: process.argv.slice(2), flags: runtimeSettings().flags }));\n`,
    );
    const out = execFileSync(process.execPath, [launcher, file, 'one', 'two'], { encoding: 'utf8', timeout: 20_000 });
    const got = JSON.parse(out) as { args: string[]; flags: string[] };
    expect(got.args).toEqual(['one', 'two']);
    expect(got.flags).toContain('--optimize-for-size');
  });

  it("ends with the file's error and a failing status when the file throws", () => {
    const file = join(dir, 'throws.mjs');
    writeFileSync(file, `throw new Error('the file failed on purpose');\n`);
    const run = spawnSync(process.execPath, [launcher, file], { encoding: 'utf8', timeout: 20_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('the file failed on purpose');
  });
});
