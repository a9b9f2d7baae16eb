// What alerts (docs/reference/behaviour.md, "Alerts"), read from the status document the parts
// already report: an account's credentials refused, the booking API failing, writes to a target
// failing, a breaker holding, push renewal failing, the database not writable. Each problem is a
// key and a sentence in our words (what broke, what to do); an upstream's own text never goes in,
// since it can name accounts or echo what we sent. This file is the one adapter from status to
// problems: when the status document gets its typed schema, only this file changes.
import type { Problem } from '../core/alerts/decide.ts';
import { testingTrapDays } from '../core/alerts/testing-trap.ts';

/** What the alerts read besides the status document. */
export interface ProblemFacts {
  /** The whole status document (`status`, /api/status). */
  status: Record<string, unknown>;
  /** Why the database cannot be written, if it cannot (store/write-check.ts). */
  databaseProblem: string | undefined;
  /** When the Google refresh token in use was issued, where known (stored by `google auth`). */
  googleTokenIssuedAt: number | null;
  now: number;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const ms = (v: unknown): number | null => (typeof v === 'string' ? Date.parse(v) : null);
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

const MODES = { google: 'Google Calendar', caldav: 'the CalDAV calendar' } as const;

/** The single-account form is the account named `default` (per-account keys are `google.ana.auth`). */
const ACCOUNT = 'default';

export function alertProblems(f: ProblemFacts): Problem[] {
  const problems: Problem[] = [];
  const status = f.status;

  if (f.databaseProblem) {
    problems.push({ key: 'db.writable', sentence: 'calbridge cannot write its database, so nothing new is stored or mirrored: check the disk space and the file permissions of database.path, then restart calbridge.' });
  }

  const ingest = obj(status['ingest']);
  const api = obj(ingest?.['booking_api']);
  const apiError = obj(api?.['last_error']);
  const lastOk = ms(api?.['last_ok_at']);
  const errorAt = ms(apiError?.['at']);
  if (errorAt !== null && (lastOk === null || errorAt > lastOk)) {
    problems.push({
      key: 'booking.api',
      sentence: `The booking API is failing${lastOk === null ? '' : ` (last good answer ${new Date(lastOk).toISOString()})`}, so new and changed appointments are not read: check booking.base_url, booking.token and whether the booking service is up.`,
    });
  }
  const held = num(obj(ingest?.['deletion_breaker'])?.['held']);
  if (held > 0) {
    problems.push({
      key: 'booking.breaker',
      sentence: `The deletion breaker holds ${plural(held, 'appointment', 'appointments')} the booking service says are gone, more than poll.max_gone_per_hour: check the booking service; if they are really gone, run \`calbridge sync --allow-mass-changes\` once.`,
    });
  }

  for (const kind of ['google', 'caldav'] as const) {
    const section = obj(status[kind]);
    if (section?.['enabled'] !== true) continue;
    const prefix = `${kind}.${ACCOUNT}`;
    const auth = obj(section['auth']);
    const refused = auth?.['ok'] === false;
    if (refused) problems.push({ key: `${prefix}.auth`, sentence: kind === 'google' ? googleAuthSentence(str(auth['error']), str(auth['mode']), f) : caldavAuthSentence() });
    const failed = num(section['failed']);
    // Refused credentials fail every write: one message about the cause, not two.
    if (!refused && failed > 0) {
      problems.push({ key: `${prefix}.writes`, sentence: `${plural(failed, 'appointment', 'appointments')} could not be written to ${MODES[kind]} and are being retried: the reasons are on the status page.` });
    }
    const breaker = obj(section['breaker']);
    if (breaker) {
      problems.push({
        key: `${prefix}.breaker`,
        sentence: `The ${kind === 'google' ? 'Google' : 'CalDAV'} breaker holds ${plural(num(breaker['deletes']), 'deletion', 'deletions')} of ${num(breaker['mirrored'])} mirrored events: check the booking service; if they are real, run \`calbridge sync --allow-mass-changes\` once.`,
      });
    }
  }

  const push = obj(obj(status['reverse_sync'])?.['push']);
  if (push?.['enabled'] === true && num(push['channels_active']) === 0) {
    problems.push({
      key: `google.${ACCOUNT}.push`,
      sentence: `No Google push channel is open (renewing them fails), so changes made in Google Calendar arrive only on the reverse sync's schedule: check that ${str(push['address']) ?? 'the push address'} is reachable from the internet over https.`,
    });
  }
  return problems;
}

function googleAuthSentence(error: string | undefined, mode: string | undefined, f: ProblemFacts): string {
  if (mode === 'service_account') {
    return 'Google refused the service account: check the key file in google.credentials.service_account_file and that each calendar is shared with the service account.';
  }
  const days = error?.includes('invalid_grant') ? testingTrapDays(f.googleTokenIssuedAt, f.now) : null;
  if (days !== null) {
    return (
      `Google refused calbridge's sign-in ${days} days after it was given: the OAuth app is in "Testing", whose sign-ins expire after 7 days. ` +
      'Publish the OAuth consent screen (Google Cloud console, OAuth consent screen, "Publish app") and run `calbridge google auth` again.'
    );
  }
  return "Google refused calbridge's sign-in (access revoked, or the sign-in expired): run `calbridge google auth` again to connect the Google account.";
}

function caldavAuthSentence(): string {
  return 'The CalDAV server refused the username and password: make a new app password for the account and put it in caldav.password.';
}
