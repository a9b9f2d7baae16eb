import type { Command, CommandIo } from './command.ts';
import type { Config } from '../config/schema.ts';
import type { JobName, Progress } from '../jobs/job.ts';

/** How long `sync` waits for a job that `serve` is running at the same moment. */
const WAIT_FOR_SERVE_MS = 120_000;
/** Rounds of steps woken by later steps; each round answers the one before, so a few suffice. */
const MAX_FOLLOW_UPS = 3;

export const syncCommand: Command = {
  name: 'sync',
  summary: 'one full pass now: poll, apply, push pending Google, CalDAV and Outlook writes, one reverse-sync round of each',
  help: [
    'Prints a summary per step (a progress bar on a terminal). Exit status: 0 ok, 1 some items failed.',
    'Safe to run while `serve` runs: each step waits for the other process to finish the same step.',
    'A pass that would remove more than a breaker share (poll.breaker_share, google.breaker_share, caldav.breaker_share, microsoft.breaker_share) of',
    'the appointments or events stops and reports instead, and more than poll.max_gone_per_hour',
    'appointments becoming gone in an hour are held; --allow-mass-changes lets this one pass through.',
    '--dry-run lists what the pass would do (booking changes to store, calendar writes, reschedules,',
    'feeds that change) and writes nothing anywhere: not the database, not Google, not the booking',
    'service. It reads them as a pass does. Exit status: 0, or 1 when a step could not be planned.',
  ].join('\n'),
  options: {
    'dry-run': { type: 'boolean', description: 'list what the pass would do; write nothing anywhere' },
    'allow-mass-changes': { type: 'boolean', description: 'turn the mass-change breakers off for this one pass' },
  },
  async run({ values, io, verbose, loadConfig, openRuntime }) {
    const { dryRunText } = await import('./sync-dry-run.ts');
    const { commandLogger } = await import('../log.ts');
    const { configuredSecrets } = await import('../http/status-page/redact.ts');
    const config = loadConfig();
    if (values['dry-run']) {
      const { dryRunPass } = await import('../wiring/dry-run.ts'); // loaded only when asked for
      const run = await dryRunPass(values['allow-mass-changes'] ? withoutBreakers(config) : config, {
        log: commandLogger(verbose, configuredSecrets(config)),
      });
      for (const line of dryRunText(run, config)) io.out(line);
      return run.steps.some((s) => s.result.status === 'failed') ? 1 : 0;
    }
    const runtime = await openRuntime(values['allow-mass-changes'] ? withoutBreakers(config) : config);
    let failed = false;
    // The widest job name sets the column, so every status and summary starts at the same place.
    const width = Math.max(16, ...runtime.parts.flatMap((p) => (p.jobs ?? []).map((j) => j.name.length)));
    const { scheduler } = runtime;
    const step = async (name: JobName) => {
      const bar = progressBar(io, name);
      let result = await scheduler.runNow(name, { waitMs: WAIT_FOR_SERVE_MS, progress: bar.update });
      while (result.more && result.status === 'success') {
        result = await scheduler.runNow(name, { waitMs: WAIT_FOR_SERVE_MS, progress: bar.update });
      }
      bar.done();
      failed ||= result.status === 'failed' || (result.failed ?? 0) > 0;
      io.out(`${name.padEnd(width)} ${result.status.padEnd(8)} ${result.summary ?? ''}`.trimEnd());
    };
    // Every step runs here, in order, and says what it did; a step that wakes an earlier one (a
    // move put back needs the writer again) gets that one run again after the pass.
    scheduler.holdWakes();
    const inSync = new Set(runtime.parts.flatMap((p) => (p.jobs ?? []).filter((j) => j.inSync !== false).map((j) => j.name)));
    try {
      for (const name of inSync) await step(name);
      for (let round = 0; round < MAX_FOLLOW_UPS; round++) {
        const again = scheduler.takeWoken().filter((n) => inSync.has(n));
        if (again.length === 0) break;
        for (const name of again) await step(name);
      }
    } finally {
      await runtime.close();
    }
    if (runtime.parts.length === 0) io.out('nothing to do: no parts are configured');
    return failed ? 1 : 0;
  },
};

/** An account's own breaker share, if it gives one, off too. */
const open = <A extends { breaker_share?: number | undefined }>(a: A): A => ({ ...a, breaker_share: 1 });

/** A breaker share of 1 means no pass can exceed it, and no rate exceeds Infinity: the breakers are off. */
export function withoutBreakers(config: Config): Config {
  return {
    ...config,
    poll: { ...config.poll, breaker_share: 1, max_gone_per_hour: Number.POSITIVE_INFINITY },
    google: config.google && { ...config.google, breaker_share: 1, accounts: config.google.accounts?.map(open) },
    caldav: config.caldav && { ...config.caldav, breaker_share: 1, accounts: config.caldav.accounts?.map(open) },
    microsoft: config.microsoft && { ...config.microsoft, breaker_share: 1, accounts: config.microsoft.accounts?.map(open) },
  };
}

/** A one-line bar redrawn in place on a terminal; nothing at all when stdout is not a TTY. */
function progressBar(io: CommandIo, label: string): { update: Progress; done(): void } {
  let drawn = false;
  return {
    update: (done, total) => {
      if (!io.isTty) return;
      const width = 30;
      // A listing does not know its total until the last page: then a count, not a bar.
      const bar =
        total > 0
          ? `[${'#'.repeat(Math.round((Math.min(done, total) / total) * width)).padEnd(width)}] ${done}/${total}`
          : `${done} so far`;
      process.stdout.write(`\r\x1b[2K${label.padEnd(16)} ${bar}`);
      drawn = true;
    },
    done: () => {
      if (drawn) process.stdout.write('\r\x1b[2K');
    },
  };
}
