// The CLI in process (the real composition root): its exit status and what it printed.
import { runCli } from '../../src/cli.ts';

export interface CliResult {
  code: number;
  /** stdout and stderr, each as one text. */
  out: string;
  err: string;
  /** stdout, line by line. */
  lines: string[];
}

export async function cli(...argv: string[]): Promise<CliResult> {
  const lines: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (l) => void lines.push(l), err: (l) => void err.push(l), isTty: false });
  return { code, out: lines.join('\n'), err: err.join('\n'), lines };
}
