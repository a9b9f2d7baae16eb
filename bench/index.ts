// `npm run bench`: every benchmark in one run, each against a baseline measured in the same run
// (this machine is shared and noisy); `npm run bench -- <part of a section's name>...` runs those
// only. Each section measured replaces its own in BENCHMARKS.md, under a line with its date,
// machine and Node version; the others stay as they are.
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
import { runAccountsBench } from './accounts-bench.ts';
import { benchmarksFile, withSection } from './sections.ts';

const sections: [string, () => Promise<string>][] = [
  ['whole daemon', runDaemonBench],
  ['webhook acknowledgement', runWebhookBench],
  ['ICS feeds', runFeedsBench],
  ['Google writes', runGoogleBench],
  ['CalDAV writes', runCalDavBench],
  ['Microsoft writes', runMicrosoftBench],
  ['readyz flood', runReadyzFloodBench],
  ['footprint', runFootprintBench],
  ['Named accounts', runAccountsBench],
];

const only = process.argv.slice(2);
const machine = `${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} cores), ${Math.round(totalmem() / 2 ** 30)} GiB, ${platform()} ${release()}, Node ${process.version}`;
const when = () => `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`;

// Sections no run writes (the soak's, notes kept by hand) stay as they are; a new file starts with this head.
const HEAD =
  '# Benchmarks\n\nEach figure is compared with a baseline measured in the same run, since absolute numbers on a shared machine drift.\n';
const command = only.length ? `npm run bench -- ${only.map((o) => JSON.stringify(o)).join(' ')}` : 'npm run bench';
let text = benchmarksFile() || HEAD;
const ran: string[] = [];
for (const [name, run] of sections) {
  if (only.length && !only.some((o) => name.includes(o))) continue;
  process.stderr.write(`bench: ${name}...\n`);
  const started = when();
  const result = await run();
  // A run may write more than one section: each is put in its place, under when and where it was measured.
  for (const section of result.split(/\n(?=## )/)) {
    const [heading, ...rest] = section.split('\n');
    const note = `Measured by \`${command}\` from ${started}; machine: ${machine}.`;
    text = withSection(text, [heading, '', note, ...rest].join('\n'));
    ran.push(section);
  }
}
writeFileSync('BENCHMARKS.md', `${text.trimEnd()}\n`);
process.stdout.write(`${ran.join('\n\n')}\n`);
process.exit(0);
