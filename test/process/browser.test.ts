// The status page in a real browser (Debian's chromium through playwright-core), served over a real
// socket: the Basic prompt, problems first, the folded details, the feed links and QR codes, a phone's width;
// and a CalDAV target set up wrongly (against Radicale), told as a sentence with its fix.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { listen as listenHono } from '../../src/net/hono-server.ts';
import { chromium, type Browser } from 'playwright-core';
import type { Part } from '../../src/wiring/part.ts';
import type { TestContext } from '../helpers/context.ts';
import { ADMIN_TOKEN, FEED_TOKEN, pageConfig, statusApp } from '../status-page/setup.ts';
import { ingestFixture, targetFixture } from '../helpers/status-fixture.ts';
import { slot, startMirrorEnv } from '../caldav/mirror-env.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let browser: Browser;
const dir = mkdtempSync(join(tmpdir(), 'calbridge-status-page-'));
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`the status page test needs Debian's chromium at ${CHROMIUM}: apt-get install -y chromium`);
  }
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

const parts: Part[] = [
  {
    name: 'ingest',
    status: () => ({ ingest: ingestFixture({ poll: { last_success_at: '2026-06-15T11:57:00.000Z' } }) }),
    readiness: () => ({ reasons: [], warnings: [{ text: 'webhooks look silent while the poll keeps finding changes' }] }),
  },
  {
    name: 'google.default',
    status: () => ({
      targets: {
        'google.default': targetFixture('google', {
          calendars: ['primary', 'team@group.calendar.google.com'],
          mirrored: 42,
          failed: 1,
          failures: [
            {
              appointment_key: 'a1',
              event_id: 'e1',
              attempts: 2,
              next_attempt_at: '2026-06-15T12:05:00.000Z',
              last_error: 'quota exceeded for calendar primary',
            },
          ],
        }),
      },
    }),
  },
];

async function listen(config = pageConfig()): Promise<{ url: string; t: TestContext }> {
  const { app, t } = statusApp(parts, config);
  const server: Server = await listenHono(app.fetch, { port: 0, host: '127.0.0.1' });
  cleanups.push(() => t.close());
  cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/status`, t };
}

async function open(url: string, credentials?: { username: string; password: string }) {
  const context = await browser.newContext({ httpCredentials: credentials, viewport: { width: 390, height: 844 } });
  cleanups.push(() => context.close());
  const page = await context.newPage();
  const response = await page.goto(url);
  return { page, status: response?.status() };
}

describe('the status page in a browser', () => {
  it('answers 401 with a Basic challenge to a browser without credentials', async () => {
    const { url } = await listen();
    const context = await browser.newContext();
    cleanups.push(() => context.close());
    const page = await context.newPage();
    // Headless chromium cannot show the password prompt, so the navigation itself fails; the answer is what counts.
    const [response, navigation] = await Promise.all([
      page.waitForResponse(url),
      page.goto(url).then(
        () => 'loaded',
        (e: Error) => e.message,
      ),
    ]);
    expect(response.status()).toBe(401);
    expect(response.headers()['www-authenticate']).toMatch(/^Basic realm="calbridge"/);
    expect(navigation).toMatch(/AUTH/);
  });

  it('shows sync state, errors and the feeds to a browser holding the admin token as Basic password', async () => {
    const { url } = await listen();
    const { page, status } = await open(url, { username: 'admin', password: ADMIN_TOKEN });
    expect(status).toBe(200);

    // A warning is a problem to look at, first on the page, in a sentence.
    await expect(page.title()).resolves.toBe('⚠ calbridge status');
    expect(await page.locator('#health h2').textContent()).toBe('2 problems need attention');
    expect(await page.locator('#health .problems li .what').allTextContents()).toEqual([
      'Webhooks look silent while the poll keeps finding changes.',
      '1 appointment could not be written to Google; calbridge keeps retrying by itself.',
    ]);
    expect(await page.locator('#readiness').textContent()).toBe('Ready: webhooks and feeds are being served.');
    // The details are folded: a person opens the one they need.
    expect(await page.locator('#details details.part > summary').allTextContents()).toEqual(['Ingest', 'Google']);
    expect(await page.locator('#section-ingest').textContent()).toContain('3 min ago');
    expect(await page.locator('#section-ingest dl').first().isVisible()).toBe(false);
    await page.locator('#section-google\\.default > summary').click();
    expect(await page.locator('#section-google\\.default td.error').textContent()).toBe('quota exceeded for calendar primary');
    expect(await page.locator('#errors').textContent()).toContain('quota exceeded for calendar primary');

    const feeds = page.locator('#subscribe .feed');
    expect(await feeds.count()).toBe(2);
    expect(await feeds.locator('h3').allTextContents()).toEqual(['Clinic <Main>', 'Dr. Silva']);
    expect(await feeds.first().locator('a.subscribe').getAttribute('href')).toBe(`webcal://cal.example.com/feeds/${FEED_TOKEN}.ics`);
    expect(await feeds.first().locator('a.https').getAttribute('href')).toBe(`https://cal.example.com/feeds/${FEED_TOKEN}.ics`);
    expect(await page.locator('#subscribe .feed .qr svg').count()).toBe(2);
    const qr = await page.locator('#subscribe .feed .qr svg').first().boundingBox();
    expect(qr?.width).toBeGreaterThan(100);

    // Readable on a phone: nothing wider than the screen.
    const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'));
    expect(overflow).toBeLessThanOrEqual(0);

    const shot = join(dir, 'status-page.png');
    await page.screenshot({ path: shot, fullPage: true });
    expect(statSync(shot).size).toBeGreaterThan(10_000);
  });

  it('a browser on this machine gets 401 when no admin token is set: a local proxy would look the same', async () => {
    const { url } = await listen(pageConfig({ server: { host: '127.0.0.1', port: 0, public_url: 'https://cal.example.com' } }));
    const { status } = await open(url);
    expect(status).toBe(401);
  });

  it('lets a browser on this machine in without credentials with status_auth: loopback (the demo)', async () => {
    const { url } = await listen(
      pageConfig({ server: { host: '127.0.0.1', port: 0, public_url: 'https://cal.example.com', status_auth: 'loopback' } }),
    );
    const { page, status } = await open(url);
    expect(status).toBe(200);
    expect(await page.locator('#section-ingest > summary').textContent()).toBe('Ingest');
  });
});

describe('CalDAV set up wrongly, in a browser', () => {
  const server = { host: '127.0.0.1', port: 0, public_url: 'https://cal.example.com', admin_token: ADMIN_TOKEN };
  const WRONG = 'not-the-app-password-42';

  /** The runtime `serve` builds against Radicale after one pass, its status page open in chromium. */
  async function pageWith(caldav: Record<string, unknown>) {
    const env = await startMirrorEnv({ server, caldav });
    cleanups.push(() => env.close());
    env.t.runtime.lifecycle.set('serving');
    env.sim.create({ start: slot(1) });
    await env.settle(1);
    const listening: Server = await listenHono(env.t.runtime.app.fetch, { port: 0, host: '127.0.0.1' });
    cleanups.push(() => new Promise<void>((r) => listening.close(() => r())));
    const { page } = await open(`http://127.0.0.1:${(listening.address() as AddressInfo).port}/status`, {
      username: 'admin',
      password: ADMIN_TOKEN,
    });
    return { env, page, problems: page.locator('#health .problems li') };
  }

  it('a wrong password: the refusal and where app passwords are made, first, and the password nowhere', async () => {
    const { page, problems } = await pageWith({ password: WRONG });
    expect(await problems.first().locator('.what').textContent()).toBe(
      'The CalDAV server refused the username or password, so no appointment reaches the CalDAV calendar.',
    );
    expect(await problems.first().locator('.todo').textContent()).toMatch(
      /^Check caldav\.username and caldav\.password: iCloud and Fastmail need an app-specific password/,
    );
    // Told once: "3 problems" with the same sentence twice was a wrong password, before.
    expect((await problems.locator('.what').allTextContents()).filter((t) => /CalDAV/.test(t))).toHaveLength(1);
    expect(await page.content()).not.toContain(WRONG);
  });

  it('a calendar the account does not have: one sentence, the fix, and the calendars it has', async () => {
    const { env, problems } = await pageWith({ calendars: [{ calendar_key: '*', calendar: 'Clinc' }] });
    const first = problems.first();
    expect(await first.locator('.what').textContent()).toBe('The CalDAV account has no calendar “Clinc”, so no appointment reaches it.');
    expect(await first.locator('.todo').textContent()).toMatch(/^Set that entry of caldav\.calendars to one of the calendars listed below/);
    expect(await first.locator('.detail').textContent()).toContain(`found: "Clinic" (${env.calendarUrl})`);
    // Told once: not again as failing writes or a failing reverse-sync round.
    expect((await problems.locator('.what').allTextContents()).filter((t) => /CalDAV/.test(t))).toHaveLength(1);
  });

  it('a URL that is not a CalDAV server: one sentence pointing to the DAV root', async () => {
    // A plain web server: a page for every request, PROPFIND included.
    const web = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Welcome</body></html>'));
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => web.close(() => r())));
    const { problems } = await pageWith({ url: `http://127.0.0.1:${(web.address() as AddressInfo).port}/` });
    const texts = await problems.locator('.what').allTextContents();
    expect(texts).toContain('caldav.url does not lead to a CalDAV server, so no appointment reaches the CalDAV calendar.');
  });
});
