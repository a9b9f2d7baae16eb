// Google's errors translated at the boundary into the calendar target's failure kinds (core/mirror/target.ts).
// Nothing outside src/google sees a GaxiosError.
import { TargetError, type TargetErrorKind } from '../core/mirror/target.ts';
import { OffOriginError } from '../net/origin.ts';

/** The kinds of the port's TargetError, which GoogleError is (its status and reason added). */
export type GoogleErrorKind = TargetErrorKind;

export class GoogleError extends TargetError {
  override name = 'GoogleError';
  constructor(
    kind: GoogleErrorKind,
    message: string,
    status?: number,
    readonly reason?: string,
  ) {
    super(kind, message, status);
  }
}

export const isRetryable = (e: GoogleError): boolean => e.kind === 'rate_limited' || e.kind === 'transient';

/** What to tell a person when authorisation fails: the usual causes and the fix. */
export const AUTH_HELP =
  'Google refused our credentials (invalid_grant: access revoked, the refresh token unused for 6 months, ' +
  'or an OAuth app left in "Testing", whose tokens expire after 7 days). Run `calbridge google auth` again ' +
  '(publish the OAuth app to "In production" to stop the 7-day expiry), or check the service account key and calendar sharing.';

interface ErrorShape {
  message?: string;
  code?: string | number;
  status?: number;
  response?: { status?: number; data?: unknown };
}

function reasonOf(data: unknown): { reason?: string; message?: string; oauth?: string } {
  if (!data || typeof data !== 'object') return {};
  const d = data as { error?: unknown; error_description?: string };
  if (typeof d.error === 'string') return { oauth: d.error, message: d.error_description ?? d.error };
  const inner = d.error as { message?: string; errors?: { reason?: string }[] } | undefined;
  return { reason: inner?.errors?.[0]?.reason, message: inner?.message };
}

const NETWORK = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED', 'UND_ERR_SOCKET']);

export function translateGoogleError(e: unknown): GoogleError {
  if (e instanceof GoogleError) return e;
  // A redirect or address off the configured origin: nothing was sent there; retrying will not help.
  const off = e instanceof OffOriginError ? e : e instanceof Error && e.cause instanceof OffOriginError ? e.cause : undefined;
  if (off) return new GoogleError('invalid', off.message);
  const err = (e ?? {}) as ErrorShape;
  const status = err.response?.status ?? (typeof err.status === 'number' ? err.status : undefined);
  const { reason, message, oauth } = reasonOf(err.response?.data);
  const text = message ?? err.message ?? String(e);
  if (
    oauth === 'invalid_grant' ||
    oauth === 'invalid_client' ||
    oauth === 'unauthorized_client' ||
    /invalid_grant/.test(err.message ?? '')
  ) {
    return new GoogleError('auth', `${oauth ?? 'invalid_grant'}: ${text}`, status, oauth ?? 'invalid_grant');
  }
  if (status === undefined) {
    const code = String(err.code ?? '');
    const network = NETWORK.has(code) || /socket|network|fetch failed|timeout|ECONN/i.test(err.message ?? '');
    return new GoogleError(network ? 'transient' : 'invalid', `no answer from Google: ${text}`);
  }
  const at = (kind: GoogleErrorKind) =>
    new GoogleError(kind, `Google answered ${status}${reason ? ` ${reason}` : ''}: ${text}`, status, reason);
  if (status === 429) return at('rate_limited');
  if (status === 403) {
    if (reason === 'rateLimitExceeded' || reason === 'userRateLimitExceeded') return at('rate_limited');
    if (reason === 'quotaExceeded' || reason === 'dailyLimitExceeded') return at('quota_exceeded');
    return at('forbidden');
  }
  if (status === 401) return at('auth');
  if (status === 404) return at('not_found');
  if (status === 410) return at('gone');
  if (status === 409) return at('conflict');
  if (status === 412) return at('precondition_failed');
  if (status >= 500 || status === 408) return at('transient');
  return at('invalid');
}
