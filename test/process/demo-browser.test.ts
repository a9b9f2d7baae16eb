// `demo` as a new user meets it, in a real browser (Debian's chromium): the status page tells a move
// in Google and a move in Outlook that became reschedules (the Outlook one within a minute of the
// person's drag, by the demo's own clock) and a move onto a taken slot that was put back; the
// clinic's simulated Google calendar and Outlook calendar each list the same appointments as the
// feed; and the pages read well at a desktop's and a phone's width, in English and in Portuguese.
// Screenshots go to .tmp/screenshots (not committed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { calbridgeProcesses, type CalbridgeProcess } from '../helpers/calbridge-process.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { ENGLISH, KEYS } from '../helpers/locale-scan.ts';

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

/** The appointment keys of the events a simulated calendar page lists in the clinic's account (every appointment goes there). */
async function listed(page: Page, url: string, account: string): Promise<string[]> {
  await page.goto(url);
  return (
    await page
      .locator(`section[data-account="${account}"] tr.event`)
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-appointment') ?? ''))
  ).sort();
}

/** Waits until the simulated calendar page lists the appointments the feed has (both follow living changes). */
async function agreesWithFeed(page: Page, url: string, account: string, feed: string, demo: CalbridgeProcess): Promise<void> {
  await waitFor(
    `${url} and the feed to agree`,
    async () => {
      const inCalendar = await listed(page, url, account);
      return inCalendar.length > 0 && JSON.stringify(inCalendar) === JSON.stringify(await feedKeys(feed));
    },
    { process: demo, everyMs: 1000 },
  );
}

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

/** Seconds since midnight of a terminal line's HH:MM:SS (the demo's own clock). */
const secondsOf = (hms: string) => hms.split(':').reduce((s, part) => s * 60 + Number(part), 0);

/**
 * How long after a simulated person dragged an event in Outlook to a free slot its reschedule was
 * told, by the demo's terminal: the first drag that came back, paired by the appointment's code.
 */
function outlookRoundTrip(stdout: string): number | undefined {
  const drags = [
    ...stdout.matchAll(/^(\d\d:\d\d:\d\d) {2}someone in Outlook(?: \([^)]+\))? drags “[^”]* · (AG\d{5})” from .+ to .+, a free slot$/gm),
  ];
  for (const back of stdout.matchAll(
    /^(\d\d:\d\d:\d\d) {2}(AG\d{5}) +\[Outlook → booking\] +moved in Outlook to .+ → rescheduled at the booking service/gm,
  )) {
    const drag = drags.filter((d) => d[2] === back[2] && secondsOf(d[1]!) <= secondsOf(back[1]!)).at(-1);
    if (drag) return secondsOf(back[1]!) - secondsOf(drag[1]!);
  }
  return undefined;
}

/** The appointment keys of the feed's events (UID {key}@calbridge). */
async function feedKeys(feed: string): Promise<string[]> {
  const ics = await (await fetch(feed)).text();
  return [...ics.matchAll(/^UID:(.+)@calbridge\r?$/gm)].map((m) => m[1]!).sort();
}

describe('demo in a browser', () => {
  it('shows reschedules from Google and Outlook (within a minute of the drag) and moves back, each mirror beside the feed, at desktop and phone widths', async () => {
    // People edit every second: enough moves onto free and taken slots within the minute on a loaded machine.
    const demo = calbridge.spawn(['demo', '--port', '0', '--appointments', '24', '--interval', '3000', '--people-interval', '1000'], {
      env: { CALBRIDGE_CONFIG: '' },
    });
    // The whole banner: its lines may arrive in more than one piece.
    await waitFor('the banner', () => demo.stdout().includes('Stop with Ctrl-C'), { process: demo });
    const status = /status page +(http:\/\/127\.0\.0\.1:\d+\/status)/.exec(demo.stdout())?.[1];
    expect(status).toBeDefined();
    const feed = /feed +(http:\/\/127\.0\.0\.1:\d+\/feeds\/([\w-]+)\.ics)/.exec(demo.stdout());
    expect(feed).not.toBeNull();
    demo.addSecret(feed![2]!, { printedOnStdout: true });
    const base = status!.replace(/\/status$/, '');
    expect(demo.stdout()).toContain(`Google        ${base}/demo/google`);
    expect(demo.stdout()).toContain(`Outlook       ${base}/demo/outlook`);

    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const seen = new Set<string>();
    await waitFor(
      'a reschedule and a move back on the status page',
      async () => {
        await page.goto(status!);
        const activity = (await page.locator('#activity').textContent()) ?? '';
        for (const words of ['moved in Google', 'moved back']) if (activity.includes(words)) seen.add(words);
        // A simulated person's move in Outlook, read back by the delta query and carried to the booking service.
        const fromOutlook = await page.locator('#activity .dir-microsoft-to-booking').allTextContents();
        if (fromOutlook.some((t) => /moved in Outlook to .+ → rescheduled at the booking service/.test(t))) seen.add('outlook');
        return seen.size === 3;
      },
      // Which edits the simulated people make is up to chance, and a loaded machine slows every step:
      // the wait is as long as it takes to see all three; the minute is timed below, on the demo's clock.
      { process: demo, ms: 120_000, everyMs: 1000 },
    );
    // The terminal tells the person's drag in Outlook and what came of it: the wait below pairs the two
    // lines. (The reschedule seen on the page may come from a drag onto an event of another booking
    // calendar, which is free at the booking service, so the page alone does not say which line to expect.)
    // The demo's promise: a person's move in Outlook is a reschedule within a minute of the drag (its
    // delta query runs every 10 s), timed by the demo's own clock from its two terminal lines, so the
    // time a loaded machine takes to start the demo, or a browser to load a page, is not counted.
    const roundTrip = await waitFor('an Outlook drag and its reschedule, both on the terminal', () => outlookRoundTrip(demo.stdout()), {
      process: demo,
    });
    expect(roundTrip).toBeLessThan(60);
    expect(await page.locator('#health h2').textContent()).toBe('All is well');
    const activity = page.locator('#activity li');
    expect(await activity.count()).toBeGreaterThan(10);
    expect(await page.locator('#activity .dir-google-to-booking').count()).toBeGreaterThan(0);
    expect(await page.locator('header a.link').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual([
      '/demo/google',
      '/demo/outlook',
      // connect is on in the demo: its connections page, where Lúcia's calendar shows once connected.
      '/status/connections',
    ]);
    // Lúcia's invite, to click.
    expect(await page.locator('#demo-invite a.invite').getAttribute('href')).toMatch(/\/connect\/[\w-]{20,}$/);
    // Nothing on the page shows a token or a document number (the simulated people have 11-digit ones).
    const text = (await page.locator('main').innerText()).replace(feed![1]!, '').replace(feed![1]!.replace(/^http/, 'webcal'), '');
    expect(text).not.toMatch(/\d{9,}|ya29\.|1\/\/|Bearer/);

    // Each simulated calendar lists the appointments the feed has.
    const google = `${base}/demo/google`;
    const outlook = `${base}/demo/outlook`;
    await agreesWithFeed(page, google, 'google.default', feed![1]!, demo);
    await agreesWithFeed(page, outlook, 'microsoft.default', feed![1]!, demo);
    expect(await page.locator('h1').textContent()).toBe('Outlook calendar (simulated)');

    await shoot(page, status!, 'demo-status');
    await shoot(page, google, 'demo-google');
    await shoot(page, outlook, 'demo-outlook');
    await context.close();
  }, 150_000);

  it('in Portuguese, at a phone’s width: the status page and both simulated calendars, with no English', async () => {
    const demo = calbridge.spawn(
      ['demo', '--port', '0', '--locale', 'pt-BR', '--appointments', '12', '--interval', '3000', '--people-interval', '1000'],
      { env: { CALBRIDGE_CONFIG: '' } },
    );
    await waitFor('the banner', () => demo.stdout().includes('Pare com Ctrl-C'), { process: demo });
    const out = demo.stdout();
    const base = /situação +(http:\/\/127\.0\.0\.1:\d+)\/status/.exec(out)?.[1];
    expect(base, out).toBeDefined();
    for (const m of out.matchAll(/\/feeds\/([\w-]+)\.ics/g)) demo.addSecret(m[1]!, { printedOnStdout: true });
    expect(out).toContain(`Outlook       ${base}/demo/outlook   (as agendas simuladas do Outlook)`);
    expect(out).toContain('O Outlook (Microsoft 365) também é simulado');
    // A person's drag in Outlook, told in Portuguese, and its reschedule.
    await waitFor('a move in Outlook rescheduled, on the terminal', () => /\[Outlook → agenda\] +movido no Outlook/.test(demo.stdout()), {
      process: demo,
      ms: 60_000,
    });
    expect(demo.stdout()).toMatch(/alguém no Outlook (arrasta|apaga)/);

    const context = await browser.newContext({ viewport: PHONE, locale: 'pt-BR' });
    const page = await context.newPage();
    for (const [path, heading] of [
      ['/status', 'calbridge'],
      ['/demo/google', 'Google Agenda (simulado)'],
      ['/demo/outlook', 'Agenda do Outlook (simulada)'],
    ] as const) {
      await page.goto(`${base}${path}`);
      expect((await page.locator('h1').textContent())?.trim()).toBe(heading);
      expect(
        Number(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')),
        `${path} scrolls sideways`,
      ).toBeLessThanOrEqual(0);
      // What a person reads: no English sentence (names, codes and config keys aside).
      const text = (await page.locator('main').innerText()).replace(KEYS, '').replace(/https?:\/\/\S+|webcal:\/\/\S+/g, '');
      const english = text.split('\n').filter((l) => ENGLISH.test(l.replace(/“[^”]*”/g, '')));
      expect(english, `${path} in Portuguese`).toEqual([]);
      await page.screenshot({ path: join(SHOTS, `demo-pt-BR${path.replace(/\//g, '-')}-phone.png`), fullPage: true });
    }
    await context.close();
  }, 150_000);
});
