// `${NAME}`, `${NAME:-fallback}` and `${file:PATH}` (`${file:PATH:-fallback}`) in every string of the
// config. The file form reads a secret mounted as a file (compose and Kubernetes secrets, systemd
// credentials) through the same syntax as the environment form, so any value that takes a variable
// takes a file too. A value read from a file is never shown in an error.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { isMap, isScalar, isSeq, type LineCounter, type Node } from 'yaml';
import type { ConfigProblem } from './problem.ts';

export interface Interpolation {
  env: NodeJS.ProcessEnv;
  /** The config file's folder: a relative file path is resolved from it. */
  baseDir: string;
  lines: LineCounter;
  problems: ConfigProblem[];
  /** YAML paths whose value holds text read from a file (errors about them do not show the value). */
  fromFile: Set<string>;
}

const REFERENCE = /\$\{(?:file:([^}]*?)|([A-Za-z_][A-Za-z0-9_]*))(?::-([^}]*))?\}/g;

/** Replaces every reference in every string scalar, in place, collecting problems with their YAML path. */
export function interpolate(node: unknown, path: PropertyKey[], i: Interpolation): void {
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      interpolate(pair.value, [...path, key], i);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, n) => {
      interpolate(item, [...path, n], i);
    });
  } else if (isScalar(node) && typeof node.value === 'string') {
    const at = formatPath(path);
    const problem = (message: string) => i.problems.push({ path: at, line: lineAt(node, i.lines), message });
    node.value = node.value.replace(
      REFERENCE,
      (_whole, file: string | undefined, name: string | undefined, fallback: string | undefined) => {
        if (file !== undefined) return readSecretFile(file, fallback, i, problem, at);
        const value = i.env[name!];
        if (value !== undefined && value !== '') return value;
        if (fallback !== undefined) return fallback;
        problem(`environment variable ${name} ${value === undefined ? 'is not set' : 'is empty'}`);
        return '';
      },
    );
  }
}

function readSecretFile(given: string, fallback: string | undefined, i: Interpolation, problem: (m: string) => void, at: string): string {
  if (given.trim() === '') {
    problem('${file:} names no file');
    return '';
  }
  const file = isAbsolute(given) ? given : resolve(i.baseDir, given);
  let text: string;
  try {
    text = readBounded(file);
  } catch (e) {
    if (e instanceof SecretFileRefused) {
      problem(`secret file ${file} ${e.message}`);
      return '';
    }
    const code = (e as NodeJS.ErrnoException).code;
    // Only a file that does not exist takes the fallback: one calbridge may not read is a mistake to fix.
    if (code === 'ENOENT' && fallback !== undefined) return fallback;
    const why =
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'EACCES'
          ? 'cannot be read (permission denied for this user)'
          : code === 'EISDIR'
            ? 'is a folder'
            : `cannot be read (${code ?? String(e)})`;
    problem(`secret file ${file} ${why}`);
    return '';
  }
  i.fromFile.add(at);
  // Editors and `echo secret > file` end a file with a newline that is not part of the secret.
  return text.replace(/(?:\r?\n)+$/, '');
}

/** A secret is a line of text; a key file a few KiB. Past this, the file is not what was meant. */
const MAX_SECRET_FILE_BYTES = 1024 * 1024;

class SecretFileRefused extends Error {}

/**
 * The file's text, read only if it is a regular file (a symlink to one, as Kubernetes mounts them,
 * is one) of at most MAX_SECRET_FILE_BYTES: `/dev/zero`, a pipe or a log file is refused at once,
 * not read into memory. Opened without blocking, so a named pipe cannot hang the start either.
 */
function readBounded(file: string): string {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw Object.assign(new Error('is a folder'), { code: 'EISDIR' });
    if (!st.isFile())
      throw new SecretFileRefused('is not a regular file (a device, a pipe or a socket); give the file that holds the secret');
    const limit = MAX_SECRET_FILE_BYTES;
    const tooLarge = () =>
      new SecretFileRefused(`is larger than ${limit / 1024 / 1024} MiB, which no secret is; give the file that holds the secret`);
    if (st.size > limit) throw tooLarge();
    const buf = Buffer.alloc(limit + 1);
    let size = 0;
    for (;;) {
      const n = readSync(fd, buf, size, buf.length - size, null);
      if (n === 0) break;
      size += n;
      if (size > limit) throw tooLarge();
    }
    return buf.toString('utf8', 0, size);
  } finally {
    closeSync(fd);
  }
}

export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part)),
    '',
  );
}

export function lineAt(node: Node | null | undefined, lines: LineCounter): number | undefined {
  const offset = node?.range?.[0];
  return offset === undefined ? undefined : lines.linePos(offset).line;
}
