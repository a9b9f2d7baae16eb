// What alerts (docs/reference/behaviour.md, "Alerts"), read from the status document the parts
// already report: an account's credentials refused, the booking API failing, writes to a target
// failing, a breaker holding, push renewal failing, the database not writable. Each problem is a
// key and a sentence in our words (what broke, what to do); an upstream's own text never goes in,
// since it can name accounts or echo what we sent. This file is the one adapter from status to
// problems: when the status document gets its typed schema, only this file changes.
import type { Problem } from '../core/alerts/decide.ts';
import { testingTrapDays } from '../core/alerts/testing-trap.ts';
import type { Messages } from '../core/i18n/index.ts';

/** What the alerts read besides the status document. */
export interface ProblemFacts {
  /** The whole status document (`status`, /api/status). */
  status: Record<string, unknown>;
  /** Why the database cannot be written, if it cannot (store/write-check.ts). */
  databaseProblem: string | undefined;
  /** When the Google refresh token in use was issued, where known (stored by `google auth`). */
  googleTokenIssuedAt: number | null;
  now: number;
  /** The sentences, in server.locale. */
  words: Messages['alerts'];
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const ms = (v: unknown): number | null => (typeof v === 'string' ? Date.parse(v) : null);

/** The single-account form is the account named `default` (per-account keys are `google.ana.auth`). */
const ACCOUNT = 'default';

export function alertProblems(f: ProblemFacts): Problem[] {
  const problems: Problem[] = [];
  const status = f.status;
  const w = f.words;

  if (f.databaseProblem) {
    problems.push({ key: 'db.writable', sentence: w.dbWritable });
  }

  const ingest = obj(status['ingest']);
  const api = obj(ingest?.['booking_api']);
  const apiError = obj(api?.['last_error']);
  const lastOk = ms(api?.['last_ok_at']);
  const errorAt = ms(apiError?.['at']);
  if (errorAt !== null && (lastOk === null || errorAt > lastOk)) {
    problems.push({ key: 'booking.api', sentence: w.bookingApi(lastOk === null ? null : new Date(lastOk).toISOString()) });
  }
  const held = num(obj(ingest?.['deletion_breaker'])?.['held']);
  if (held > 0) {
    problems.push({ key: 'booking.breaker', sentence: w.bookingBreaker(held) });
  }

  for (const kind of ['google', 'caldav', 'microsoft'] as const) {
    const section = obj(status[kind]);
    if (section?.['enabled'] !== true) continue;
    const prefix = `${kind}.${ACCOUNT}`;
    const auth = obj(section['auth']);
    const refused = auth?.['ok'] === false;
    if (refused) problems.push({ key: `${prefix}.auth`, sentence: kind === 'google' ? googleAuthSentence(str(auth['error']), str(auth['mode']), f) : kind === 'caldav' ? w.caldavAuth : w.microsoftAuth });
    const failed = num(section['failed']);
    // Refused credentials fail every write: one message about the cause, not two.
    if (!refused && failed > 0) {
      problems.push({ key: `${prefix}.writes`, sentence: w.writes(failed, kind) });
    }
    const breaker = obj(section['breaker']);
    if (breaker) {
      problems.push({ key: `${prefix}.breaker`, sentence: w.breaker(kind, num(breaker['deletes']), num(breaker['mirrored'])) });
    }
  }

  const push = obj(obj(status['reverse_sync'])?.['push']);
  if (push?.['enabled'] === true && num(push['channels_active']) === 0) {
    problems.push({ key: `google.${ACCOUNT}.push`, sentence: w.push(str(push['address']) ?? 'public_url') });
  }
  const graph = obj(obj(status['microsoft'])?.['push']);
  if (graph?.['on'] === true && graph['lastError']) problems.push({ key: `microsoft.${ACCOUNT}.push`, sentence: w.microsoftPush });
  return problems;
}

function googleAuthSentence(error: string | undefined, mode: string | undefined, f: ProblemFacts): string {
  if (mode === 'service_account') return f.words.googleServiceAccount;
  const days = error?.includes('invalid_grant') ? testingTrapDays(f.googleTokenIssuedAt, f.now) : null;
  return days === null ? f.words.googleAuth : f.words.googleTestingTrap(days);
}
