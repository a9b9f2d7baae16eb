// What alerts (docs/reference/behaviour.md, "Alerts"), read from the status document the parts
// already report: an account's credentials refused, the booking API failing, writes to a target
// failing, a breaker holding, push renewal failing, the database not writable. Each problem is a
// key and a sentence in our words (what broke, what to do); an upstream's own text never goes in,
// since it can name accounts or echo what we sent. This file is the one adapter from status to
// problems, read through the status document's types (status/status-document.ts).
import type { Problem } from '../core/alerts/decide.ts';
import { testingTrapDays } from '../core/alerts/testing-trap.ts';
import type { Messages } from '../core/i18n/index.ts';
import type { StatusDocument } from '../status/status-document.ts';
import { signInFix } from '../core/sign-in-fix.ts';

/** What the alerts read besides the status document. */
export interface ProblemFacts {
  /** The whole status document (`status`, /api/status). */
  status: StatusDocument;
  /** Why the database cannot be written, if it cannot (store/write-check.ts). */
  databaseProblem: string | undefined;
  /** When a Google account's refresh token in use was issued, where known (stored by `google auth`, or sealed with a connected account); a number: every account's. */
  googleTokenIssuedAt: number | null | ((account: string) => number | null);
  now: number;
  /** The sentences, in server.locale. */
  words: Messages['alerts'];
  /** A refused sign-in's fix, in server.locale (core/sign-in-fix.ts). */
  signIn: Messages['signIn'];
}

export function alertProblems(f: ProblemFacts): Problem[] {
  const problems: Problem[] = [];
  const status = f.status;
  const w = f.words;

  if (f.databaseProblem) {
    problems.push({ key: 'db.writable', sentence: w.dbWritable });
  }

  const api = status.ingest?.booking_api;
  const lastOk = api?.last_ok_at ? Date.parse(api.last_ok_at) : null;
  const errorAt = api?.last_error?.at ? Date.parse(api.last_error.at) : null;
  if (errorAt !== null && (lastOk === null || errorAt > lastOk)) {
    problems.push({ key: 'booking.api', sentence: w.bookingApi(lastOk === null ? null : new Date(lastOk).toISOString()) });
  }
  const held = status.ingest?.deletion_breaker.held ?? 0;
  if (held > 0) {
    problems.push({ key: 'booking.breaker', sentence: w.bookingBreaker(held) });
  }

  // Each account by its name (`google.default`, `caldav.bruno`): the key of its problems.
  for (const [account, section] of Object.entries(status.targets)) {
    const kind = section.kind;
    if (kind !== 'google' && kind !== 'caldav' && kind !== 'microsoft') continue;
    const refused = !section.auth.ok;
    if (refused) {
      const sentence =
        kind === 'google'
          ? googleAuthSentence(section.auth.error ?? undefined, section.auth.mode, account, f)
          : kind === 'caldav'
            ? w.caldavAuth
            : w.microsoftAuth;
      // One connected on the web is in no config: its sentence says so, and its fix is a new invite
      // (a Google one after publishing the app: the "Testing" trap catches connected sign-ins too).
      const days = kind === 'google' && section.connected ? trapDays(section.auth.error ?? undefined, account, f) : null;
      const why = days === null ? f.signIn.refusedConnected(kind) : f.signIn.googleTestingTrap(days);
      const told = section.connected ? `${why}. ${signInFix(section, '', f.signIn)}` : sentence;
      problems.push({ key: `${account}.auth`, sentence: named(account, signInFix({ account }, told, f.signIn)) });
    }
    // Refused credentials fail every write: one message about the cause, not two.
    if (!refused && section.failed > 0) {
      problems.push({ key: `${account}.writes`, sentence: named(account, w.writes(section.failed, kind)) });
    }
    if (section.breaker) {
      problems.push({
        key: `${account}.breaker`,
        sentence: named(account, w.breaker(kind, section.breaker.deletes, section.breaker.mirrored)),
      });
    }
    const reverse = section.reverse_sync;
    const push = reverse.enabled ? reverse.push : undefined;
    if (push?.enabled === true && push.channels_active === 0) {
      problems.push({ key: `${account}.push`, sentence: named(account, kind === 'microsoft' ? w.microsoftPush : w.push(push.address)) });
    }
  }
  return problems;
}

/** With several accounts of a kind, the sentence says whose ("google.ana: ..."); the single form's stays as it was. */
function named(account: string, sentence: string): string {
  return account.endsWith('.default') ? sentence : `${account}: ${sentence}`;
}

function googleAuthSentence(error: string | undefined, mode: string | undefined, account: string, f: ProblemFacts): string {
  if (mode === 'service_account') return f.words.googleServiceAccount;
  const days = trapDays(error, account, f);
  return days === null ? f.words.googleAuth : f.words.googleTestingTrap(days);
}

/** Days since the account's refresh token was issued, when Google's refusal fits the "Testing" trap; else null. */
function trapDays(error: string | undefined, account: string, f: ProblemFacts): number | null {
  const issuedAt = typeof f.googleTokenIssuedAt === 'function' ? f.googleTokenIssuedAt(account) : f.googleTokenIssuedAt;
  return error?.includes('invalid_grant') ? testingTrapDays(issuedAt, f.now) : null;
}
