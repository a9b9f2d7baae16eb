// webhook.register at serve start (docs/reference/configuration.md, "Webhook registration"): the registration use case (booking/
// webhook-registration.ts) tried once the server listens, and again with growing waits until it
// succeeds. Registration is a convenience (the poll finds every change anyway), so it never stops
// serve. What it did is kept in the database, so the one-shot `status` command shows it too.
import { errorMessage } from '../core/errors.ts';
import { maskUrlSecret } from '../log.ts';
import { callbackUrl, ensureWebhook, publicUrlProblem, type EnsureResult } from '../booking/webhook-registration.ts';
import type { Part } from './part.ts';
import type { Services } from './services.ts';

interface RegistrationState {
  state: 'disabled' | 'pending' | 'registered' | 'skipped' | 'failed';
  action?: EnsureResult['action'];
  webhook_key?: string;
  callback_url?: string;
  error?: string;
  at?: string;
}

const RETRY_MS = [30_000, 60_000, 120_000, 300_000];

export function createWebhookRegistrationPart(s: Services): Part {
  const { config } = s;
  const log = s.log.child({ module: 'webhook-registration' });
  const secret = config.webhook.secret;
  const masked = maskUrlSecret(callbackUrl(config.server.public_url, secret), secret);
  const CURSOR = 'webhook.registration';
  const initial: RegistrationState = { state: config.webhook.register ? 'pending' : 'disabled', callback_url: masked };
  let status: RegistrationState = initial;
  const record = (next: RegistrationState) => {
    status = next;
    s.cursors.set(CURSOR, next);
  };
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const attempt = async (n: number): Promise<void> => {
    try {
      const r = await ensureWebhook(s.booking, {
        publicUrl: config.server.public_url,
        secret,
        events: config.webhook.events,
        previousSecret: config.webhook.previous_secret,
      });
      record({
        state: 'registered',
        action: r.action,
        webhook_key: r.webhook.webhook_key,
        callback_url: masked,
        at: new Date(s.clock.now()).toISOString(),
      });
      log.info({ action: r.action, removed: r.removed, webhook: masked }, 'webhook registration ensured');
    } catch (e) {
      const error = maskUrlSecret(errorMessage(e), secret);
      record({ state: 'failed', callback_url: masked, error, at: new Date(s.clock.now()).toISOString() });
      // Registration is a convenience: the poll still finds every change, so serve keeps running.
      log.warn(
        { error, retryInMs: RETRY_MS[Math.min(n, RETRY_MS.length - 1)] },
        'webhook registration failed; polling still covers changes',
      );
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
    status: () => ({
      webhook_registration: {
        register: config.webhook.register,
        ...(started ? status : (s.cursors.get<RegistrationState>(CURSOR) ?? initial)),
      },
    }),
    // Warnings in our own words: why it was skipped is ours (the config), why it failed is the booking
    // service's text, which stays in status.
    readiness: () => ({
      reasons: [],
      warnings:
        status.state === 'skipped'
          ? [{ text: `webhook registration skipped: ${status.error ?? ''}` }]
          : status.state === 'failed'
            ? [{ text: 'webhook registration failed; the poll still finds every change', see: 'webhook_registration' }]
            : [],
    }),
  };
}
