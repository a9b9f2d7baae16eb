// `calbridge status` for people: a verdict, each problem in one sentence with its fix, the counts
// and the latest activity, in server.locale and the booking time zone. The same problems and counts
// as the status page; `--json` prints the whole document for scripts.
import { DateTime } from 'luxon';
import type { Messages } from '../core/i18n/index.ts';
import { directionLabel, type Voice } from '../core/activity-words.ts';
import type { PageProblem } from '../http/status-page/problems.ts';
import { isPlainObject } from '../http/status-page/render-value.ts';

export interface StatusText {
  problems: PageProblem[];
  /** "42 appointments", "last poll 3 min ago", … */
  facts: string[];
  /** The status document's activity section (its latest entries are shown). */
  activity: unknown;
  voice: Voice;
  zone: string;
  now: number;
}

/** `calbridge google auth` in a sentence stays as it is in a terminal: the backticks go. */
const plain = (text: string): string => text.replace(/`/g, '');

const ACTIVITY_LINES = 5;

function activityLines(section: unknown, voice: Voice, zone: string): string[] {
  const recent =
    isPlainObject(section) && Array.isArray(section.recent) ? section.recent.filter(isPlainObject).slice(0, ACTIVITY_LINES) : [];
  return recent.map((e) => {
    const at = typeof e.at === 'string' ? DateTime.fromISO(e.at, { zone }).setLocale(voice.m.tag).toFormat('ccc d LLL HH:mm') : '';
    const label = typeof e.appointment === 'string' ? e.appointment : '';
    const reason = typeof e.reason === 'string' && e.reason ? ` (${e.reason})` : '';
    return `  ${at}  ${label ? `${label}  ` : ''}[${directionLabel(String(e.direction ?? ''), voice)}] ${String(e.summary ?? '')}${reason}`;
  });
}

export function statusText(s: StatusText): string[] {
  const m: Messages = s.voice.m;
  const t = m.statusCommand;
  const out = [s.problems.length === 0 ? t.allWell : t.problems(s.problems.length)];
  for (const [i, p] of s.problems.entries()) {
    out.push(`${i + 1}. ${plain(p.text)}`);
    // "The details are below" on the page: here they are in --json.
    const todo = p.todo === m.problems.detailsBelow || p.todo === m.warnings.detailsTodo ? t.detailsJson : p.todo;
    if (todo) out.push(`   ${t.todo}: ${plain(todo)}`);
    if (p.detail) out.push(`   (${p.detail})`);
  }
  out.push('', `${t.counts}: ${s.facts.join(' · ')}`);
  const lines = activityLines(s.activity, s.voice, s.zone);
  if (lines.length) out.push('', `${t.lastActivity}:`, ...lines);
  out.push(
    '',
    `${t.at(DateTime.fromMillis(s.now, { zone: s.zone }).setLocale(m.tag).toFormat('ccc d LLL yyyy HH:mm'), s.zone)}. ${t.json}`,
  );
  return out;
}
