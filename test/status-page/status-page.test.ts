import { afterEach, describe, expect, it } from 'vitest';
import type { Part } from '../../src/wiring/part.ts';
import type { TestContext } from '../helpers/context.ts';
import { ADMIN_TOKEN, FEED_TOKEN, SECRETS, basic, pageConfig, statusApp } from './setup.ts';
import { ingestFixture, targetFixture } from '../helpers/status-fixture.ts';

const contexts: TestContext[] = [];
afterEach(async () => {
  for (const t of contexts.splice(0)) await t.close();
});

function setup(parts: Part[], config = pageConfig()) {
  const built = statusApp(parts, config);
  contexts.push(built.t);
  return built;
}

async function page(parts: Part[], config = pageConfig()): Promise<string> {
  const res = await setup(parts, config).app.request('/status', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(res.status).toBe(200);
  return res.text();
}

const ingest: Part = {
  name: 'ingest',
  status: () => ({ ingest: ingestFixture({ poll: { last_success_at: '2026-06-15T11:57:00.000Z' } }) }),
  readiness: () => ({ reasons: [], warnings: [] }),
};

describe('GET /status', () => {
  it('answers 401 without the admin token and asks a browser for a password', async () => {
    const { app } = setup([ingest]);
    const res = await app.request('/status');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect((await app.request('/status', { headers: { authorization: basic('wrong') } })).status).toBe(401);
  });

  it('is an HTML page for a phone that refreshes itself, with the admin token as Basic password', async () => {
    const { app } = setup([ingest]);
    const res = await app.request('/status', { headers: { authorization: basic(ADMIN_TOKEN) } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await res.text();
    expect(body).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(body).toContain('<meta http-equiv="refresh" content="30">');
    expect(body).not.toMatch(/<script|<link|src="http/);
  });

  it('says all is well first when nothing needs attention, with the numbers that show it', async () => {
    const body = await page([ingest]);
    const health = body.slice(body.indexOf('id="health"'), body.indexOf('id="activity"'));
    expect(health).toContain('<h2>All is well</h2>');
    expect(health).toContain('Ready: webhooks and feeds are being served.');
    expect(health).toContain('2 feeds');
    expect(body).not.toContain('class="problems"');
    expect(body).toContain('<title>calbridge status</title>');
  });

  it('folds each part’s section among the details, with its times relative to now', async () => {
    const body = await page([ingest]);
    expect(body).toContain('<details class="part" id="section-ingest"><summary>Ingest</summary>');
    expect(body).toContain('Last success at');
    expect(body).toContain('3 min ago');
    expect(body.indexOf('id="details"')).toBeGreaterThan(body.indexOf('id="subscribe"'));
  });

  it('puts each readiness reason and warning first, as a sentence, with what to do where the part said it', async () => {
    const google: Part = {
      name: 'ingest',
      status: () => ({ ingest: ingestFixture() }),
      readiness: () => ({
        reasons: ['the database was migrated by a newer calbridge'],
        warnings: [
          { text: 'webhooks seem silent: the last two polls found 4 changes that no webhook announced; check `calbridge webhooks list`' },
          { text: 'the booking API has not answered successfully yet', see: 'booking_api' },
        ],
      }),
    };
    const body = await page([google]);
    expect(body).toContain('<h2>3 problems need attention</h2>');
    expect(body).toContain('Not ready: webhooks and feeds are refused until this is fixed.');
    expect(body).toContain('<title>⚠ calbridge status</title>');
    const problems = [...body.matchAll(/<p class="what">(.*?)<\/p>/g)].map((m) => m[1]);
    expect(problems).toEqual([
      'calbridge cannot take traffic: the database was migrated by a newer calbridge.',
      'Webhooks seem silent: the last two polls found 4 changes that no webhook announced.',
      'The booking API has not answered successfully yet.',
    ]);
    expect(body).toContain('<p class="todo">Check booking.base_url and booking.token, and that the booking service is up.</p>');
    expect(body).toContain('<p class="todo">Check <code>calbridge webhooks list</code> and the booking service’s webhook settings.</p>');
  });

  it('shows the database problem /readyz would give', async () => {
    const { app, t } = setup([ingest]);
    t.ctx.db.pragma('query_only = ON');
    const body = await (await app.request('/status', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
    expect(body).toContain('<h2>1 problem needs attention</h2>');
    expect(body).toContain('calbridge cannot take traffic: the database is not writable');
  });

  it('lists errors any part reported among the details and highlights them in place', async () => {
    const google: Part = {
      name: 'google.default',
      status: () => ({
        targets: {
          'google.default': targetFixture('google', {
            failed: 2,
            failures: [
              {
                appointment_key: 'a1',
                event_id: 'e1',
                attempts: 3,
                next_attempt_at: '2026-06-15T12:05:00.000Z',
                last_error: 'quota exceeded for calendar primary',
              },
            ],
          }),
        },
      }),
    };
    const body = await page([ingest, google]);
    const errors = body.slice(body.indexOf('id="errors"'), body.indexOf('id="section-ingest"'));
    expect(errors).toContain('Errors the parts reported (2)');
    expect(errors).toContain('Google › Failed');
    expect(errors).toContain('Google › Failures');
    expect(errors).toContain('quota exceeded for calendar primary');
    expect(body).toContain('<td data-label="Last error" class="error"><span class="text">quota exceeded for calendar primary</span></td>');
    // The schema says next_attempt_at is an instant: shown relative to now.
    expect(body).toContain('<time datetime="2026-06-15T12:05:00.000Z"');
  });

  it('escapes names from the booking service, in sections, errors and feed names', async () => {
    const evil = '<script>alert("x")</script>';
    const part: Part = {
      name: 'activity',
      status: () => ({
        activity: {
          recent: [
            {
              at: '2026-06-15T11:57:00.000Z',
              appointment: evil,
              direction: 'refused',
              kind: 'refused',
              summary: `<img src=x onerror=alert(1)>`,
              reason: `refused: ${evil}`,
            },
          ],
        },
        ingest: ingestFixture({ booking_api: { last_error: { at: null, message: `refused: ${evil}` } } }),
      }),
    };
    const config = pageConfig({ feeds: [{ name: evil, token: FEED_TOKEN }] });
    const body = await page([part], config);
    expect(body).not.toContain('<script');
    expect(body).not.toContain('<img');
    expect(body).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(body).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('gives each feed its webcal and https links and a QR code', async () => {
    const body = await page([ingest]);
    expect(body).toContain('Clinic &lt;Main&gt;');
    expect(body).toContain(`href="webcal://cal.example.com/feeds/${FEED_TOKEN}.ics"`);
    expect(body).toContain(`href="https://cal.example.com/feeds/${FEED_TOKEN}.ics"`);
    expect(body.match(/<svg[^>]*>/g)).toHaveLength(2);
  });

  it('never shows a secret, even when a part puts one in its status', async () => {
    const leaky: Part = {
      name: 'webhooks',
      status: () => ({
        webhook_registration: {
          register: true,
          state: 'failed',
          callback_url: `https://cal.example.com/webhooks/${SECRETS.webhook}/`,
          error: `sent Bearer ${SECRETS.booking} token some-token-value-xyz`,
        },
        targets: {
          'google.default': targetFixture('google', {
            last_error: `refresh ${SECRETS.refreshToken} client ${SECRETS.clientSecret} auth ${SECRETS.webhookAuth} admin ${ADMIN_TOKEN}`,
          }),
        },
      }),
    };
    const body = await page([leaky]);
    for (const secret of [...Object.values(SECRETS), ADMIN_TOKEN]) expect(body).not.toContain(secret);
    expect(body).toContain('https://cal.example.com/webhooks/********/');
  });

  it('/api/status goes through the same backstop: no configured secret, not even a feed token a part reported', async () => {
    const leaky: Part = {
      name: 'webhooks',
      status: () => ({
        webhook_registration: {
          register: true,
          state: 'failed',
          callback_url: `https://cal.example.com/webhooks/${SECRETS.webhook}/`,
          error: `sent Bearer ${SECRETS.booking}, refresh ${SECRETS.refreshToken}, client ${SECRETS.clientSecret}, auth ${SECRETS.webhookAuth}, admin ${ADMIN_TOKEN}`,
        },
        feeds: {
          feeds: [
            { name: 'Clinic', privacy: 'full', events: 1, last_change: null, url: `https://cal.example.com/feeds/${FEED_TOKEN}.ics` },
          ],
        },
      }),
    };
    const res = await setup([leaky]).app.request('/api/status', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(res.status).toBe(200);
    const text = await res.text();
    for (const secret of [...Object.values(SECRETS), ADMIN_TOKEN, FEED_TOKEN]) expect(text).not.toContain(secret);
    expect(JSON.parse(text)).toMatchObject({
      webhook_registration: { callback_url: 'https://cal.example.com/webhooks/********/' },
      feeds: { feeds: [{ url: 'https://cal.example.com/feeds/********.ics' }] },
    });
  });

  it('says so when no feed is configured', async () => {
    const body = await page([ingest], pageConfig({ feeds: [] }));
    expect(body).toContain('No feeds are configured.');
    expect(body).not.toContain('<svg');
  });

  it('answers 401 to everyone when no admin token is set', async () => {
    const config = pageConfig({ server: { host: '127.0.0.1', port: 0, public_url: 'https://cal.example.com' } });
    const { app } = setup([ingest], config);
    expect((await app.request('/status')).status).toBe(401);
  });
});
