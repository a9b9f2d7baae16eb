// CalDAV answers translated at the boundary into a few kinds the caller decides on. The expected
// outcomes of conditional requests (a 412 on create or update, a 404 on read) are results of the
// operations, not errors; these are what is left.
import { retryAfterMs } from '../net/rate-limit.ts';
import { child, childText, DAV, CALDAV, parseXml, type XmlElement } from './xml.ts';

export type CalDavErrorKind =
  | 'auth' // 401: wrong username or password (an account password where an app password is needed)
  | 'forbidden' // 403: no right to this calendar or object
  | 'not_found' // 404/410 where something had to exist (a collection, a configured calendar URL)
  | 'not_caldav' // the URL does not answer like a CalDAV server
  | 'calendar_not_found' // discovery worked; no calendar matches the configured one
  | 'precondition_failed' // 412 where no operation expects one
  | 'uid_conflict' // another resource of the collection holds this UID (RFC 4791 no-uid-conflict; Nextcloud's trash bin)
  | 'rate_limited' // 429, or 503 with Retry-After: back off and retry
  | 'transient' // other 5xx, 408, network errors, timeouts
  | 'inside_network' // an account connected by a link named an address inside this network: nothing was sent (net/address-guard.ts)
  | 'invalid'; // 400 and other 4xx: the server refused our request; retrying will not help

export class CalDavError extends Error {
  override name = 'CalDavError';
  constructor(
    readonly kind: CalDavErrorKind,
    message: string,
    readonly status?: number,
    /** How long the server asked us to wait (rate_limited), clamped to MAX_RETRY_AFTER_MS. */
    readonly retryAfterMs?: number,
    /** uid_conflict: the resource that already holds the UID, when the server names it. */
    readonly href?: string,
  ) {
    super(message);
  }
}

export const isRetryable = (e: CalDavError): boolean => e.kind === 'rate_limited' || e.kind === 'transient';

/** A Retry-After longer than this is read as this: a server's hour-long ban must not park a worker for an hour. */
export const MAX_RETRY_AFTER_MS = 15 * 60_000;

export const AUTH_HELP =
  'check caldav.username and the password: iCloud and Fastmail need an app-specific password, not the account password ' +
  '(and resetting an Apple ID password revokes every app-specific one); Nextcloud with two-factor login needs an app password too';

/** What errorFromAnswer reads of a CalDAV server's answer. */
export interface FailedAnswer {
  status: number;
  header(name: string): string | undefined;
  body: string;
}

/** What a non-2xx answer means; `what` names the request ("PUT /cal/x.ics"). */
export function errorFromAnswer(what: string, answer: FailedAnswer, now: number): CalDavError {
  const { status } = answer;
  const said = serverMessage(answer.body);
  const text = `${what}: the server answered ${status}${said ? ` (${said})` : ''}`;
  const conflict = uidConflict(answer.body, said);
  if (conflict)
    return new CalDavError(
      'uid_conflict',
      `${text}: another object of this calendar already has this UID`,
      status,
      undefined,
      conflict.href,
    );
  const wait = retryAfterMs(answer.header('retry-after') ?? null, now, MAX_RETRY_AFTER_MS);
  if (status === 429 || (status === 503 && wait !== undefined)) {
    return new CalDavError('rate_limited', text, status, Math.min(wait ?? 0, MAX_RETRY_AFTER_MS));
  }
  if (status === 401) return new CalDavError('auth', `${what}: the server refused the username and password (401); ${AUTH_HELP}`, status);
  if (status >= 500 || status === 408) return new CalDavError('transient', text, status);
  if (status === 403) return new CalDavError('forbidden', text, status);
  if (status === 404 || status === 410) return new CalDavError('not_found', text, status);
  if (status === 412) return new CalDavError('precondition_failed', text, status);
  return new CalDavError('invalid', text, status);
}

const NETWORK =
  /ECONNRESET|ECONNREFUSED|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|ECONNABORTED|UND_ERR|socket|fetch failed|network|timeout|aborted/i;

/** A request that got no answer: refused, reset, timed out. Always worth another try later. */
export function errorFromFailure(what: string, e: unknown): CalDavError {
  if (e instanceof CalDavError) return e;
  const err = e as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  const detail = err.cause?.code ?? err.cause?.message ?? err.message ?? String(e);
  const reason = err.name === 'TimeoutError' ? 'no answer in time' : detail;
  return new CalDavError(
    NETWORK.test(`${err.name} ${err.message} ${detail}`) ? 'transient' : 'invalid',
    `${what}: no answer from the server: ${reason}`,
  );
}

/** RFC 4918 §16 error bodies carry a precondition element; SabreDAV adds <s:message>. */
function errorElement(body: string): XmlElement | undefined {
  if (!body.trimStart().startsWith('<')) return undefined;
  try {
    const root = parseXml(body);
    return root.ns === DAV && root.name === 'error' ? root : undefined;
  } catch {
    return undefined;
  }
}

/** A short human message from the server, if it gave one. */
function serverMessage(body: string): string | undefined {
  const el = errorElement(body);
  const sabre = el?.children.find((c) => c.name === 'message')?.text.trim();
  if (sabre) return sabre.slice(0, 200);
  const first = el?.children[0];
  if (first) return `${first.ns === DAV ? 'DAV:' : ''}${first.name}`;
  return undefined;
}

function uidConflict(body: string, said: string | undefined): { href?: string } | undefined {
  const el = errorElement(body);
  const precondition = child(el, CALDAV, 'no-uid-conflict');
  if (precondition) return { href: childText(precondition, DAV, 'href') ?? undefined };
  // Nextcloud refuses a create while a deleted object with this UID sits in its trash bin (400).
  if (said && /uid already exists/i.test(said)) return {};
  return undefined;
}

/** Whether an error body names this precondition (e.g. DAV:valid-sync-token). */
export function namesPrecondition(body: string, ns: string, name: string): boolean {
  return child(errorElement(body), ns, name) !== undefined;
}
