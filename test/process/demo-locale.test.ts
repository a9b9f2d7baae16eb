// `demo` for a clinic that speaks Portuguese, and for a phone: with --locale pt-BR the terminal,
// the status page and the simulated Google calendar are in Portuguese with no raw code; the QR code
// of the feed points at the machine's LAN address, which a phone on the same network can open
// (never 127.0.0.1), and the feed answers there; with no LAN address the page draws no code.
import { describe, expect, it } from 'vitest';
import { calbridgeProcesses } from '../helpers/calbridge-process.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { lanAddress } from '../../src/commands/lan-address.ts';
import { ENGLISH, KEYS, RAW } from '../helpers/locale-scan.ts';

const calbridge = calbridgeProcesses();

/** The page's text a person reads (tags, the style and the folded details left out). */
function readable(html: string): string {
  const page = html.replace(/<section id="details"[\s\S]*?<\/section>/, '').replace(/<style>[\s\S]*?<\/style>|<svg[\s\S]*?<\/svg>/g, '');
  return page
    .replace(/<[^>]+>/g, ' ')
    .replace(/&[a-z]+;/g, ' ')
    .replace(/https?:\/\/\S+|webcal:\/\/\S+/g, '')
    .replace(KEYS, '');
}

describe('demo', () => {
  const lan = lanAddress();

  it('in Portuguese, with a QR code for the LAN address a phone can open', async () => {
    expect(lan, 'this test needs a network interface besides loopback (or CALBRIDGE_DEMO_ADDRESS)').toBeDefined();
    const demo = calbridge.spawn(
      ['demo', '--port', '0', '--locale', 'pt-BR', '--interval', '500', '--appointments', '12', '--people-interval', '1000'],
      { env: { CALBRIDGE_CONFIG: '' } },
    );
    await waitFor('the banner', () => demo.stdout().includes('Pare com Ctrl-C'), { process: demo });
    const out = demo.stdout();
    const base = /situação +(http:\/\/127\.0\.0\.1:\d+)\/status/.exec(out)?.[1];
    expect(base, out).toBeDefined();
    const phone = new RegExp(`no celular +webcal://${lan!.replace(/\./g, '\\.')}:\\d+/feeds/([\\w-]+)\\.ics`).exec(out);
    expect(phone, out).not.toBeNull();
    demo.addSecret(phone![1]!, { printedOnStdout: true });
    expect(out).toContain('Abra:');
    expect(out).toContain('O Google é simulado');
    // The banner, professionals and invite included, has no English (names, addresses and account names aside).
    const banner = out.slice(0, out.indexOf('Pare com Ctrl-C'));
    expect(banner).toContain('Profissionais, cada um com sua própria conta de agenda');
    expect(banner).toMatch(/Um convite “conecte sua agenda” para Lúcia/);
    const bannerLines = banner.split('\n').map((l) =>
      l
        .replace(/https?:\/\/\S+|webcal:\/\/\S+/g, '')
        .replace(KEYS, '')
        .replace(/“[^”]*”/g, ''),
    );
    expect(bannerLines.filter((l) => ENGLISH.test(l))).toEqual([]);

    // The feed a phone subscribes to answers at the LAN address.
    const ics = await fetch(`http://${lan}:${new URL(base!).port}/feeds/${phone![1]}.ics`);
    expect(ics.status).toBe(200);

    // The page carries a QR code, and the webcal link beside it is the LAN one, never 127.0.0.1.
    await waitFor('activity on the page', async () => (await (await fetch(`${base}/status`)).text()).includes('class="entry'), {
      process: demo,
    });
    await waitFor('a simulated person on the terminal', () => /alguém no Google (arrasta|apaga)/.test(demo.stdout()), {
      process: demo,
      ms: 30_000,
    });
    const page = await (await fetch(`${base}/status`)).text();
    expect(page).toContain('<svg');
    expect(page).toContain(`href="webcal://${lan}:`);
    expect(page).not.toContain('webcal://127.0.0.1');
    const text = readable(page);
    expect(text).not.toMatch(RAW);
    expect(text.split('\n').filter((l) => ENGLISH.test(l))).toEqual([]);
    const google = readable(await (await fetch(`${base}/demo/google`)).text());
    expect(google).toContain('Google Agenda');
    expect(google.split('\n').filter((l) => ENGLISH.test(l))).toEqual([]);
    const outlook = readable(await (await fetch(`${base}/demo/outlook`)).text());
    expect(outlook).toContain('Agenda do Outlook');
    expect(outlook.split('\n').filter((l) => ENGLISH.test(l))).toEqual([]);
    // The terminal's activity lines too.
    const lines = demo
      .stdout()
      .split('\n')
      .filter((l) => /^\d\d:\d\d:\d\d {2}/.test(l));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((l) => ENGLISH.test(l.replace(KEYS, '').replace(/“[^”]*”/g, '')))).toEqual([]);

    demo.child.kill('SIGTERM');
    expect(await demo.exited).toBe(0);
  }, 90_000);

  it('draws no QR code when the machine has no LAN address: 127.0.0.1 is no address for a phone', async () => {
    const demo = calbridge.spawn(['demo', '--port', '0', '--appointments', '4', '--people-interval', '0'], {
      env: { CALBRIDGE_CONFIG: '', CALBRIDGE_DEMO_ADDRESS: '' },
    });
    await waitFor('the banner', () => demo.stdout().includes('Stop with Ctrl-C'), { process: demo });
    const out = demo.stdout();
    const base = /status page +(http:\/\/127\.0\.0\.1:\d+)\/status/.exec(out)?.[1];
    const token = /feed +http:\/\/127\.0\.0\.1:\d+\/feeds\/([\w-]+)\.ics/.exec(out)?.[1];
    demo.addSecret(token!, { printedOnStdout: true });
    expect(out).not.toContain('on a phone');
    const page = await (await fetch(`${base}/status`)).text();
    expect(page).not.toContain('<svg');
    expect(page).toContain('a phone cannot open a code');
    demo.child.kill('SIGTERM');
    expect(await demo.exited).toBe(0);
  }, 60_000);
});
