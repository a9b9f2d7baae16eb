import { configPath, formatProblem, loadConfigFile } from '../config/load.ts';
import { eventWarnings, fileProblems } from '../config/files.ts';
import { maskedConfig } from '../config/mask.ts';
import type { Command } from './command.ts';

export const checkConfigCommand: Command = {
  name: 'check-config',
  summary: 'validate the config and print every problem with its YAML path',
  help: 'Also warns when a Google service account key file is missing or is not one. Exit status: 0 valid, 2 invalid. With --print, the resolved config is shown with secrets masked.',
  options: { print: { type: 'boolean', description: 'print the resolved config (secrets masked)' } },
  async run({ values, io }) {
    const file = configPath(values.config as string | undefined);
    const { config } = loadConfigFile(file); // a ConfigError becomes exit 2 with every problem listed
    io.out(`${file}: valid.`);
    // Files may exist only where calbridge runs (secrets mounted in production): warn, do not fail.
    for (const p of fileProblems(config)) io.err(`warning: ${formatProblem(p)}; it must exist where calbridge runs`);
    for (const p of eventWarnings(config)) io.err(`warning: ${formatProblem(p)}`);
    if (values.print) io.out(JSON.stringify(maskedConfig(config), null, 2));
    return 0;
  },
};
