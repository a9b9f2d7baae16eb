// "Is all well?" for people: each problem once, in a sentence in the locale, with what to do. Built
// from readiness (the parts' own sentences as data, the common ones told in the locale) and from what
// the typed status document knows better (Google's refusal of our credentials, a CalDAV setup mistake,
// writes that keep failing). A move put back or a refusal is activity, not a problem. Appointments are
// named by their search code.
import { DateTime } from 'luxon';
import type { OverallReadiness, Warning } from '../../core/readiness.ts';
import { messagesFor, type Messages } from '../../core/i18n/index.ts';
import type { StatusDocument, TargetSection } from '../../status/status-document.ts';
import { signInFix, type AccountRef } from '../../core/sign-in-fix.ts';

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

/** "the booking API has not answered" → "The booking API has not answered." */
function sentence(text: string): string {
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

type Failures = TargetSection['failures'];

/** The codes of the first few appointments in `failures` ("AG00012, AG00013"), never their keys. */
function codes(failures: Failures, w: ProblemWords): string {
  if (!w.codeOf) return '';
  const found = failures.map((f) => w.codeOf?.(f.appointment_key)).filter((c): c is string => typeof c === 'string' && c !== '');
  const unique = [...new Set(found)];
  return unique.length > 3 ? `${unique.slice(0, 3).join(', ')}, …` : unique.join(', ');
}

/** What another service said, with any appointment key in it replaced by the appointment's code. */
function said(text: string, failures: Failures, w: ProblemWords): string {
  if (!w.codeOf) return text;
  let out = text;
  for (const f of failures) {
    if (f.appointment_key === '') continue;
    out = out.split(f.appointment_key).join(w.codeOf(f.appointment_key) ?? '…');
  }
  return out;
}

/**
 * With several accounts, a problem says whose ("google.ana: ..."), and two accounts with one
 * problem are two problems; the single form's (`google.default`) reads as it always did. A refused
 * sign-in's fix fits the account (core/sign-in-fix.ts): its `--account NAME`, or a new invite for
 * one connected on the web.
 */
function whose(ref: AccountRef | undefined, problem: PageProblem, w: ProblemWords, signIn = false): PageProblem {
  if (ref === undefined || (ref.account.endsWith('.default') && !ref.connected)) return problem;
  const todo = problem.todo === undefined ? undefined : signIn || !ref.connected ? signInFix(ref, problem.todo, w.m.signIn) : problem.todo;
  return { ...problem, text: `${ref.account}: ${problem.text}`, ...(todo !== undefined ? { todo } : {}) };
}

/** Google or Microsoft refusing calbridge's credentials: nothing reaches that calendar until it is fixed. */
function authProblem(t: TargetSection, w: ProblemWords): PageProblem | undefined {
  if (t.auth.ok) return undefined;
  const p = w.m.problems;
  if (t.kind === 'google')
    // What the Google client said names `google auth`: no help for an account connected on the web.
    return whose(
      t,
      {
        text: p.googleAuth,
        todo: p.googleAuthTodo,
        ...(t.auth.error !== null && !t.connected
          ? { detail: signInFix({ account: t.account }, p.googleSaid(t.auth.error), w.m.signIn) }
          : {}),
      },
      w,
      true,
    );
  if (t.kind !== 'microsoft') return undefined;
  // Only the identity platform's own words (its AADSTS code names the cause); our advice is the todo.
  const said = /\((AADSTS\d+[^)]*)\)/.exec(t.auth.error ?? '')?.[1];
  return whose(t, { text: p.microsoftAuth, todo: p.microsoftAuthTodo, ...(said ? { detail: p.microsoftSaid(said) } : {}) }, w, true);
}

/** A mistake in the caldav section, in a sentence with the fix: it explains every failing write, so it stands alone. */
function setupProblem(t: TargetSection, w: ProblemWords): PageProblem | undefined {
  const setup = t.setup_problem;
  if (!setup) return undefined;
  const p = w.m.problems;
  const detail = { detail: setup.message.charAt(0).toUpperCase() + setup.message.slice(1) };
  if (setup.kind === 'not_caldav') return whose(t, { text: p.notCaldav, todo: p.notCaldavTodo, ...detail }, w);
  return whose(t, { text: p.noCalendar(setup.calendar), todo: p.noCalendarTodo, ...detail }, w);
}

/** The CalDAV server refusing our password: the writer knows while it runs; another process (`status`) reads it in the failures. */
function caldavRefused(t: TargetSection, notes: readonly Warning[]): boolean {
  if (t.kind !== 'caldav') return false;
  const warned = notes.some((n) => n.cause?.account === t.account && n.cause.kind === 'auth');
  return warned || !t.auth.ok || t.failures.some((f) => /refused the username and password/.test(f.last_error));
}

/** Writes that keep failing (a refusal of our password is told on its own). */
function failingWrites(t: TargetSection, w: ProblemWords): PageProblem | undefined {
  if (t.failed === 0) return undefined;
  const p = w.m.problems;
  const first = t.failures[0]?.last_error;
  if (t.kind === 'google') {
    return whose(
      t,
      {
        text: p.googleFailed(t.failed, codes(t.failures, w)),
        todo: p.googleFailedTodo,
        ...(first !== undefined ? { detail: p.googleSaid(said(first, t.failures, w)) } : {}),
      },
      w,
    );
  }
  if (t.kind === 'caldav') {
    return whose(
      t,
      {
        text: p.caldavFailed(t.failed, codes(t.failures, w)),
        todo: p.caldavFailedTodo,
        ...(first !== undefined ? { detail: p.caldavSaid(said(first, t.failures, w)) } : {}),
      },
      w,
    );
  }
  if (t.kind === 'microsoft') {
    return whose(
      t,
      {
        text: p.microsoftFailed(t.failed, codes(t.failures, w)),
        todo: p.microsoftFailedTodo,
        ...(first !== undefined ? { detail: p.microsoftSaid(said(first, t.failures, w)) } : {}),
      },
      w,
    );
  }
  return undefined;
}

/** A readiness warning in the locale where it is one of the common ones; else the part's own sentence. */
function warning(note: Warning, w: ProblemWords, targets: StatusDocument['targets']): PageProblem {
  const kindOf = (account: string) => targets[account]?.kind;
  const account = note.cause?.account;
  const ref = account === undefined ? undefined : (targets[account] ?? { account });
  return whose(ref, commonWarning(note, w, kindOf), w, note.cause?.kind === 'auth');
}

function commonWarning(note: Warning, w: ProblemWords, kindOf: (account: string) => string | undefined): PageProblem {
  const p = w.m.problems;
  const t = w.m.warnings;
  const { text } = note;
  const cause = note.cause;
  const kind = cause && kindOf(cause.account);
  const places: Record<string, string> = {
    Google: w.m.activity.places.google,
    CalDAV: w.m.activity.places.caldav,
    Microsoft: w.m.activity.places.microsoft,
  };
  let m: RegExpExecArray | null;
  if (cause?.kind === 'auth' && kind === 'caldav') return { text: p.caldavAuth, todo: p.caldavAuthTodo };
  if (/^the booking API has not answered successfully yet/.test(text)) return { text: t.bookingSilentYet, todo: t.bookingTodo };
  if ((m = /^the booking API has not answered successfully since (\S+)/.exec(text))) {
    const since = DateTime.fromISO(m[1] ?? '', { zone: w.zone });
    return {
      text: t.bookingSilentSince(since.isValid ? since.setLocale(w.m.tag).toFormat('ccc d LLL HH:mm') : (m[1] ?? '')),
      todo: t.bookingTodo,
    };
  }
  if (cause?.kind === 'quiet' && (m = /for over (\d+) minutes/.exec(text))) {
    if (kind === 'google') return { text: t.googleSilent(Number(m[1])), todo: t.silentTodo };
    if (kind === 'caldav') return { text: t.caldavSilent(Number(m[1])), todo: t.silentTodo };
    if (kind === 'microsoft') return { text: t.microsoftSilent(Number(m[1])), todo: t.silentTodo };
  }
  if ((m = /^webhooks seem silent: the last two polls found (\d+) changes/.exec(text)))
    return { text: t.webhooksSilent(Number(m[1])), todo: t.webhooksTodo };
  if ((m = /^(\d+) webhook deliveries failed/.exec(text))) return { text: t.deliveriesFailed(Number(m[1])), todo: t.detailsTodo };
  if ((m = /^(Google|CalDAV|Microsoft) reverse sync: (\d+) moves could not be sent/.exec(text)))
    return { text: t.movesFailed(Number(m[2]), places[m[1]!]!), todo: t.detailsTodo };
  if ((m = /^(Google|CalDAV|Microsoft) reverse sync: the last round failed/.exec(text)))
    return { text: t.reverseFailed(places[m[1]!]!), todo: t.detailsTodo };
  if (/no Google push channel is open/.test(text)) return { text: t.noPush };
  return { text: sentence(text), ...(note.see ? { todo: p.detailsBelow } : {}) };
}

/** The same problem told twice (two parts saying one thing) is shown once. */
function once(problems: PageProblem[]): PageProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    if (seen.has(p.text)) return false;
    seen.add(p.text);
    return true;
  });
}

/** Every problem, once, the most serious first: not ready, then a credentials refusal, then warnings. */
export function pageProblems(readiness: OverallReadiness, status: StatusDocument, words: ProblemWords = ENGLISH): PageProblem[] {
  const p = words.m.problems;
  const targets = Object.values(status.targets);
  const reasons = readiness.reasons.map((r) => ({
    text: p.notReady(sentence(r).replace(/^./, (c) => c.toLowerCase())),
    todo: p.notReadyTodo,
  }));
  const auth = targets.flatMap((t) => authProblem(t, words) ?? []);
  const setups = targets.flatMap((t) => setupProblem(t, words) ?? []);
  const refused = targets.filter((t) => caldavRefused(t, readiness.notes));
  // A cause told in its own words is not told again by the warnings it causes: Google's refusal of
  // our credentials; a setup mistake, a refused CalDAV password or a refused Microsoft sign-in, with
  // the failing rounds and the silence they cause (the refusal's own sentence tells it).
  const explained = (t: TargetSection) =>
    setupProblem(t, words) !== undefined || refused.includes(t) || (t.kind === 'microsoft' && !t.auth.ok);
  const toldAbove = (n: Warning) => {
    const t = n.cause && status.targets[n.cause.account];
    if (!t || !n.cause) return false;
    if (n.cause.kind === 'auth') return authProblem(t, words) !== undefined || setupProblem(t, words) !== undefined;
    return explained(t);
  };
  const warnings = readiness.notes.filter((n) => !toldAbove(n)).map((n) => warning(n, words, status.targets));
  const told = setups.length
    ? []
    : refused.flatMap((t) => {
        const refusal = whose(t, { text: p.caldavAuth, todo: p.caldavAuthTodo }, words, true);
        return warnings.some((w) => w.text === refusal.text) ? [] : [refusal];
      });
  const failures = targets.flatMap((t) => (authProblem(t, words) || explained(t) ? [] : (failingWrites(t, words) ?? [])));
  return once(
    setups.length ? [...reasons, ...auth, ...setups, ...warnings, ...failures] : [...reasons, ...auth, ...told, ...warnings, ...failures],
  );
}
