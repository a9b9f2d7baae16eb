// "Is all well?" for people: each problem in a sentence, with what to do. Built from readiness (the
// parts' own sentences, as data) and from what the status document knows better (Google's refusal
// of our credentials, writes that keep failing). A move put back or a refusal is activity, not a problem.
import type { OverallReadiness, Warning } from '../../core/readiness.ts';
import type { StatusDocument, TargetSection } from '../../status/status-document.ts';

export interface PageProblem {
  /** What is wrong, in a sentence. */
  text: string;
  /** What to do about it. */
  todo?: string;
  /** What the other side said, for whoever fixes it. */
  detail?: string;
}

/** "the booking API has not answered" → "The booking API has not answered." */
function sentence(text: string): string {
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

const some = (n: number) => (n === 1 ? '1 appointment' : `${n} appointments`);

/** Google refusing calbridge's credentials: nothing reaches Google until it is fixed. */
function googleAuthProblem(t: TargetSection): PageProblem | undefined {
  if (t.kind !== 'google' || t.auth.ok) return undefined;
  return {
    text: 'Google refused calbridge’s credentials, so no change reaches Google Calendar.',
    todo:
      'Run `calbridge google auth` on the server to sign in again (an OAuth app left in “Testing” loses its sign-in after 7 days: publish it “In production”), ' +
      'or check the service account key and the calendar’s sharing.',
    ...(t.auth.error !== null ? { detail: `Google said: ${t.auth.error}` } : {}),
  };
}

/** A mistake in the caldav section, in a sentence with the fix: it explains every failing write, so it stands alone. */
function setupProblem(t: TargetSection): PageProblem | undefined {
  const setup = t.setup_problem;
  if (!setup) return undefined;
  const detail = { detail: setup.message.charAt(0).toUpperCase() + setup.message.slice(1) };
  if (setup.kind === 'not_caldav') {
    return {
      text: 'caldav.url does not lead to a CalDAV server, so no appointment reaches the CalDAV calendar.',
      todo: 'Set caldav.url to the server’s DAV root (docs/caldav-setup.md gives it for iCloud, Nextcloud and Fastmail) and restart calbridge.',
      ...detail,
    };
  }
  return {
    text: `The CalDAV account has no calendar “${setup.calendar}”, so no appointment reaches it.`,
    todo: 'Set that entry of caldav.calendars to one of the calendars listed below (its name as the apps show it, or its URL) and restart calbridge.',
    ...detail,
  };
}

/** Writes that keep failing (a refusal of our password is a readiness warning). */
function failingWrites(t: TargetSection): PageProblem | undefined {
  if (t.failed === 0) return undefined;
  const said = t.failures[0]?.last_error;
  if (t.kind === 'google') {
    return {
      text: `${some(t.failed)} could not be written to Google; calbridge keeps retrying by itself.`,
      todo: 'If the number does not go down, read Google’s answer and check that the calendar is shared with calbridge’s account with “Make changes to events”.',
      ...(said !== undefined ? { detail: `Google said: ${said}` } : {}),
    };
  }
  return {
    text: `${some(t.failed)} could not be written to the CalDAV calendar; calbridge keeps retrying by itself.`,
    todo: 'If the number does not go down, read the server’s answer and check that the account may change events in that calendar.',
    ...(said !== undefined ? { detail: `The CalDAV server said: ${said}` } : {}),
  };
}

/** Every problem, the most serious first: not ready, then Google refusing us, then warnings. */
export function pageProblems(readiness: OverallReadiness, status: StatusDocument): PageProblem[] {
  const targets = Object.values(status.targets);
  const reasons = readiness.reasons.map((r) => ({
    text: `calbridge cannot take traffic: ${sentence(r).replace(/^./, (c) => c.toLowerCase())}`,
    todo: 'Webhooks and feeds are refused until this is fixed; the log says more.',
  }));
  const auth = targets.flatMap((t) => googleAuthProblem(t) ?? []);
  const setups = targets.flatMap((t) => setupProblem(t) ?? []);
  // A cause told above in its own words is not told again by the warnings it causes: the writer's
  // warning about refused credentials; a setup mistake's own warning, the failing rounds and the silence.
  const toldAbove = (w: Warning) =>
    w.cause !== undefined &&
    targets.some((t) => t.account === w.cause!.account && ((w.cause!.kind === 'auth' && googleAuthProblem(t)) || (w.cause!.kind !== 'auth' && setupProblem(t))));
  const warnings = readiness.notes.filter((w) => !toldAbove(w)).map((w) => ({ text: sentence(w.text), ...(w.see ? { todo: 'The details are below.' } : {}) }));
  const failures = targets.flatMap((t) => (googleAuthProblem(t) || setupProblem(t) ? [] : (failingWrites(t) ?? [])));
  return setups.length ? [...reasons, ...auth, ...setups, ...warnings, ...failures] : [...reasons, ...auth, ...warnings, ...failures];
}
