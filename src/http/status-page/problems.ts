// "Is all well?" for people: each problem once, in a sentence in the locale, with what to do. Built
// from readiness (the parts' own sentences, the common ones told in the locale) and from what the
// status document knows better (Google's refusal of our credentials, writes that keep failing). A
// move put back or a refusal is activity, not a problem. Appointments are named by their search code.
import { DateTime } from 'luxon';
import type { OverallReadiness } from '../../core/readiness.ts';
import { messagesFor, type Messages } from '../../core/i18n/index.ts';
import { isPlainObject } from './render-value.ts';

export interface PageProblem {
  /** What is wrong, in a sentence. */
  text: string;
  /** What to do about it. */
  todo?: string;
  /** What the other side said, for whoever fixes it. */
  detail?: string;
}

/** How problems name things: the locale, the time zone, and an appointment's search code by its key. */
export interface ProblemWords {
  m: Messages;
  zone: string;
  /** The search code of an appointment (AG00012); null when it has none. */
  codeOf?: (key: string) => string | null | undefined;
}

const ENGLISH: ProblemWords = { m: messagesFor('en'), zone: 'UTC' };

const POINTER = /\s*\((?:details in status|see status)[^)]*\)/i;

/** "the booking API has not answered (details in status: booking_api)" → "The booking API has not answered." */
function sentence(text: string): string {
  const t = text.replace(new RegExp(POINTER, 'gi'), '').trim();
  const capital = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

const section = (status: Record<string, unknown>, name: string): Record<string, unknown> | undefined => {
  const s = status[name];
  return isPlainObject(s) ? s : undefined;
};

/** The codes of the first few appointments in `failures` ("AG00012, AG00013"), never their keys. */
function codes(failures: unknown, w: ProblemWords): string {
  if (!Array.isArray(failures) || !w.codeOf) return '';
  const found = failures
    .filter(isPlainObject)
    .map((f) => (typeof f.appointmentKey === 'string' ? w.codeOf?.(f.appointmentKey) : null))
    .filter((c): c is string => typeof c === 'string' && c !== '');
  const unique = [...new Set(found)];
  return unique.length > 3 ? `${unique.slice(0, 3).join(', ')}, …` : unique.join(', ');
}

/** What another service said, with any appointment key in it replaced by the appointment's code. */
function said(text: string, failures: unknown, w: ProblemWords): string {
  if (!Array.isArray(failures) || !w.codeOf) return text;
  let out = text;
  for (const f of failures.filter(isPlainObject)) {
    if (typeof f.appointmentKey !== 'string' || f.appointmentKey === '') continue;
    out = out.split(f.appointmentKey).join(w.codeOf(f.appointmentKey) ?? '…');
  }
  return out;
}

function googleProblems(status: Record<string, unknown>, w: ProblemWords): { problems: PageProblem[]; authShown: boolean } {
  const p = w.m.problems;
  const google = section(status, 'google');
  const auth = google && isPlainObject(google.auth) ? google.auth : undefined;
  if (auth?.ok === false) {
    return {
      authShown: true,
      problems: [{ text: p.googleAuth, todo: p.googleAuthTodo, ...(typeof auth.error === 'string' ? { detail: p.googleSaid(auth.error) } : {}) }],
    };
  }
  const failed = typeof google?.failed === 'number' ? google.failed : 0;
  if (failed === 0) return { authShown: false, problems: [] };
  const first = Array.isArray(google?.failures) ? google.failures.find(isPlainObject) : undefined;
  return {
    authShown: false,
    problems: [
      {
        text: p.googleFailed(failed, codes(google?.failures, w)),
        todo: p.googleFailedTodo,
        ...(typeof first?.lastError === 'string' ? { detail: p.googleSaid(said(first.lastError, google?.failures, w)) } : {}),
      },
    ],
  };
}

/** A mistake in the caldav section, in a sentence with the fix: it explains every failing write, so it stands alone. */
function caldavSetupProblem(status: Record<string, unknown>, w: ProblemWords): PageProblem | undefined {
  const p = w.m.problems;
  const setup = section(status, 'caldav')?.setup_problem;
  if (!isPlainObject(setup)) return undefined;
  const detail = typeof setup.message === 'string' ? { detail: setup.message.charAt(0).toUpperCase() + setup.message.slice(1) } : {};
  if (setup.kind === 'not_caldav') return { text: p.notCaldav, todo: p.notCaldavTodo, ...detail };
  return { text: p.noCalendar(String(setup.calendar)), todo: p.noCalendarTodo, ...detail };
}

/** Writes to the CalDAV calendar that keep failing (its refusal of our password is told on its own). */
function caldavFailures(status: Record<string, unknown>, w: ProblemWords): PageProblem[] {
  const p = w.m.problems;
  const caldav = section(status, 'caldav');
  const failed = typeof caldav?.failed === 'number' ? caldav.failed : 0;
  if (failed === 0) return [];
  const first = Array.isArray(caldav?.failures) ? caldav.failures.find(isPlainObject) : undefined;
  return [
    {
      text: p.caldavFailed(failed, codes(caldav?.failures, w)),
      todo: p.caldavFailedTodo,
      ...(typeof first?.lastError === 'string' ? { detail: p.caldavSaid(said(first.lastError, caldav?.failures, w)) } : {}),
    },
  ];
}

const CALDAV_AUTH = /^CalDAV: the server refused the username and password/;
const CALDAV_SILENT = /^the CalDAV server has not answered successfully for over (\d+) minutes/;
const CALDAV_ROUND = /^CalDAV reverse sync: the last round failed/;

/** A readiness warning in the locale where it is one of the common ones; else the part's own sentence. */
function warning(text: string, w: ProblemWords): PageProblem {
  const p = w.m.problems;
  const t = w.m.warnings;
  const googlePlace = w.m.activity.places.google;
  const caldavPlace = w.m.activity.places.caldav;
  let m: RegExpExecArray | null;
  if (CALDAV_AUTH.test(text)) return { text: p.caldavAuth, todo: p.caldavAuthTodo };
  if (/^the booking API has not answered successfully yet/.test(text)) return { text: t.bookingSilentYet, todo: t.bookingTodo };
  if ((m = /^the booking API has not answered successfully since (\S+)/.exec(text))) {
    const since = DateTime.fromISO(m[1] ?? '', { zone: w.zone });
    return { text: t.bookingSilentSince(since.isValid ? since.setLocale(w.m.tag).toFormat('ccc d LLL HH:mm') : (m[1] ?? '')), todo: t.bookingTodo };
  }
  if ((m = /^Google has not answered successfully for over (\d+) minutes/.exec(text))) return { text: t.googleSilent(Number(m[1])), todo: t.silentTodo };
  if ((m = CALDAV_SILENT.exec(text))) return { text: t.caldavSilent(Number(m[1])), todo: t.silentTodo };
  if ((m = /^webhooks seem silent: the last two polls found (\d+) changes/.exec(text))) return { text: t.webhooksSilent(Number(m[1])), todo: t.webhooksTodo };
  if ((m = /^(\d+) webhook deliveries failed/.exec(text))) return { text: t.deliveriesFailed(Number(m[1])), todo: t.detailsTodo };
  if ((m = /^(CalDAV )?reverse sync: (\d+) moves could not be sent/.exec(text))) return { text: t.movesFailed(Number(m[2]), m[1] ? caldavPlace : googlePlace), todo: t.detailsTodo };
  if ((m = /^(CalDAV )?reverse sync: the last round failed/.exec(text))) return { text: t.reverseFailed(m[1] ? caldavPlace : googlePlace), todo: t.detailsTodo };
  if (/^reverse sync: no Google push channel is open/.test(text)) return { text: t.noPush };
  return { text: sentence(text), ...(POINTER.test(text) ? { todo: p.detailsBelow } : {}) };
}

/** The same problem told twice (two parts saying one thing) is shown once. */
function once(problems: PageProblem[]): PageProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => !seen.has(p.text) && (seen.add(p.text), true));
}

/** Every problem, once, the most serious first: not ready, then a credentials refusal, then warnings. */
export function pageProblems(readiness: OverallReadiness, status: Record<string, unknown>, words: ProblemWords = ENGLISH): PageProblem[] {
  const p = words.m.problems;
  const google = googleProblems(status, words);
  const reasons = readiness.reasons.map((r) => ({ text: p.notReady(sentence(r).replace(/^./, (c) => c.toLowerCase())), todo: p.notReadyTodo }));
  // A CalDAV setup mistake or a refused password is told once, with its fix: what it causes (failing
  // writes and rounds, a silent server) is not told again.
  const setup = caldavSetupProblem(status, words);
  // The writer knows of the refusal while it runs; another process (`status`) reads it in the failures.
  const caldavSection = section(status, 'caldav');
  const caldavAuthState = caldavSection && isPlainObject(caldavSection.auth) ? caldavSection.auth : undefined;
  const refusedInFailures = caldavAuthState?.ok === false || /refused the username and password/.test(JSON.stringify(caldavSection?.failures ?? []));
  const caldavAuth = readiness.warnings.some((w) => CALDAV_AUTH.test(w)) || refusedInFailures;
  const caldavExplained = setup !== undefined || caldavAuth;
  const warnings = readiness.warnings
    .filter((w) => !(google.authShown && w.includes('google auth')))
    .filter((w) => !(setup && w.includes('caldav.setup_problem')))
    .filter((w) => !(caldavExplained && (CALDAV_ROUND.test(w) || CALDAV_SILENT.test(w))))
    .map((w) => warning(w, words));
  const [auth, failures] = google.authShown ? [google.problems, []] : [[], google.problems];
  const caldav = caldavExplained ? [] : caldavFailures(status, words);
  const refused = refusedInFailures && !warnings.some((w) => w.text === p.caldavAuth) ? [{ text: p.caldavAuth, todo: p.caldavAuthTodo }] : [];
  return once(setup ? [...reasons, ...auth, setup, ...warnings, ...failures] : [...reasons, ...auth, ...refused, ...warnings, ...failures, ...caldav]);
}
