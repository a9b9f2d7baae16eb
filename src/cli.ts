// Argument parsing and dispatch. Errors are one sentence on stderr; --verbose adds the stack.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Config } from './config/schema.ts';
import { UserError, errorMessage } from './core/errors.ts';
import type { Command, CommandArgs, CommandIo, OptionSpec } from './commands/command.ts';
import { commands } from './commands/index.ts';
import { packageVersion } from './version.ts';

const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  config: { type: 'string', short: 'c', description: 'config file (default: $CALBRIDGE_CONFIG, else ./config.yaml)' },
  verbose: { type: 'boolean', short: 'v', description: 'show stack traces with errors' },
  help: { type: 'boolean', short: 'h', description: 'show this help' },
  version: { type: 'boolean', description: "print calbridge's version" },
};

const defaultIo: CommandIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  isTty: Boolean(process.stdout.isTTY),
  input: process.stdin,
};

/** Options that take a value, by every spelling: their value is never a command word. */
function valueOptions(): Set<string> {
  const names = new Set<string>();
  for (const options of [GLOBAL_OPTIONS, ...commands.map((c) => c.options ?? {})]) {
    for (const [name, o] of Object.entries(options)) {
      if (o.type !== 'string') continue;
      names.add(`--${name}`);
      if (o.short) names.add(`-${o.short}`);
    }
  }
  return names;
}

/** Indexes of the words in argv that are not options or option values. */
function wordIndexes(argv: string[]): number[] {
  const takesValue = valueOptions();
  const found: number[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (a === '--') break;
    if (a.startsWith('-')) {
      if (takesValue.has(a)) i++; // `--config x`: skip x (but not `--config=x`)
      continue;
    }
    found.push(i);
  }
  return found;
}

/** Finds the command named by the first one or two words (`status`, `webhooks list`), anywhere among the options. */
function findCommand(argv: string[]): { command: Command | undefined; rest: string[]; words: string[] } {
  const at = wordIndexes(argv).slice(0, 2);
  const words = at.map((i) => argv[i] ?? '');
  for (const n of [2, 1]) {
    const name = words.slice(0, n).join(' ');
    const command = commands.find((c) => c.name === name);
    if (command) {
      const drop = new Set(at.slice(0, n));
      return { command, rest: argv.filter((_a, i) => !drop.has(i)), words };
    }
  }
  return { command: undefined, rest: argv, words };
}

/** `webhooks` alone, or with --help: the commands of that group. */
function groupHelp(word: string | undefined): string | undefined {
  const members = commands.filter((c) => word !== undefined && c.name.startsWith(`${word} `));
  if (members.length === 0) return undefined;
  const width = Math.max(...members.map((c) => c.name.length));
  return [
    `usage: calbridge ${word} <command> [options]`,
    '',
    'commands:',
    ...members.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
  ].join('\n');
}

export function usage(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'calbridge: keeps a booking service, Google Calendar and ICS feeds in step.',
    '',
    'usage: calbridge <command> [options]     (npm start -- <command> [options])',
    '',
    'commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'options for every command:',
    ...optionLines(GLOBAL_OPTIONS),
    '',
    'Run `calbridge <command> --help` for the options of one command.',
  ].join('\n');
}

function optionLines(options: Record<string, OptionSpec>): string[] {
  return Object.entries(options).map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : '    '}--${name}${o.type === 'string' ? ' <value>' : ''}`;
    return `  ${flag.padEnd(28)} ${o.description}`;
  });
}

export function commandHelp(c: Command): string {
  return [
    `usage: calbridge ${c.name}${(c.args ?? []).map((a) => ` ${a}`).join('')} [options]`,
    '',
    c.summary,
    ...(c.help ? ['', c.help] : []),
    '',
    'options:',
    ...optionLines({ ...(c.options ?? {}), ...GLOBAL_OPTIONS }),
  ].join('\n');
}

export async function runCli(argv: string[], io: CommandIo = defaultIo): Promise<number> {
  // Before anything else: a version question needs no config, and `--version` alone is not `serve`.
  if (argv.includes('--version')) {
    io.out(packageVersion());
    return 0;
  }
  const wantsHelp = argv.includes('--help') || argv.includes('-h');
  if (argv[0] === 'help') {
    io.out(groupHelp(argv[1]) ?? usage());
    return 0;
  }
  // `npm start` with no command is `serve` (docs/reference/commands.md), options or not: `calbridge --config x`.
  const found = findCommand(argv);
  const { command, rest, words } = found.command || found.words.length > 0 || wantsHelp ? found : findCommand(['serve', ...argv]);
  if (!command) {
    const group = groupHelp(words[0]);
    if (group) {
      (wantsHelp ? io.out : io.err)(group);
      return wantsHelp ? 0 : 2;
    }
    if (wantsHelp && words.length === 0) {
      io.out(usage());
      return 0;
    }
    io.err(`calbridge: unknown command "${words.join(' ')}"; run \`calbridge --help\` for the list.`);
    return 2;
  }
  const options = { ...(command.options ?? {}), ...GLOBAL_OPTIONS } as NonNullable<ParseArgsConfig['options']>;
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: rest, options, allowPositionals: true, strict: true }) as {
      values: Record<string, string | boolean | undefined>;
      positionals: string[];
    });
  } catch (e) {
    io.err(`calbridge ${command.name}: ${errorMessage(e).replace(/\. To specify.*$/, '')}; see --help.`);
    return 2;
  }
  if (values.help) {
    io.out(commandHelp(command));
    return 0;
  }
  const allowed = command.args?.length ?? 0;
  if (positionals.length > allowed) {
    io.err(`calbridge ${command.name}: unexpected argument "${positionals[allowed]}"; see --help.`);
    return 2;
  }
  const verbose = Boolean(values.verbose);
  // Loaded only now that a command runs: the config reader (zod, yaml) and the logger (pino) are most
  // of what `calbridge --help` would otherwise load.
  const configModule = await import('./config/load.ts');
  const { commandLogger } = await import('./log.ts');
  const { configuredSecrets } = await import('./http/status-page/redact.ts');
  const { secretScrubber } = await import('./log.ts');
  // Every line the command prints passes the masking of the logs: each secret of the config read,
  // wherever an upstream echoed it (an error body quoting our request), and any URL's user and
  // password. `feeds` prints its feed URLs on purpose, feed tokens in them.
  const secrets = new Set<string>();
  let scrub = secretScrubber([]);
  const protect = (config: Config): Config => {
    const shown = new Set(command.showsFeedTokens ? config.feeds.map((f) => f.token) : []);
    for (const s of configuredSecrets(config)) if (!shown.has(s)) secrets.add(s);
    scrub = secretScrubber([...secrets]);
    return config;
  };
  const mask = (line: string) => (scrub ? scrub(line) : line);
  const masked: CommandIo = { ...io, out: (line) => io.out(mask(line)), err: (line) => io.err(mask(line)) };
  const loadConfig = (): Config =>
    protect(configModule.loadConfigFile(configModule.configPath(values.config as string | undefined)).config);
  const args: CommandArgs = {
    values,
    positionals,
    io: masked,
    verbose,
    loadConfig,
    protect,
    openRuntime: async (config) => {
      const { buildRuntime } = await import('./wiring/runtime.ts'); // loaded only by commands that need it
      const loaded = protect(config ?? loadConfig());
      return buildRuntime(loaded, { log: commandLogger(verbose, configuredSecrets(loaded)) });
    },
  };
  try {
    return await command.run(args);
  } catch (e) {
    return reportError(e, command, masked, verbose, configModule);
  }
}

function reportError(e: unknown, command: Command, io: CommandIo, verbose: boolean, config: typeof import('./config/load.ts')): number {
  if (e instanceof config.ConfigError) {
    io.err(`calbridge: the config ${e.file} is not valid:`);
    for (const p of e.problems) io.err(`  ${config.formatProblem(p)}`);
    return 2;
  }
  const message = errorMessage(e).replace(/\s*\n[\s\S]*$/, '');
  io.err(`calbridge ${command.name}: ${message}${/[.!?]$/.test(message) ? '' : '.'}`);
  if (verbose && e instanceof Error && e.stack) io.err(e.stack);
  return e instanceof UserError ? e.exitCode : 1;
}
