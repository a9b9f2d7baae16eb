// `npm run soak -- --runs 1000`: that many random histories of the model test (test/model), one
// seed each, one after the other; a failing one is shrunk and its report printed. Ends with a
// summary: runs, steps played, failures and their seeds. `npm run soak -- --help` lists the options.
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { runHistory } from '../test/model/history.ts';
import { benchmarksFile, SOAK_HEADING, withSection } from './sections.ts';

const HELP = `npm run soak -- [options]
  --runs N             histories to play, one seed each (default 1)
  --seed N             the first seed (default 1: the CI seeds come first)
  --shrink-seconds N   time a failing history may spend shrinking (default 120; 0 reports it unshrunk)
  --min-steps N        generate at least N steps per history (default: up to 100); steps whose
                       precondition fails are skipped, so the played count is printed
  --bail               stop at the first failing history
  --write              put the summary into BENCHMARKS.md
  --log                print every history's steps
Exits 1 when any history broke a promise.
`;
if (process.argv.includes('--help')) {
  process.stdout.write(HELP);
  process.exit(0);
}

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : (process.argv[i + 1] ?? '');
}
function count(name: string, fallback: number): number {
  const raw = option(name);
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} takes a whole number, got "${raw}"`);
  return n;
}

const runs = count('runs', 1);
const first = count('seed', 1);
const shrinkMs = count('shrink-seconds', 120) * 1000;
const bail = process.argv.includes('--bail');
const minSteps = count('min-steps', 0);
const started = Date.now();
const failures: { seed: number; report: string }[] = [];
let steps = 0;
let played = 0;
let writesAfterAgreement = 0;
let learnedDeletions = 0;
for (let seed = first; seed < first + runs; seed++) {
  const log = process.argv.includes('--log') ? (lines: string[]) => process.stdout.write(`${lines.join('\n')}\n`) : undefined;
  const outcome = await runHistory(seed, { shrinkMs, minSteps, ...(log ? { log } : {}) });
  steps += outcome.steps;
  writesAfterAgreement += outcome.writesAfterAgreement;
  learnedDeletions += outcome.learnedDeletions;
  if (!outcome.ok) {
    failures.push({ seed, report: outcome.report ?? '' });
    process.stdout.write(`\n${outcome.report}\n\n`);
  }
  const done = ++played;
  process.stdout.write(
    `seed ${seed}: ${outcome.ok ? 'ok' : 'FAILED'}, ${outcome.steps} steps, ${(outcome.ms / 1000).toFixed(1)} s  [${done}/${runs}, ${failures.length} failed]\n`,
  );
  if (bail && failures.length) break;
}

const minutes = (Date.now() - started) / 60_000;
const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
const summary = [
  `${played} histories (seeds ${first} to ${first + played - 1}), ${steps} steps in all, ${failures.length} failed` +
    `${failures.length ? `: seeds ${failures.map((f) => f.seed).join(', ')}` : ''}; ${writesAfterAgreement} writes after agreement (and ${learnedDeletions} deletes that found a person's deletion no read had shown yet, not counted); ${minutes.toFixed(1)} minutes on ${cpus().length} cores, ${when} UTC.`,
];
process.stdout.write(`\nsoak: ${summary[0]}\n`);

if (process.argv.includes('--write')) {
  const section = [
    SOAK_HEADING,
    '',
    'Written by `npm run soak -- --runs N --write`: random histories of the model test (test/model/README.md), each played against',
    "the booking simulator, the fake Google and the daemon, then settled and checked (agreement, reschedules, people's moves, no",
    'wasted write). Writes after agreement count every write from the first moment everything a person sees agrees (watched after',
    'every job while settling) through 20 s of schedule after it. A failing history counts once; its seed replays it',
    '(`npm run soak -- --seed N`).',
    '',
    ...summary,
  ].join('\n');
  writeFileSync('BENCHMARKS.md', withSection(benchmarksFile(), section));
}
process.exit(failures.length ? 1 : 0);
