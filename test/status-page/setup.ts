// A real app (createApp, admin guard, the status page routes) over a real SQLite file for its write
// check, with stand-in parts whose status and readiness a test chooses.
import { createApp } from '../../src/http/app.ts';
import { statusPageRoutes } from '../../src/http/status-page.ts';
import { agenda } from '../../src/http/status-page/agenda.ts';
import { configuredSecrets } from '../../src/http/status-page/redact.ts';
import { overallReadiness } from '../../src/core/readiness.ts';
import { assembleStatus } from '../../src/status/status-document.ts';
import { feedUrls } from '../../src/feeds/feed-urls.ts';
import { WriteCheck } from '../../src/store/write-check.ts';
import type { Part } from '../../src/wiring/part.ts';
import type { Config } from '../../src/config/schema.ts';
import { createTestContext, testConfig, type TestContext } from '../helpers/context.ts';

export const ADMIN_TOKEN = 'admin-token-0123456789abcdef';
export const FEED_TOKEN = 'feed-token-clinic-0123456789';
export const SECRETS = {
  booking: 'booking-token-SECRET-abcdef123',
  webhook: 'webhook-secret-SECRET-abcdef123',
  webhookAuth: 'webhook-auth-SECRET-abcdef123',
  clientSecret: 'google-client-SECRET-abcdef123',
  refreshToken: 'google-refresh-SECRET-abcdef123',
};

export function pageConfig(overrides: Record<string, unknown> = {}): Config {
  return testConfig({
    server: { host: '127.0.0.1', port: 0, public_url: 'https://cal.example.com/', admin_token: ADMIN_TOKEN },
    booking: { base_url: 'http://127.0.0.1:9', token: SECRETS.booking },
    webhook: { secret: SECRETS.webhook, auth_token: SECRETS.webhookAuth, register: false },
    google: {
      enabled: true,
      credentials: { client_id: 'client-id.apps.example', client_secret: SECRETS.clientSecret, refresh_token: SECRETS.refreshToken },
    },
    feeds: [
      { name: 'Clinic <Main>', token: FEED_TOKEN },
      { name: 'Dr. Silva', token: 'feed-token-silva-0123456789' },
    ],
    ...overrides,
  });
}

/** `parts`: stand-ins, or parts that need the test's runtime. */
export function statusApp(
  given: Part[] | ((t: TestContext) => Part[]),
  config: Config = pageConfig(),
): { t: TestContext; app: ReturnType<typeof createApp> } {
  const t = createTestContext({ config });
  const parts = typeof given === 'function' ? given(t) : given;
  const status = () =>
    assembleStatus(
      { version: '0.1.0', now: new Date(t.clock.now()).toISOString() },
      parts.flatMap((p) => (p.status ? [p.status()] : [])),
    );
  // As the runtime does: the database's write check first, then every part's share.
  const writable = new WriteCheck(t.ctx.db);
  const readiness = () => {
    const problem = writable.problem();
    return overallReadiness([
      { reasons: problem ? [problem] : [], warnings: [] },
      ...parts.flatMap((p) => (p.readiness ? [p.readiness()] : [])),
    ]);
  };
  const secrets = configuredSecrets(config);
  const app = createApp({
    log: t.ctx.log,
    metrics: t.ctx.metrics,
    adminToken: config.server.admin_token,
    statusAuth: config.server.status_auth,
    metricsAuth: config.server.metrics_auth,
    secrets,
    status,
    readiness,
    routes: [
      statusPageRoutes({
        clock: t.clock,
        status,
        readiness,
        feeds: feedUrls(config),
        secrets,
        zone: config.booking.timezone,
        agenda: (now) =>
          agenda(
            {
              config,
              appointments: t.ctx.appointments,
              ...(config.google?.enabled ? { links: t.ctx.targetStores('google.default').links } : {}),
            },
            now,
          ),
      }),
    ],
  });
  return { t, app };
}

export const basic = (password: string): string => `Basic ${Buffer.from(`anyone:${password}`).toString('base64')}`;
