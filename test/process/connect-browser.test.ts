// The connect pages in a real browser with JavaScript turned off, at a phone's width (390 px):
// a person connects a Google calendar (against the simulator) and a CalDAV one (against Radicale)
// by clicking and typing only, and no page is wider than the screen.
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startGoogleSimulator, type GoogleSimulator } from '../../src/google/simulator/index.ts';
import { startRadicale, type Radicale } from '../caldav/radicale.ts';
import { CalendarApp } from '../caldav/calendar-app.ts';
import { startConnectEnv, type ConnectEnv } from '../connect/connect-env.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'];
const CLIENT = { client_id: 'browser-client.apps.googleusercontent.com', client_secret: 'browser-client-secret-0123' };

let browser: Browser;
let fake: GoogleSimulator;
let radicale: Radicale;
let env: ConnectEnv;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`this test needs Debian's chromium at ${CHROMIUM}: apt-get install -y chromium`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  fake = await startGoogleSimulator({ ...{ clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret } });
  radicale = await startRadicale({ users: { bruno: 'bruno-app-password' } });
  await new CalendarApp(radicale.url, 'bruno', 'bruno-app-password').makeCalendar('/bruno/office/', 'Consultório do Bruno');
  env = await startConnectEnv(
    () => `google: { enabled: false, token_url: "${fake.tokenUrl}", api_root: "${fake.rootUrl}" }
connect:
  enabled: true
  # Radicale runs on 127.0.0.1: a private address, which a link may name only with the opt-in.
  caldav_private_addresses: true
  google_client: { client_id: ${CLIENT.client_id}, client_secret: ${CLIENT.client_secret} }
  google_auth_url: "${fake.authUrl}"
`,
    { locale: 'pt-BR' },
  );
});
afterAll(async () => {
  await env?.stop();
  await fake?.close();
  await radicale?.stop();
  await browser?.close();
});

const pages: Page[] = [];
afterEach(async () => {
  for (const p of pages.splice(0)) await p.context().close();
});

async function phone(): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  pages.push(page);
  return page;
}

const overflow = (page: Page) => page.evaluate('document.documentElement.scrollWidth - window.innerWidth');

it('connects a Google calendar by tapping through, without JavaScript, in Portuguese', async () => {
  const made = await env.run('connect', 'invite', '--target', 'google', '--calendar-key', 'cal-ana', '--name', 'ana');
  const page = await phone();
  await page.goto(made.out.trim()); // Google consents at once and sends the browser back
  await page.getByRole('heading', { name: 'Escolha uma agenda' }).waitFor();
  expect(await page.getAttribute('html', 'lang')).toBe('pt-BR');
  expect(Number(await overflow(page))).toBeLessThanOrEqual(0);
  await page.getByRole('button', { name: 'Conectar esta agenda' }).click();
  await page.getByRole('heading', { name: 'Conectada' }).waitFor();
  expect(env.daemon.runtime.services.connectedAccounts().map((a) => `${a.kind}.${a.name}`)).toEqual(['google.ana']);
});

it('connects a CalDAV calendar by filling the form, without JavaScript', async () => {
  const made = await env.run('connect', 'invite', '--target', 'caldav', '--calendar-key', 'cal-bruno', '--name', 'bruno');
  const page = await phone();
  await page.goto(made.out.trim());
  expect(Number(await overflow(page))).toBeLessThanOrEqual(0);
  await page.getByRole('radio', { name: /Outro servidor CalDAV/ }).check();
  await page.getByLabel('Endereço do servidor (Nextcloud ou outro servidor)', { exact: true }).fill(radicale.url);
  await page.getByLabel('Nome de usuário (muitas vezes seu e-mail)', { exact: true }).fill('bruno');
  await page.getByLabel('Senha de app', { exact: true }).fill('bruno-app-password');
  await page.getByRole('button', { name: 'Verificar e listar minhas agendas' }).click();
  await page.getByText('Consultório do Bruno').waitFor();
  expect(Number(await overflow(page))).toBeLessThanOrEqual(0);
  await page.getByRole('button', { name: 'Conectar esta agenda' }).click();
  await page.getByRole('heading', { name: 'Conectada' }).waitFor();
  expect(env.daemon.runtime.services.connectedAccounts().map((a) => `${a.kind}.${a.name}`)).toContain('caldav.bruno');
});
