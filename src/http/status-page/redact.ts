// Whatever a part puts in its status, no configured secret (and no document number a service
// echoed in an error) reaches the page, /api/status or `status --json`. (The page shows feed URLs on
// purpose, but builds them from the config, not from the status document.) The logger masks the
// same list of secrets in every line.
import type { Config } from '../../config/schema.ts';
import { maskSecrets } from '../../config/mask.ts';
import { maskLongNumbers } from '../../core/mask-numbers.ts';
import { maskUrlUserinfo } from '../../core/mask-userinfo.ts';

const MASK = '********';
/** Shorter values (a test's `token: t`) would mask every such letter in the text, not a secret. */
const MIN_MASKED = 8;

/** Every configured secret, feed tokens included. */
export function configuredSecrets(config: Config): string[] {
  const c = config.google?.credentials;
  const own = [
    ...(config.google?.accounts ?? []).flatMap((a) => [a.credentials.client_secret, a.credentials.refresh_token]),
    ...(config.caldav?.accounts ?? []).map((a) => a.password),
    ...(config.microsoft?.accounts ?? []).flatMap((a) => [a.credentials.client_secret, a.credentials.refresh_token]),
  ];
  return [
    ...own,
    config.microsoft?.credentials?.client_secret,
    config.microsoft?.credentials?.refresh_token,
    config.booking.token,
    config.webhook.secret,
    config.webhook.previous_secret,
    config.webhook.auth_token,
    config.server.admin_token,
    c?.client_secret,
    c?.refresh_token,
    config.caldav?.password,
    config.server.secret_key,
    config.connect?.google_client?.client_secret,
    config.connect?.microsoft_client?.client_secret,
    ...config.feeds.map((f) => f.token),
  ].filter((s): s is string => typeof s === 'string' && s.length >= MIN_MASKED);
}

/** Keys whose text comes from elsewhere (the booking service's or Google's words), and may echo a document number. */
const FOREIGN_TEXT = /detail|error|message|reason/i;

function scrub(value: unknown, secrets: readonly string[], key = ''): unknown {
  if (typeof value === 'string') {
    const text = maskUrlUserinfo(secrets.reduce((t, s) => t.split(s).join(MASK), value));
    return FOREIGN_TEXT.test(key) ? maskLongNumbers(text) : text;
  }
  if (Array.isArray(value)) return value.map((v) => scrub(v, secrets, key));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v, secrets, k)]));
  return value;
}

/**
 * Values under secret-named keys masked, any configured secret masked wherever it appears, and long
 * numbers (a document number, a phone) masked in the text other services sent.
 */
export function redactStatus<T extends object>(doc: T, secrets: readonly string[]): T {
  // Only strings change (masked in place): the document keeps its shape and its type.
  return scrub(maskSecrets(doc as Record<string, unknown>), secrets) as T;
}
