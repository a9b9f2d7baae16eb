// Alerts as a part of the daemon (docs/reference/behaviour.md, "Alerts"): the `alerts` job ticks
// every 30 seconds while `alerts:` is configured; the `alerts` section of status shows the problems
// that alert and the last messages sent, configured or not (so the Google "Testing" trap is named
// there even without a channel).
import { alertSenders } from '../alerts/senders.ts';
import { messagesFor } from '../core/i18n/index.ts';
import { refreshTokenIssuedAt } from '../google/auth.ts';
import { googleAccounts } from '../config/accounts.ts';
import { connectedTokenIssuedAt } from '../sync/connect/connected-accounts.ts';
import type { RetryPolicy } from '../net/retry-policy.ts';
import { alertProblems } from '../sync/alert-problems.ts';
import { Alerting } from '../sync/alerting.ts';
import { AlertStore } from '../store/alert-store.ts';
import type { StatusDocument } from '../status/status-document.ts';
import type { Part } from './part.ts';
import type { Services } from './services.ts';

const ALERT_TICK_MS = 30_000;

export interface AlertsPartDeps {
  /** The status document of every other part. */
  status(): StatusDocument;
  /** Why the database cannot be written, if it cannot. */
  databaseProblem(): string | undefined;
  /** Retries of one ntfy or webhook request (tests: fast). */
  retry?: RetryPolicy;
}

export function createAlertsPart(s: Services, d: AlertsPartDeps): Part {
  const cfg = s.config.alerts;
  // Each Google account's token says when it was issued (the Testing trap): a configured one's as
  // `google auth` stored it, a connected one's sealed with its credentials.
  const google = new Map(googleAccounts(s.config.google).map((a) => [`google.${a.name}`, a]));
  const words = messagesFor(s.config.server.locale).alerts;
  const statusUrl = new URL('status', s.config.server.public_url.replace(/\/?$/, '/')).toString();
  const alerting = new Alerting({
    store: new AlertStore(s.db),
    channels: cfg ? alertSenders(cfg, d.retry ? { retry: d.retry } : {}) : [],
    clock: s.clock,
    log: s.log.child({ module: 'alerts' }),
    afterMs: (cfg?.after_minutes ?? 15) * 60_000,
    statusUrl,
    words,
    problems: () =>
      alertProblems({
        status: d.status(),
        databaseProblem: d.databaseProblem(),
        googleTokenIssuedAt: (account) => {
          const a = google.get(account);
          if (a) return refreshTokenIssuedAt(s.kv, a.config, a.name);
          return account.startsWith('google.') ? connectedTokenIssuedAt(s.connections, 'google', account.slice('google.'.length)) : null;
        },
        now: s.clock.now(),
        words,
        signIn: messagesFor(s.config.server.locale).signIn,
      }),
  });
  return {
    name: 'alerts',
    jobs: cfg
      ? [
          {
            name: 'alerts',
            schedule: { everyMs: ALERT_TICK_MS },
            inSync: false,
            async run() {
              const sent = await alerting.tick();
              return sent.length === 0
                ? { status: 'success', idle: true }
                : { status: 'success', summary: `${sent.length} alert messages` };
            },
          },
        ]
      : [],
    status: () => ({ alerts: { enabled: cfg !== undefined, ...alerting.status() } }),
  };
}
