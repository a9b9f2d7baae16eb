// The sections of BENCHMARKS.md, each from its `## ` heading to the next. `npm run bench` and
// `npm run soak -- --write` replace only the sections they measured and keep every other one as it
// is (a thousand soak histories take half an hour, the whole bench as long; one section's run should
// not throw the others' figures, or notes kept by hand, away).
import { existsSync, readFileSync } from 'node:fs';

export const SOAK_HEADING = '## Convergence soak';

/** The section under `heading` in `text` (heading to the next section or the end), or undefined. */
function sectionIn(text: string, heading: string): string | undefined {
  const first = text.startsWith(`${heading}\n`);
  const at = first ? 0 : text.indexOf(`\n${heading}\n`) + 1;
  if (at === 0 && !first) return undefined;
  const next = text.indexOf('\n## ', at + 1);
  return text.slice(at, next < 0 ? undefined : next).trimEnd();
}

/**
 * `text` with the section of `section`'s heading (its first line) replaced by `section`; a section
 * the file lacks goes before the soak's, which stays last, or at the end.
 */
export function withSection(text: string, section: string): string {
  const body = section.trimEnd();
  const heading = body.split('\n', 1)[0]!;
  const old = sectionIn(text, heading);
  if (old !== undefined) return text.replace(old, () => body);
  const soak = sectionIn(text, SOAK_HEADING);
  if (soak !== undefined && heading !== SOAK_HEADING) return text.replace(soak, () => `${body}\n\n${soak}`);
  return `${text.trimEnd()}\n\n${body}\n`;
}

export const benchmarksFile = (path = 'BENCHMARKS.md') => (existsSync(path) ? readFileSync(path, 'utf8') : '');
