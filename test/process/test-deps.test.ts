// `npm test` on a fresh Debian machine: its pretest (scripts/test-deps.js) installs what the tests
// drive for real when it can, and otherwise says in one sentence what to install, never leaving a
// newcomer to decode a failing browser or CalDAV test.
import { afterEach, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

it('runs before npm test', () => {
  const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
  expect(scripts.pretest).toBe('node scripts/test-deps.js');
});

it('is quiet when everything is there', () => {
  const run = spawnSync(process.execPath, ['scripts/test-deps.js'], { encoding: 'utf8' });
  expect(run).toMatchObject({ status: 0, stderr: '' });
});

it('names what is missing and the command that installs it when it cannot install (no apt-get here)', () => {
  // A PATH with neither radicale, vdirsyncer nor apt-get on it.
  const empty = mkdtempSync(join(tmpdir(), 'calbridge-path-'));
  dirs.push(empty);
  const run = spawnSync(process.execPath, ['scripts/test-deps.js'], { encoding: 'utf8', env: { ...process.env, PATH: empty } });
  expect(run.status).toBe(1);
  const lines = run.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(
    /^calbridge tests: radicale and vdirsyncer are missing \(the tests drive them for real\) and cannot be installed from here \(there is no apt-get here\); install the Debian packages with `sudo apt-get install -y radicale vdirsyncer` and run npm test again\.$/,
  );
});
