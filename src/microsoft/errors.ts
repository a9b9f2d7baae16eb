// Graph's and the identity platform's answers, translated at the boundary into the target port's
// error kinds. The expected outcomes of conditional requests (412 on If-Match, 404 on a read) are
// results of the operations (graph-target.ts), not errors; these are what is left.
import { TargetError, type TargetErrorKind } from '../core/mirror/target.ts';
import { retryAfterMs } from '../net/rate-limit.ts';

export class GraphError extends TargetError {
  override name = 'GraphError';
  constructor(
    kind: TargetErrorKind,
    message: string,
    status?: number,
    /** Graph's error code (`ErrorItemNotFound`, `syncStateNotFound`, `invalid_grant` ...). */
    readonly code?: string,
    /** How long Graph asked this mailbox to wait (429, 503), capped. */
    readonly retryAfterMs?: number,
  ) {
    super(kind, message, status);
  }
}

/** The fix for credentials Microsoft refused, in one sentence. */
export const AUTH_HELP =
  'run `calbridge microsoft auth` again for a delegated account, or check microsoft.credentials.client_secret (secrets expire; make a new one under Certificates & secrets) and that an admin granted consent for an app-only one';

export const isRetryable = (e: GraphError): boolean => e.kind === 'rate_limited' || e.kind === 'transient';

interface GraphErrorBody {
  error?: { code?: string; message?: string } | string;
  error_description?: string;
}

function said(body: string | null): { code?: string; message?: string } {
  try {
    const b = JSON.parse(body ?? '') as GraphErrorBody;
    if (typeof b.error === 'string') return { code: b.error, message: b.error_description?.split('\r\n')[0] };
    return { code: b.error?.code, message: b.error?.message };
  } catch {
    return {};
  }
}

export interface Answer {
  status: number;
  header(name: string): string | undefined;
  text: string | null;
}

/** What a non-2xx answer means; `what` names the request ("PATCH /v1.0/me/events/{id}"). */
export function errorFromAnswer(what: string, answer: Answer, now: number): GraphError {
  const { status } = answer;
  const { code, message } = said(answer.text);
  const text = `${what}: Microsoft Graph answered ${status}${code ? ` ${code}` : ''}${message ? ` (${message})` : ''}`;
  const wait = retryAfterMs(answer.header('retry-after') ?? null, now);
  const kind: TargetErrorKind =
    status === 429 || (status === 503 && wait !== undefined)
      ? 'rate_limited'
      : status === 401 || code === 'invalid_grant' || code === 'invalid_client' || code === 'unauthorized_client'
        ? 'auth'
        : status >= 500 || status === 408
          ? 'transient'
          : status === 403
            ? 'forbidden'
            : status === 404
              ? 'not_found'
              : status === 410
                ? 'gone'
                : status === 412
                  ? 'precondition_failed'
                  : status === 409
                    ? 'conflict'
                    : 'invalid';
  return new GraphError(kind, kind === 'auth' ? `${text}; ${AUTH_HELP}` : text, status, code, wait);
}

const NETWORK = /ECONNRESET|ECONNREFUSED|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|ECONNABORTED|socket|network|timeout|aborted|cut off/i;

/** A request that got no answer: refused, reset, timed out. Worth another try. */
export function errorFromFailure(what: string, e: unknown): GraphError {
  if (e instanceof GraphError) return e;
  const err = e as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  const detail = err.cause?.code ?? err.cause?.message ?? err.message ?? String(e);
  const reason = err.name === 'TimeoutError' ? 'no answer in time' : detail;
  return new GraphError(
    NETWORK.test(`${err.name} ${err.message} ${detail}`) ? 'transient' : 'invalid',
    `${what}: no answer from Microsoft: ${reason}`,
  );
}
