// Reads the YAML config: ${NAME} / ${NAME:-fallback} interpolation, schema validation, and every
// problem reported at once with its YAML path and line, so a user fixes them in one go.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { configSchema, type Config } from './schema.ts';

export interface ConfigProblem {
  /** YAML path like `booking.base_url` or `feeds[0].token`; empty for the whole file. */
  path: string;
  line?: number;
  message: string;
}

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

/** The config file: --config, else $CALBRIDGE_CONFIG, else ./config.yaml (contract §1). */
export function configPath(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(flag ?? (env.CALBRIDGE_CONFIG || 'config.yaml'));
}

export function loadConfigFile(file: string, env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ConfigError(file, [{ path: '', message: code === 'ENOENT' ? 'file not found (give --config <file> or set CALBRIDGE_CONFIG)' : `cannot be read (${code ?? String(e)})` }]);
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

  interpolate(doc.contents, [], env, lines, problems);
  const unset = new Set(problems.map((p) => p.path)); // a path already reported for a missing variable
  const parsed = configSchema.safeParse(doc.toJS() ?? {}, { reportInput: true });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) {
          const path = [...issue.path, key];
          problems.push({ path: formatPath(path), line: lineOfKey(doc, path, lines), message: 'unknown key (a typo?)' });
        }
      } else if (!unset.has(formatPath(issue.path))) {
        problems.push({ path: formatPath(issue.path), line: lineOf(doc, issue.path, lines), message: describeIssue(issue) });
      }
    }
  }
  if (problems.length) throw new ConfigError(file, problems);
  return resolvePaths(parsed.data!, dirname(file));
}

const KINDS: Record<string, string> = { string: 'text', number: 'a number', int: 'a whole number', boolean: 'true or false', object: 'a mapping (key: value lines)', array: 'a list' };

function shown(value: unknown): string {
  if (typeof value === 'string') return `the text "${value.length > 40 ? `${value.slice(0, 40)}...` : value}"`;
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'empty';
  return typeof value === 'object' ? 'a mapping' : String(value);
}

function describeIssue(issue: { code: string; message: string; input?: unknown; expected?: string }): string {
  if (issue.input === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_union')) return 'is required';
  if (issue.code === 'invalid_type' && issue.expected) {
    const hint = issue.expected === 'string' && typeof issue.input === 'number' ? ' (put it in quotes)' : '';
    return `must be ${KINDS[issue.expected] ?? issue.expected}, not ${shown(issue.input)}${hint}`;
  }
  return issue.message.replace(/^Invalid input: /, '');
}

/** Replaces ${NAME} and ${NAME:-fallback} in every string scalar, in place, collecting missing names. */
function interpolate(node: unknown, path: PropertyKey[], env: NodeJS.ProcessEnv, lines: LineCounter, problems: ConfigProblem[]): void {
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      interpolate(pair.value, [...path, key], env, lines, problems);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => interpolate(item, [...path, i], env, lines, problems));
  } else if (isScalar(node) && typeof node.value === 'string') {
    node.value = node.value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_whole, name: string, fallback: string | undefined) => {
      const value = env[name];
      if (value !== undefined && value !== '') return value;
      if (fallback !== undefined) return fallback;
      const why = value === undefined ? 'is not set' : 'is empty';
      problems.push({ path: formatPath(path), line: lineAt(node, lines), message: `environment variable ${name} ${why}` });
      return '';
    });
  }
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part)), '');
}

function lineAt(node: Node | null | undefined, lines: LineCounter): number | undefined {
  const offset = node?.range?.[0];
  return offset === undefined ? undefined : lines.linePos(offset).line;
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

/** Relative paths in the config are resolved from the config file's folder (contract §2). */
function resolvePaths(config: Config, base: string): Config {
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(base, p));
  const credentials = config.google?.credentials;
  return {
    ...config,
    database: { ...config.database, path: config.database.path === ':memory:' ? ':memory:' : abs(config.database.path) },
    google: config.google && {
      ...config.google,
      credentials: credentials?.service_account_file ? { ...credentials, service_account_file: abs(credentials.service_account_file) } : credentials!,
    },
  };
}
