// The page shows feed URLs on purpose and nothing else secret: whatever a part puts in its status,
// the configured secrets never reach the HTML.
import type { Config } from '../../config/schema.ts';
import { maskSecrets } from '../../config/mask.ts';

const MASK = '********';

/** Every configured secret except the feed tokens (the page exists to hand those out). */
export function configuredSecrets(config: Config): string[] {
  const c = config.google?.credentials;
  return [config.booking.token, config.webhook.secret, config.webhook.previous_secret, config.webhook.auth_token, config.server.admin_token, c?.client_secret, c?.refresh_token].filter(
    (s): s is string => typeof s === 'string' && s !== '',
  );
}

function scrub(value: unknown, secrets: string[]): unknown {
  if (typeof value === 'string') return secrets.reduce((text, s) => text.split(s).join(MASK), value);
  if (Array.isArray(value)) return value.map((v) => scrub(v, secrets));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v, secrets)]));
  return value;
}

/** Values under secret-named keys masked, and any configured secret masked wherever it appears. */
export function redactStatus(doc: Record<string, unknown>, secrets: string[]): Record<string, unknown> {
  return scrub(maskSecrets(doc), secrets) as Record<string, unknown>;
}
