// `demo` as a new user meets it, in a real browser (Debian's chromium): within a minute the status
// page tells a move in Google that became a reschedule and a move onto a taken slot that was put
// back; the simulated Google calendar lists the same appointments as the feed; and both pages read
// well at a desktop's and a phone's width. Screenshots go to .tmp/screenshots (not committed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { calbridgeProcesses } from '../helpers/calbridge-process.ts';
import { waitFor } from '../helpers/wait-for.ts';

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
const SHOTS = join(import.meta.dirname, '..', '..', '.tmp', 'screenshots');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

const calbridge = calbridgeProcesses();
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`the demo's browser test needs Debian's chromium at ${CHROMIUM}: apt-get install -y chromium`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});

async function shoot(page: Page, url: string, name: string): Promise<void> {
  for (const [width, size] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(size);
    await page.goto(url);
    // Readable on a phone: nothing wider than the screen.
    expect(
      Number(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')),
      `${name} at ${width} width scrolls sideways`,
    ).toBeLessThanOrEqual(0);
    const file = join(SHOTS, `${name}-${width}.png`);
    await page.screenshot({ path: file, fullPage: true });
    expect(statSync(file).size).toBeGreaterThan(10_000);
  }
}

/** The appointment keys of the feed's events (UID {key}@calbridge). */
async function feedKeys(feed: string): Promise<string[]> {
  const ics = await (await fetch(feed)).text();
  return [...ics.matchAll(/^UID:(.+)@calbridge\r?$/gm)].map((m) => m[1]!).sort();
}

describe('demo in a browser', () => {
  it('shows reschedules and moves back within a minute, the mirror beside the feed, at desktop and phone widths', async () => {
    // People edit every second: enough moves onto free and taken slots within the minute on a loaded machine.
    const demo = calbridge.spawn(['demo', '--port', '0', '--appointments', '24', '--interval', '3000', '--people-interval', '1000'], {
      env: { CALBRIDGE_CONFIG: '' },
    });
    // The whole banner: its lines may arrive in more than one piece.
    await waitFor('the banner', () => demo.stdout().includes('Stop with Ctrl-C'), { process: demo });
    const status = /status page +(http:\/\/127\.0\.0\.1:\d+\/status)/.exec(demo.stdout())?.[1];
    expect(status).toBeDefined();
    // The minute is the demo's promise once it runs; how long a loaded machine takes to start it is not.
    const started = Date.now();
    const feed = /feed +(http:\/\/127\.0\.0\.1:\d+\/feeds\/([\w-]+)\.ics)/.exec(demo.stdout());
    expect(feed).not.toBeNull();
    demo.addSecret(feed![2]!, { printedOnStdout: true });
    const base = status!.replace(/\/status$/, '');
    expect(demo.stdout()).toContain(`Google        ${base}/demo/google`);

    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const seen = new Set<string>();
    await waitFor(
      'a reschedule and a move back on the status page',
      async () => {
        await page.goto(status!);
        const activity = (await page.locator('#activity').textContent()) ?? '';
        for (const words of ['rescheduled at the booking service', 'moved back']) if (activity.includes(words)) seen.add(words);
        return seen.size === 2;
      },
      { process: demo, ms: 60_000, everyMs: 1000 },
    );
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(await page.locator('#health h2').textContent()).toBe('All is well');
    const activity = page.locator('#activity li');
    expect(await activity.count()).toBeGreaterThan(10);
    expect(await page.locator('#activity .dir-google-to-booking').count()).toBeGreaterThan(0);
    expect(await page.locator('header a.link').getAttribute('href')).toBe('/demo/google');
    // Nothing on the page shows a token or a document number (the simulated people have 11-digit ones).
    const text = (await page.locator('main').innerText()).replace(feed![1]!, '').replace(feed![1]!.replace(/^http/, 'webcal'), '');
    expect(text).not.toMatch(/\d{9,}|ya29\.|1\/\/|Bearer/);

    // The simulated Google calendar lists the appointments the feed has (retried: both follow living changes).
    const google = `${base}/demo/google`;
    await waitFor(
      'the simulated Google calendar and the feed to agree',
      async () => {
        await page.goto(google);
        const inGoogle = (
          await page.locator('tr.event').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-appointment') ?? ''))
        ).sort();
        const inFeed = await feedKeys(feed![1]!);
        return inGoogle.length > 0 && JSON.stringify(inGoogle) === JSON.stringify(inFeed);
      },
      { process: demo, everyMs: 1000 },
    );

    await shoot(page, status!, 'demo-status');
    await shoot(page, google, 'demo-google');
    await context.close();
  }, 150_000);
});
