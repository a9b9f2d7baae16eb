// `npm run soak -- --runs 1000`: that many random histories of the model test (test/model), one
// seed each, one after the other; a failing one is shrunk and its report printed. Ends with a
// summary: runs, steps played, failures and their seeds. `--seed N` starts at N (default 1: the CI
// seeds come first), `--write` puts the summary into BENCHMARKS.md, `--log` prints every history.
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { runHistory } from '../test/model/history.ts';

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
const started = Date.now();
const failures: { seed: number; report: string }[] = [];
let steps = 0;
for (let seed = first; seed < first + runs; seed++) {
  const outcome = await runHistory(seed, process.argv.includes('--log') ? { log: (lines) => process.stdout.write(`${lines.join('\n')}\n`) } : {});
  steps += outcome.steps;
  if (!outcome.ok) {
    failures.push({ seed, report: outcome.report ?? '' });
    process.stdout.write(`\n${outcome.report}\n\n`);
  }
  const done = seed - first + 1;
  process.stdout.write(`seed ${seed}: ${outcome.ok ? 'ok' : 'FAILED'}, ${outcome.steps} steps, ${(outcome.ms / 1000).toFixed(1)} s  [${done}/${runs}, ${failures.length} failed]\n`);
}

const minutes = (Date.now() - started) / 60_000;
const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
const summary = [
  `${runs} histories (seeds ${first} to ${first + runs - 1}), ${steps} steps in all, ${failures.length} failed` +
    `${failures.length ? `: seeds ${failures.map((f) => f.seed).join(', ')}` : ''}; ${minutes.toFixed(1)} minutes on ${cpus().length} cores, ${when} UTC.`,
];
process.stdout.write(`\nsoak: ${summary[0]}\n`);

if (process.argv.includes('--write')) {
  const section = [
    '## Convergence soak',
    '',
    'Written by `npm run soak -- --runs N --write`: random histories of the model test (test/model/README.md), each played against',
    'the booking simulator, the fake Google and the daemon, then settled and checked (agreement, quiet for 20 s of schedule,',
    'reschedules, people\'s moves).',
    '',
    ...summary,
  ].join('\n');
  const text = readFileSync('BENCHMARKS.md', 'utf8');
  const at = text.indexOf('## Convergence soak');
  const next = at < 0 ? -1 : text.indexOf('\n## ', at + 1);
  const updated = at < 0 ? `${text.trimEnd()}\n\n${section}\n` : `${text.slice(0, at)}${section}\n${next < 0 ? '' : text.slice(next)}`;
  writeFileSync('BENCHMARKS.md', updated);
}
process.exit(failures.length ? 1 : 0);
