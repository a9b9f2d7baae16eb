// Google's errors translated at the boundary into a few kinds the writer decides on.
// Nothing outside src/google sees a GaxiosError.

export type GoogleErrorKind =
  | 'rate_limited' // 429, 403 rateLimitExceeded / userRateLimitExceeded: back off and retry
  | 'quota_exceeded' // 403 quotaExceeded (calendar usage limits): back off for a long time
  | 'not_found' // 404
  | 'gone' // 410 (deleted, or a sync token that is used up)
  | 'conflict' // 409 duplicate id
  | 'precondition_failed' // 412 If-Match
  | 'forbidden' // 403 other (e.g. Google refuses to revive a deleted event)
  | 'auth' // invalid_grant, 401 after refresh, missing credentials
  | 'transient' // 5xx, network, timeouts
  | 'invalid'; // 400 and anything else: our request is wrong; retrying will not help

export class GoogleError extends Error {
  override name = 'GoogleError';
  constructor(
    readonly kind: GoogleErrorKind,
    message: string,
    readonly status?: number,
    readonly reason?: string,
  ) {
    super(message);
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
  const err = (e ?? {}) as ErrorShape;
  const status = err.response?.status ?? (typeof err.status === 'number' ? err.status : undefined);
  const { reason, message, oauth } = reasonOf(err.response?.data);
  const text = message ?? err.message ?? String(e);
  if (oauth === 'invalid_grant' || oauth === 'invalid_client' || oauth === 'unauthorized_client' || /invalid_grant/.test(err.message ?? '')) {
    return new GoogleError('auth', `${oauth ?? 'invalid_grant'}: ${text}`, status, oauth ?? 'invalid_grant');
  }
  if (status === undefined) {
    const code = String(err.code ?? '');
    const network = NETWORK.has(code) || /socket|network|fetch failed|timeout|ECONN/i.test(err.message ?? '');
    return new GoogleError(network ? 'transient' : 'invalid', `no answer from Google: ${text}`);
  }
  const at = (kind: GoogleErrorKind) => new GoogleError(kind, `Google answered ${status}${reason ? ` ${reason}` : ''}: ${text}`, status, reason);
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
