// Reads the YAML config: ${NAME} / ${file:PATH} interpolation (interpolate.ts), schema validation,
// and every problem reported at once with its YAML path and line, so a user fixes them in one go.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { isMap, isScalar, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { isSecretKey } from './mask.ts';
import { configSchema, type Config } from './schema.ts';
import { formatPath, interpolate, lineAt } from './interpolate.ts';
import type { ConfigProblem } from './problem.ts';

export class ConfigError extends Error {
  constructor(
    readonly file: string,
    readonly problems: ConfigProblem[],
  ) {
    super(`${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'}: ${problems.map(formatProblem).join('; ')}`);
    this.name = 'ConfigError';
  }
}

export function formatProblem(p: ConfigProblem): string {
  const where = [p.path || '(top)', p.line !== undefined ? `line ${p.line}` : ''].filter(Boolean).join(', ');
  return `${where}: ${p.message}`;
}

export interface LoadedConfig {
  config: Config;
  file: string;
}

/** The config file: --config, else $CALBRIDGE_CONFIG, else ./config.yaml (docs/reference/commands.md). */
export function configPath(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(flag ?? (env.CALBRIDGE_CONFIG || 'config.yaml'));
}

export function loadConfigFile(file: string, env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ConfigError(file, [
      {
        path: '',
        message:
          code === 'ENOENT' ? 'file not found (give --config <file> or set CALBRIDGE_CONFIG)' : `cannot be read (${code ?? String(e)})`,
      },
    ]);
  }
  return { config: parseConfig(text, file, env), file };
}

export function parseConfig(text: string, file: string, env: NodeJS.ProcessEnv = process.env): Config {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: true, uniqueKeys: true });
  const problems: ConfigProblem[] = doc.errors.map((e) => ({
    path: '',
    line: e.linePos?.[0].line,
    message: (e.message.split('\n')[0] ?? e.message).replace(/ at line \d+, column \d+:?$/, ''),
  }));
  if (problems.length) throw new ConfigError(file, problems);

  const fromFile = new Set<string>();
  interpolate(doc.contents, [], { env, baseDir: dirname(file), lines, problems, fromFile });
  const unset = new Set(problems.map((p) => p.path)); // a path already reported for a missing variable or file
  const parsed = configSchema.safeParse(doc.toJS() ?? {}, { reportInput: true });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) {
          const path = [...issue.path, key];
          problems.push({ path: formatPath(path), line: lineOfKey(doc, path, lines), message: 'unknown key (a typo?)' });
        }
      } else if (!unset.has(formatPath(issue.path))) {
        const path = formatPath(issue.path);
        const hidden = fromFile.has(path) ? 'file' : isSecretKey(issue.path.at(-1)) ? 'secret' : undefined;
        problems.push({ path, line: lineOf(doc, issue.path, lines), message: describeIssue(issue, hidden) });
      }
    }
  }
  if (problems.length) throw new ConfigError(file, problems);
  return resolvePaths(parsed.data!, dirname(file));
}

const KINDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'a mapping (key: value lines)',
  array: 'a list',
};

function shown(value: unknown): string {
  if (typeof value === 'string') return `the text "${value.length > 40 ? `${value.slice(0, 40)}...` : value}"`;
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'empty';
  return typeof value === 'object' ? 'a mapping' : String(value);
}

/** `hidden`: the value was read from a file (it may be a secret) or is a secret: it is never shown, only its kind. */
function describeIssue(
  issue: { code: string; message: string; input?: unknown; expected?: string },
  hidden: 'file' | 'secret' | undefined,
): string {
  if (issue.input === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_union')) return 'is required';
  if (issue.code === 'invalid_type' && issue.expected) {
    const hint = issue.expected === 'string' && typeof issue.input === 'number' ? ' (put it in quotes)' : '';
    const got =
      hidden === 'file'
        ? 'the text read from its file'
        : hidden === 'secret'
          ? (KINDS[typeof issue.input] ?? typeof issue.input)
          : shown(issue.input);
    return `must be ${KINDS[issue.expected] ?? issue.expected}, not ${got}${hint}${hidden === 'secret' ? '; the value is a secret, so it is not shown' : ''}`;
  }
  const message = issue.message.replace(/^Invalid input: /, '');
  // zod quotes the value in some messages (an enum's "received ..."): none of a hidden value goes out.
  return hidden && typeof issue.input === 'string' && issue.input !== '' && message.includes(issue.input)
    ? hidden === 'file'
      ? 'is not valid (the text read from its file is not shown)'
      : 'is not valid (the value is a secret, so it is not shown)'
    : message;
}

/** Line of the deepest node that exists along the path (a missing key points at its parent). */
function lineOf(doc: Document, path: readonly PropertyKey[], lines: LineCounter): number | undefined {
  for (let n = path.length; n >= 1; n--) {
    const node = doc.getIn(path.slice(0, n) as (string | number)[], true);
    if (node && typeof node === 'object' && 'range' in node) return lineAt(node as Node, lines);
  }
  return undefined;
}

function lineOfKey(doc: Document, path: readonly PropertyKey[], lines: LineCounter): number | undefined {
  const parent = path.length > 1 ? doc.getIn(path.slice(0, -1) as (string | number)[], true) : doc.contents;
  if (isMap(parent)) {
    const pair = parent.items.find((p) => isScalar(p.key) && String(p.key.value) === String(path.at(-1)));
    if (pair && isScalar(pair.key)) return lineAt(pair.key, lines);
  }
  return lineOf(doc, path, lines);
}

/** Relative paths in the config are resolved from the config file's folder (docs/reference/configuration.md, "General rules"). */
function resolvePaths(config: Config, base: string): Config {
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(base, p));
  const credentials = config.google?.credentials;
  return {
    ...config,
    database: { ...config.database, path: config.database.path === ':memory:' ? ':memory:' : abs(config.database.path) },
    google: config.google && {
      ...config.google,
      credentials: credentials?.service_account_file
        ? { ...credentials, service_account_file: abs(credentials.service_account_file) }
        : credentials!,
      ...(config.google.accounts
        ? {
            accounts: config.google.accounts.map((a) =>
              a.credentials.service_account_file
                ? { ...a, credentials: { ...a.credentials, service_account_file: abs(a.credentials.service_account_file) } }
                : a,
            ),
          }
        : {}),
    },
  };
}
