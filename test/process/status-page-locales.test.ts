// The status page, its 401 page and the feed in each language (server.locale: en, pt-BR), in a real
// browser (Debian's chromium through playwright-core) at a desktop's and a phone's width: in
// Portuguese nothing a person reads is English, in either language no raw status code or key shows;
// no word breaks in the middle; the feeds table of the details keeps its webcal column on screen.
// Screenshots go to .tmp/screenshots (not committed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { chromium, type Browser, type Page } from 'playwright-core';
import { listen as listenHono } from '../../src/net/hono-server.ts';
import { createTestContext, testConfig, type TestContext } from '../helpers/context.ts';
import { testAppointment } from '../helpers/appointment.ts';
import { ENGLISH, KEYS, RAW } from '../helpers/locale-scan.ts';

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
const SIZES = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } } as const;
const ADMIN_TOKEN = 'admin-token-0123456789abcdef';
const FEED_TOKEN = 'feed-token-clinica-0123456789';
const H = 3_600_000;
// The test clock's now: 2026-06-15 09:00 in São Paulo.
const NINE = Date.UTC(2026, 5, 15, 12, 0);

let browser: Browser;
beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`the status page test needs Debian's chromium at ${CHROMIUM}: apt-get install -y chromium`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});

/** The runtime serve builds, serving, with a day of appointments that changed; on a real socket. */
async function clinic(locale: 'en' | 'pt-BR'): Promise<{ t: TestContext; base: string; close(): Promise<void> }> {
  const config = testConfig({
    server: { public_url: 'https://agenda.clinica.example/', admin_token: ADMIN_TOKEN, locale },
    feeds: [{ name: 'Clínica Sorriso', token: FEED_TOKEN }],
  });
  const t = createTestContext({ config });
  t.runtime.lifecycle.set('serving');
  const calendar = { calendarKey: 'cal-ines', name: 'Dra. Inês Moura — Sala 2' };
  // One service the booking service sent without a name: it must not show as its key.
  const services = [
    { serviceKey: 'e82a7df3-1c2d-4e5f-8a9b-0c1d2e3f4a5b', name: null },
    { serviceKey: 's-2', name: 'Fisioterapia' },
  ];
  const put = (key: string, code: string, start: number, status: string, fullName: string) =>
    t.ctx.appointments.upsert(
      testAppointment({
        key,
        searchCode: code,
        start,
        end: start + H / 2,
        status,
        calendar,
        services,
        person: { ...testAppointment().person, fullName },
      }),
    );
  put('7d0b3c1e-0000-4000-a000-000000000001', 'AG00012', NINE + H, 'CONFIRMED', 'Maria da Graça Souza');
  put('7d0b3c1e-0000-4000-a000-000000000002', 'AG00013', NINE + 2 * H, 'NO_SHOW', 'João Araújo');
  put('7d0b3c1e-0000-4000-a000-000000000003', 'AG00014', NINE + 26 * H, 'PENDING_PAYMENT', 'Ana Beatriz Lima');
  put('7d0b3c1e-0000-4000-a000-000000000004', 'AG00015', NINE + 27 * H, 'CONFIRMED', 'Rafael Nogueira');
  put('7d0b3c1e-0000-4000-a000-000000000001', 'AG00012', NINE + 3 * H, 'CONFIRMED', 'Maria da Graça Souza'); // moved
  put('7d0b3c1e-0000-4000-a000-000000000004', 'AG00015', NINE + 27 * H, 'CANCELED_CLIENT', 'Rafael Nogueira'); // cancelled
  const server: Server = await listenHono(t.runtime.app.fetch, { port: 0, host: '127.0.0.1' });
  return {
    t,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise<void>((r) => server.close(() => r()));
      await t.close();
    },
  };
}

/** Words the browser broke across two lines ("resched-ule"), outside links, code and times. */
function brokenWords(page: Page): Promise<string[]> {
  // A string, not a function: the test's types know no DOM; the browser runs it.
  return page.evaluate(`(() => {
    const broken = [];
    const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement && node.parentElement.closest('a, code, time, #details, .qr')) continue;
      const text = node.textContent || '';
      for (const m of text.matchAll(/[\\p{L}\\p{N}]{4,}/gu)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(m[0]);
      }
    }
    return broken;
  })()`);
}

/** What a person reads: everything but the folded details (the status document's own keys), labels included. */
const READ = `(() => {
  const main = document.querySelector('main').cloneNode(true);
  document.body.appendChild(main);
  main.querySelector('#details')?.remove();
  const labels = [...main.querySelectorAll('[aria-label],[data-label]')].map((e) => (e.getAttribute('aria-label') || '') + ' ' + (e.getAttribute('data-label') || ''));
  const text = main.innerText + '\\n' + document.title + '\\n' + labels.join('\\n');
  main.remove();
  return text;
})()`;

describe.each(['en', 'pt-BR'] as const)('server.locale: %s', (locale) => {
  it('the status page reads in the language at a desktop and a phone width, with no raw code, key or mid-word break', async () => {
    const c = await clinic(locale);
    try {
      const context = await browser.newContext({ httpCredentials: { username: 'anyone', password: ADMIN_TOKEN } });
      const page = await context.newPage();
      for (const [name, size] of Object.entries(SIZES)) {
        await page.setViewportSize(size);
        const response = await page.goto(`${c.base}/status`);
        expect(response?.status()).toBe(200);
        expect(await page.getAttribute('html', 'lang')).toBe(locale);
        expect(
          Number(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')),
          `${name}: scrolls sideways`,
        ).toBeLessThanOrEqual(0);
        expect(await brokenWords(page), `${name}: words broken mid-word`).toEqual([]);

        const read = await page.evaluate<string>(READ);
        const words = read.replace(/https:\/\/\S+|webcal:\/\/\S+/g, '').replace(KEYS, '');
        expect(words).not.toMatch(RAW);
        expect(words).toContain('AG00013'); // appointments by their code
        if (locale === 'pt-BR') {
          expect(
            words.split('\n').filter((l) => ENGLISH.test(l)),
            `${name}: English on the Portuguese page`,
          ).toEqual([]);
          expect(words).toContain('Não compareceu');
          expect(words).toContain('Hoje, segunda-feira 15 junho');
        } else {
          expect(words).toContain('No-show');
          expect(words).toContain('Today, Monday 15 June');
        }

        // The details' feeds table keeps its webcal column on the screen, a phone's too.
        await page.evaluate("for (const d of document.querySelectorAll('details')) d.open = true");
        const webcal = await page.locator('#section-feeds td[data-label="Webcal"]').first().boundingBox();
        expect(webcal, `${name}: the webcal cell`).not.toBeNull();
        expect(webcal!.x).toBeGreaterThanOrEqual(0);
        expect(webcal!.x + webcal!.width).toBeLessThanOrEqual(size.width + 1);
        await page.screenshot({ path: join(SHOTS, `status-${locale}-${name}.png`), fullPage: true });
      }
      await context.close();

      // The bare address leads to the page; a browser without the token gets a short page in the language.
      const root = await fetch(`${c.base}/`, { redirect: 'manual' });
      expect(root.status).toBe(302);
      expect(root.headers.get('location')).toBe('/status');
      const refused = await fetch(`${c.base}/status`, { headers: { accept: 'text/html,application/xhtml+xml' } });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
      const body = await refused.text();
      expect(body).toContain(`<html lang="${locale}">`);
      const text = body.replace(/<style>[\s\S]*?<\/style>|<[^>]+>/g, ' ');
      if (locale === 'pt-BR') expect(text.replace(/server\.admin_token|calbridge status/g, '').match(ENGLISH)).toBeNull();
      expect(text).toMatch(/server\.admin_token/);
      // Scripts still get JSON.
      expect((await fetch(`${c.base}/api/status`)).headers.get('content-type')).toMatch(/^application\/json/);

      // The feed's events: the default description in words, in the language.
      const ics = (await (await fetch(`${c.base}/feeds/${FEED_TOKEN}.ics`)).text()).replace(/\r\n[ \t]/g, '');
      const described = [...ics.matchAll(/^(?:SUMMARY|DESCRIPTION):(.*)$/gm)]
        .map((m) => m[1]!.replace(/\\n/g, '\n').replace(/\\([,;\\])/g, '$1'))
        .join('\n');
      expect(described).toContain('Fisioterapia');
      expect(described).toContain('Dra. Inês Moura — Sala 2');
      expect(described).not.toMatch(RAW);
      if (locale === 'pt-BR') {
        expect(described).toContain('Situação: Não compareceu');
        expect(described.replace(/[\w.]+@[\w.]+/g, '').match(ENGLISH)).toBeNull();
      } else {
        expect(described).toContain('Status: No-show');
      }
    } finally {
      await c.close();
    }
  }, 60_000);
});
