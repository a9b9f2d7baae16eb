// webhook.register (contract §2): exactly one webhook at the booking service for
// {public_url}/webhooks/{secret}/ with the configured events. Idempotent: a second run changes nothing.
import type { Context } from '../context.ts';
import type { Part } from '../part.ts';
import { UserError, errorMessage } from '../core/errors.ts';
import { maskUrlSecret } from '../log.ts';
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

interface RegistrationState {
  state: 'disabled' | 'pending' | 'registered' | 'skipped' | 'failed';
  action?: EnsureResult['action'];
  webhook_key?: string;
  callback_url?: string;
  error?: string;
  at?: string;
}

const RETRY_MS = [30_000, 60_000, 120_000, 300_000];

export function createWebhookPart(ctx: Context): Part {
  const { config, log } = ctx;
  const secret = config.webhook.secret;
  const masked = maskUrlSecret(callbackUrl(config.server.public_url, secret), secret);
  // Kept in the database too, so the one-shot `status` command shows what serve last did.
  const CURSOR = 'webhook.registration';
  const initial: RegistrationState = { state: config.webhook.register ? 'pending' : 'disabled', callback_url: masked };
  let status: RegistrationState = initial;
  const record = (next: RegistrationState) => {
    status = next;
    ctx.cursors.set(CURSOR, next);
  };
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const attempt = async (n: number): Promise<void> => {
    try {
      const r = await ensureWebhook(ctx.booking, { publicUrl: config.server.public_url, secret, events: config.webhook.events, previousSecret: config.webhook.previous_secret });
      record({ state: 'registered', action: r.action, webhook_key: r.webhook.webhook_key, callback_url: masked, at: new Date(ctx.clock.now()).toISOString() });
      log.info({ action: r.action, removed: r.removed, webhook: masked }, 'webhook registration ensured');
    } catch (e) {
      const error = maskUrlSecret(errorMessage(e), secret);
      record({ state: 'failed', callback_url: masked, error, at: new Date(ctx.clock.now()).toISOString() });
      // Registration is a convenience: the poll still finds every change, so serve keeps running.
      log.warn({ error, retryInMs: RETRY_MS[Math.min(n, RETRY_MS.length - 1)] }, 'webhook registration failed; polling still covers changes');
      if (!stopped) timer = setTimeout(() => void attempt(n + 1), RETRY_MS[Math.min(n, RETRY_MS.length - 1)]).unref();
    }
  };

  return {
    name: 'webhook_registration',
    async start() {
      started = true;
      if (!config.webhook.register) return record(initial);
      const problem = publicUrlProblem(config.server.public_url);
      if (problem) {
        record({ state: 'skipped', callback_url: masked, error: problem });
        log.warn(`webhook registration skipped: ${problem}`);
        return;
      }
      await attempt(0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
    // In serve, what this process did; in a one-shot command, what serve last recorded.
    status: () => ({ register: config.webhook.register, ...(started ? status : (ctx.cursors.get<RegistrationState>(CURSOR) ?? initial)) }),
    readiness: () => ({
      reasons: [],
      warnings: status.state === 'failed' || status.state === 'skipped' ? [`webhook registration ${status.state}: ${status.error ?? ''}`] : [],
    }),
  };
}
