// "Is all well?" for people: each problem in a sentence, with what to do. Built from readiness (the
// parts' own sentences) and from what the status document knows better (Google's refusal of our
// credentials, writes that keep failing). A move put back or a refusal is activity, not a problem.
import type { OverallReadiness } from '../../core/readiness.ts';
import { isPlainObject } from './render-value.ts';

export interface PageProblem {
  /** What is wrong, in a sentence. */
  text: string;
  /** What to do about it. */
  todo?: string;
  /** What the other side said, for whoever fixes it. */
  detail?: string;
}

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

function googleProblems(status: Record<string, unknown>): { problems: PageProblem[]; authShown: boolean } {
  const google = section(status, 'google');
  const auth = google && isPlainObject(google.auth) ? google.auth : undefined;
  if (auth?.ok === false) {
    return {
      authShown: true,
      problems: [
        {
          text: 'Google refused calbridge’s credentials, so no change reaches Google Calendar.',
          todo:
            'Run `calbridge google auth` on the server to sign in again (an OAuth app left in “Testing” loses its sign-in after 7 days: publish it “In production”), ' +
            'or check the service account key and the calendar’s sharing.',
          ...(typeof auth.error === 'string' ? { detail: `Google said: ${auth.error}` } : {}),
        },
      ],
    };
  }
  const failed = typeof google?.failed === 'number' ? google.failed : 0;
  if (failed === 0) return { authShown: false, problems: [] };
  const first = Array.isArray(google?.failures) ? google.failures.find(isPlainObject) : undefined;
  return {
    authShown: false,
    problems: [
      {
        text: `${failed === 1 ? '1 appointment' : `${failed} appointments`} could not be written to Google; calbridge keeps retrying by itself.`,
        todo: 'If the number does not go down, read Google’s answer and check that the calendar is shared with calbridge’s account with “Make changes to events”.',
        ...(typeof first?.lastError === 'string' ? { detail: `Google said: ${first.lastError}` } : {}),
      },
    ],
  };
}

/** A mistake in the caldav section, in a sentence with the fix: it explains every failing write, so it stands alone. */
function caldavSetupProblem(status: Record<string, unknown>): PageProblem | undefined {
  const setup = section(status, 'caldav')?.setup_problem;
  if (!isPlainObject(setup)) return undefined;
  const detail = typeof setup.message === 'string' ? { detail: setup.message.charAt(0).toUpperCase() + setup.message.slice(1) } : {};
  if (setup.kind === 'not_caldav') {
    return {
      text: 'caldav.url does not lead to a CalDAV server, so no appointment reaches the CalDAV calendar.',
      todo: 'Set caldav.url to the server’s DAV root (docs/caldav-setup.md gives it for iCloud, Nextcloud and Fastmail) and restart calbridge.',
      ...detail,
    };
  }
  return {
    text: `The CalDAV account has no calendar “${String(setup.calendar)}”, so no appointment reaches it.`,
    todo: 'Set that entry of caldav.calendars to one of the calendars listed below (its name as the apps show it, or its URL) and restart calbridge.',
    ...detail,
  };
}

/** Writes to the CalDAV calendar that keep failing (its refusal of our password is a readiness warning). */
function caldavProblems(status: Record<string, unknown>): PageProblem[] {
  const setup = caldavSetupProblem(status);
  if (setup) return [setup];
  const caldav = section(status, 'caldav');
  const failed = typeof caldav?.failed === 'number' ? caldav.failed : 0;
  if (failed === 0) return [];
  const first = Array.isArray(caldav?.failures) ? caldav.failures.find(isPlainObject) : undefined;
  return [
    {
      text: `${failed === 1 ? '1 appointment' : `${failed} appointments`} could not be written to the CalDAV calendar; calbridge keeps retrying by itself.`,
      todo: 'If the number does not go down, read the server’s answer and check that the account may change events in that calendar.',
      ...(typeof first?.lastError === 'string' ? { detail: `The CalDAV server said: ${first.lastError}` } : {}),
    },
  ];
}

/** Every problem, the most serious first: not ready, then Google refusing us, then warnings. */
export function pageProblems(readiness: OverallReadiness, status: Record<string, unknown>): PageProblem[] {
  const google = googleProblems(status);
  const reasons = readiness.reasons.map((r) => ({
    text: `calbridge cannot take traffic: ${sentence(r).replace(/^./, (c) => c.toLowerCase())}`,
    todo: 'Webhooks and feeds are refused until this is fixed; the log says more.',
  }));
  // The writer's readiness says the same as our auth problem, in fewer words about the fix.
  // A CalDAV setup mistake is told once, with its fix: the warnings it causes (its own, the failing rounds) are not repeated.
  const setupShown = caldavSetupProblem(status) !== undefined;
  const warnings = readiness.warnings
    .filter((w) => !(google.authShown && w.includes('google auth')))
    .filter((w) => !(setupShown && (w.includes('caldav.setup_problem') || w.startsWith('CalDAV reverse sync: the last round failed') || w.startsWith('the CalDAV server has not answered'))))
    .map((w) => ({ text: sentence(w), ...(POINTER.test(w) ? { todo: 'The details are below.' } : {}) }));
  const [auth, failures] = google.authShown ? [google.problems, []] : [[], google.problems];
  const caldav = caldavProblems(status);
  return setupShown ? [...reasons, ...auth, ...caldav, ...warnings, ...failures] : [...reasons, ...auth, ...warnings, ...failures, ...caldav];
}
