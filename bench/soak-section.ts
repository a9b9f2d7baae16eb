// The convergence soak's section of BENCHMARKS.md: written by `npm run soak -- --write`, and kept
// as it is by `npm run bench`, which writes every other section anew (a thousand histories take
// half an hour; a benchmark run should not throw their summary away).
import { existsSync, readFileSync } from 'node:fs';

export const SOAK_HEADING = '## Convergence soak';

/** The soak's section in `text` (heading to the next section or the end), or undefined. */
export function soakSection(text: string): string | undefined {
  const at = text.indexOf(SOAK_HEADING);
  if (at < 0) return undefined;
  const next = text.indexOf('\n## ', at + 1);
  return text.slice(at, next < 0 ? undefined : next).trimEnd();
}

/** `text` with its soak section replaced by `section` (or `section` appended). */
export function withSoakSection(text: string, section: string): string {
  const old = soakSection(text);
  return old === undefined ? `${text.trimEnd()}\n\n${section}\n` : text.replace(old, section.trimEnd());
}

export const benchmarksFile = (path = 'BENCHMARKS.md') => (existsSync(path) ? readFileSync(path, 'utf8') : '');
