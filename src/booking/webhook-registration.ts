// webhook.register (docs/reference/configuration.md, "Webhook registration"): exactly one webhook at the booking service for
// {public_url}/webhooks/{secret}/ with the configured events. Idempotent: a second run changes nothing.
// A use case over the booking port: `webhooks ensure` calls it, and serve's registration part
// (wiring/webhook-registration-part.ts) calls it at start and again until it succeeds.
import { UserError } from '../core/errors.ts';
import type { BookingApi, Webhook } from './port.ts';

export interface WebhookTarget {
  publicUrl: string;
  secret: string;
  events: string[];
  /** A rotation's old secret: a webhook at its URL is ours too, moved to the new URL. */
  previousSecret?: string;
}

export interface EnsureResult {
  action: 'created' | 'updated' | 'unchanged';
  webhook: Webhook;
  /** Extra webhooks with our URL that were deleted. */
  removed: number;
  callbackUrl: string;
}

/** The secret is one path segment, encoded: a base64 secret may hold `/`, `+` or `=`. */
export function callbackUrl(publicUrl: string, secret: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/webhooks/${encodeURIComponent(secret)}/`;
}

/** Why this public URL cannot be registered, or undefined when it can. */
export function publicUrlProblem(publicUrl: string): string | undefined {
  if (/^https:\/\//i.test(publicUrl)) return undefined;
  return `server.public_url (${publicUrl}) is not https://, and the booking service only calls HTTPS callbacks; put the daemon behind TLS and set an https:// public_url, or register the webhook by hand`;
}

const sameUrl = (a: string, b: string): boolean => {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
};

const sameEvents = (a: string[], b: string[]): boolean => {
  const x = [...new Set(a)].sort();
  const y = [...new Set(b)].sort();
  return x.length === y.length && x.every((e, i) => e === y[i]);
};

export async function ensureWebhook(api: BookingApi, target: WebhookTarget): Promise<EnsureResult> {
  const problem = publicUrlProblem(target.publicUrl);
  if (problem) throw new UserError(problem);
  const url = callbackUrl(target.publicUrl, target.secret);
  const old = target.previousSecret ? callbackUrl(target.publicUrl, target.previousSecret) : undefined;
  // Ours: at the current URL first, then any left at the previous secret's URL (to be moved).
  const hooks = await api.listWebhooks();
  const ours = [...hooks.filter((w) => sameUrl(w.url, url)), ...hooks.filter((w) => old !== undefined && sameUrl(w.url, old))];
  const [first, ...extra] = ours;
  let action: EnsureResult['action'];
  let webhook: Webhook;
  if (!first) {
    action = 'created';
    webhook = await api.createWebhook(url, target.events);
  } else if (!sameEvents(first.events, target.events) || first.url !== url) {
    action = 'updated';
    webhook = await api.updateWebhook(first.webhook_key, url, target.events);
  } else {
    action = 'unchanged';
    webhook = first;
  }
  for (const w of extra) await api.deleteWebhook(w.webhook_key);
  return { action, webhook, removed: extra.length, callbackUrl: url };
}
