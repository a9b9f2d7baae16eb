// `npm run bench`: every benchmark in one run, each against a baseline measured in the same run
// (this machine is shared and noisy), written to BENCHMARKS.md with the machine and the date.
import { writeFileSync } from 'node:fs';
import { cpus, totalmem, platform, release } from 'node:os';
import { runWebhookBench } from './webhook-bench.ts';
import { runFeedsBench } from './feeds-bench.ts';
import { runGoogleBench } from './google-bench.ts';
import { runCalDavBench } from './caldav-bench.ts';
import { runMicrosoftBench } from './microsoft-bench.ts';
import { runReadyzFloodBench } from './readyz-flood-bench.ts';
import { runDaemonBench } from './daemon-bench.ts';
import { runFootprintBench } from './footprint-bench.ts';
import { benchmarksFile, soakSection } from './soak-section.ts';

const sections: [string, () => Promise<string>][] = [
  ['whole daemon', runDaemonBench],
  ['webhook acknowledgement', runWebhookBench],
  ['ICS feeds', runFeedsBench],
  ['Google writes', runGoogleBench],
  ['CalDAV writes', runCalDavBench],
  ['Microsoft writes', runMicrosoftBench],
  ['readyz flood', runReadyzFloodBench],
  ['footprint', runFootprintBench],
];

const only = process.argv.slice(2);
const machine = `${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} cores), ${Math.round(totalmem() / 2 ** 30)} GiB, ${platform()} ${release()}, Node ${process.version}`;
const out = [
  '# Benchmarks',
  '',
  `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
  `Machine: ${machine}.`,
  'Each figure is compared with a baseline measured in the same run, since absolute numbers on a shared machine drift.',
  '',
];
for (const [name, run] of sections) {
  if (only.length && !only.some((o) => name.includes(o))) continue;
  process.stderr.write(`bench: ${name}...\n`);
  out.push(await run(), '');
}
const soak = soakSection(benchmarksFile());
if (soak) out.push(soak, '');
writeFileSync('BENCHMARKS.md', `${out.join('\n').trimEnd()}\n`);
process.stdout.write(`${out.join('\n')}\n`);
process.exit(0);
