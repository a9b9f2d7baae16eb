// A real app (createApp, admin guard, the status page part) over a real SQLite file, with
// stand-in parts whose status and readiness a test chooses.
import { createApp } from '../../src/http/app.ts';
import { createStatusPagePart } from '../../src/http/status-page.ts';
import type { Part } from '../../src/part.ts';
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
    feeds: [{ name: 'Clinic <Main>', token: FEED_TOKEN }, { name: 'Dr. Silva', token: 'feed-token-silva-0123456789' }],
    ...overrides,
  });
}

export function statusApp(parts: Part[], config: Config = pageConfig()): { t: TestContext; app: ReturnType<typeof createApp> } {
  const t = createTestContext({ config });
  const status = (): Record<string, unknown> => ({
    version: '0.1.0',
    now: new Date(t.clock.now()).toISOString(),
    ...Object.fromEntries(parts.flatMap((p) => (p.status ? [[p.name, p.status()]] : []))),
  });
  const all: Part[] = [...parts, createStatusPagePart(t.ctx, status, () => all.flatMap((p) => (p.readiness ? [p.readiness()] : [])))];
  const app = createApp({ db: t.ctx.db, log: t.ctx.log, metrics: t.ctx.metrics, adminToken: config.server.admin_token, parts: all, status });
  return { t, app };
}

export const basic = (password: string): string => `Basic ${Buffer.from(`anyone:${password}`).toString('base64')}`;
