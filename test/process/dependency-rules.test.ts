// The arrows of .dependency-cruiser.cjs hold: a copy of src/ with one wrong import planted for each
// rule is checked by `depcruise` as CI runs it, and every planted import is reported under the rule
// it breaks, and nothing else of the copy is blamed on a planted file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const REPO = resolve(import.meta.dirname, '../..');

/** One file planted in the copy per rule, each with the import the rule forbids. */
const PLANTED: Record<string, { file: string; source: string }> = {
  'core-is-pure': {
    file: 'src/core/planted-clock.ts',
    source: "import type { Services } from '../wiring/services.ts';\nexport type S = Services;\n",
  },
  'use-cases-stay-inside': {
    file: 'src/feeds/planted-route.ts',
    source: "import { createApp } from '../http/app.ts';\nexport const app = createApp;\n",
  },
  'feeds-need-no-calendar-adapter': {
    file: 'src/feeds/planted-google.ts',
    source: "import type { CalendarApi } from '../google/port.ts';\nexport type Api = CalendarApi;\n",
  },
  'status-document-stands-alone': {
    file: 'src/status/planted-store.ts',
    source: "import type { LinkStore } from '../store/link-store.ts';\nexport type Links = LinkStore;\n",
  },
  'adapters-stand-alone': {
    file: 'src/caldav/planted-google.ts',
    source: "import type { CalendarApi } from '../google/port.ts';\nexport type Api = CalendarApi;\n",
  },
  'adapters-stay-inside': {
    file: 'src/google/planted-wiring.ts',
    source: "import { feedRoutes } from '../http/feed-routes.ts';\nexport const routes = feedRoutes;\n",
  },
  'shared-helpers-stand-alone': {
    file: 'src/net/planted-booking.ts',
    source: "import type { BookingApi } from '../booking/port.ts';\nexport type Api = BookingApi;\n",
  },
  'simulators-stand-alone': {
    file: 'src/booking/simulator/planted-store.ts',
    source: "import { AppointmentStore } from '../../store/appointment-store.ts';\nexport const Store = AppointmentStore;\n",
  },
  'store-stays-inside': {
    file: 'src/store/planted-feed.ts',
    source: "import { FeedCache } from '../feeds/feed-cache.ts';\nexport const Cache = FeedCache;\n",
  },
  'database-handle-stays-in-store': {
    file: 'src/http/planted-db.ts',
    source: "import type { Db } from '../store/db.ts';\nexport type Handle = Db;\n",
  },
  'only-store-opens-sqlite': {
    file: 'src/store-like/planted-sqlite.ts',
    source: "import Database from 'better-sqlite3';\nexport const open = () => new Database(':memory:');\n",
  },
  'only-google-talks-to-google': {
    file: 'src/sync/planted-auth.ts',
    source: "import { OAuth2Client } from 'google-auth-library';\nexport const Client = OAuth2Client;\n",
  },
  'wiring-is-the-root': {
    file: 'src/jobs/planted-runtime.ts',
    source: "import { buildRuntime } from '../wiring/runtime.ts';\nexport const build = buildRuntime;\n",
  },
  'no-cycles': { file: 'src/core/planted-a.ts', source: "import { b } from './planted-b.ts';\nexport const a = (): number => b() + 1;\n" },
};
const CYCLE_PARTNER = {
  file: 'src/core/planted-b.ts',
  source: "import { a } from './planted-a.ts';\nexport const b = (): number => (Math.random() > 2 ? a() : 0);\n",
};

interface Violation {
  rule: string;
  from: string;
}

let dir: string;
let run: { code: number | null; output: string; violations: Violation[] };

function depcruise(cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const bin = join(REPO, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
    // What `npm run lint:deps` runs: the `err` report, one line per broken rule, and the exit status.
    const child = spawn(process.execPath, [bin, 'src', '--config', '.dependency-cruiser.cjs'], { cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', fail);
    child.once('close', (code) => done({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'calbridge-arrows-'));
  cpSync(join(REPO, 'src'), join(dir, 'src'), { recursive: true });
  cpSync(join(REPO, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
  cpSync(join(REPO, 'tsconfig.json'), join(dir, 'tsconfig.json'));
  cpSync(join(REPO, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
  for (const { file, source } of [...Object.values(PLANTED), CYCLE_PARTNER]) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), source);
  }
  const result = await depcruise(dir);
  // `  error <rule>: <from> → <to>` (a cycle lists its modules on the lines after).
  const violations = [...result.stdout.matchAll(/^\s*error (\S+): (\S+) →/gm)].map(([, rule, from]) => ({ rule: rule!, from: from! }));
  run = { code: result.code, output: result.stdout + result.stderr, violations };
}, 60_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the dependency rules', () => {
  it('fail the check (a non-zero exit, as CI sees it) when a wrong import is planted', () => {
    expect(run.code, run.output).not.toBe(0);
    expect(run.violations.length, run.output).toBeGreaterThanOrEqual(Object.keys(PLANTED).length);
  });

  it.each(Object.entries(PLANTED))('%s names the planted import that breaks it', (rule, { file }) => {
    const found = run.violations.filter((v) => v.from === file || (rule === 'no-cycles' && v.from === CYCLE_PARTNER.file));
    expect(
      found.map((v) => v.rule),
      run.output,
    ).toContain(rule);
  });
});
