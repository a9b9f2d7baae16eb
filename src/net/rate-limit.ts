// Rate-limit headers read defensively. Whatever a server or a proxy in front of it sends, no wait it
// asks for parks a request, later requests or a delivery for longer than a cap: a bad header can
// slow calbridge down for minutes, never stop it until a restart. Pure.

/** The longest wait any header can impose; beyond it the request is simply tried again. */
export const MAX_RATE_LIMIT_WAIT_MS = 5 * 60_000;

const clamp = (ms: number, capMs: number) => Math.min(Math.max(0, ms), capMs);

/**
 * Retry-After (RFC 9110 §10.2.3): delay-seconds, or an HTTP date (which always names a weekday or a
 * month, so bare digits are never read as a date). Clamped to [0, capMs]; undefined when unreadable.
 */
export function retryAfterMs(header: string | null, now: number, capMs = MAX_RATE_LIMIT_WAIT_MS): number | undefined {
  const t = header?.trim();
  if (!t) return undefined;
  if (/^\d+(\.\d+)?$/.test(t)) return clamp(Number(t) * 1000, capMs);
  if (!/[A-Za-z]/.test(t)) return undefined;
  const at = Date.parse(t);
  return Number.isNaN(at) ? undefined : clamp(at - now, capMs);
}

// X-RateLimit-Reset comes in three kinds, told apart by magnitude. 1e11 as epoch milliseconds is 1973
// and as epoch seconds the year 5138, so anything above it is epoch milliseconds; 1e8 as epoch
// seconds is 1973 and as a wait more than three years, so anything above it (and below 1e11) is epoch
// seconds; smaller values are seconds to wait.
const EPOCH_MS_ABOVE = 1e11;
const EPOCH_SECONDS_ABOVE = 1e8;

/** When the rate-limit window resets (epoch ms), at most capMs from now; undefined when unreadable or past. */
export function rateLimitResetAt(header: string | null, now: number, capMs = MAX_RATE_LIMIT_WAIT_MS): number | undefined {
  const t = header?.trim();
  if (!t || !/^\d+(\.\d+)?$/.test(t)) return undefined;
  const value = Number(t);
  const at = value > EPOCH_MS_ABOVE ? value : value > EPOCH_SECONDS_ABOVE ? value * 1000 : now + value * 1000;
  return at > now ? now + clamp(at - now, capMs) : undefined;
}
