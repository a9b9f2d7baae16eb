// The shape of one CLI command. cli.ts parses arguments with node:util parseArgs and calls run().
import type { Config } from '../config/schema.ts';
import type { Runtime } from '../wiring/runtime.ts';

export type OptionSpec = { type: 'string' | 'boolean'; short?: string; description: string; default?: string | boolean };

export interface CommandIo {
  /** Plain text for people: stdout. */
  out(line: string): void;
  /** Problems: stderr. */
  err(line: string): void;
  /** True when stdout is a terminal (progress bars). */
  isTty: boolean;
  /** What a person types, for a command that asks (google auth); stdin in the CLI. */
  input?: NodeJS.ReadableStream;
}

export interface CommandArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  io: CommandIo;
  verbose: boolean;
  /** Loads and validates the config (--config, $CALBRIDGE_CONFIG, ./config.yaml); throws ConfigError. Its secrets are masked in `io` from then on. */
  loadConfig(): Config;
  /** Masks a config's secrets in every line `io` prints (for a config read other than by loadConfig). */
  protect(config: Config): Config;
  /**
   * Opens database, booking client and every part, without HTTP server or schedules (one-shot
   * commands). Logs go to stderr. Close it when done.
   */
  openRuntime(config?: Config): Promise<Runtime>;
}

export interface Command {
  /** e.g. 'status' or 'webhooks list' */
  name: string;
  summary: string;
  /** Extra lines for --help (what it does in detail, exit statuses). */
  help?: string;
  /** Positional arguments, for --help: e.g. ['<webhook_key>']. */
  args?: string[];
  options?: Record<string, OptionSpec>;
  /** Prints feed URLs on purpose (`feeds`, `demo`): feed tokens are not masked in its output. */
  showsFeedTokens?: boolean;
  /** Returns the exit status. Throw UserError for a one-sentence failure. */
  run(args: CommandArgs): Promise<number>;
}
