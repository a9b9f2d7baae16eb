// `demo` on a fresh checkout: no config, no credentials. The whole bridge runs: appointments arrive
// from the booking simulator (by poll and by webhook), are mirrored into the simulated Google
// calendar (OAuth against its token endpoint, a push channel open to the daemon), the terminal says
// what happens in words, and SIGTERM stops it and removes its database. With --config, the Google of
// that file is mirrored instead.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calbridgeProcesses } from '../helpers/calbridge-process.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { statusDocument } from '../../src/status/status-document.ts';
import { startGoogleSimulator, type GoogleSimulator } from '../../src/google/simulator/index.ts';
import type { CalbridgeProcess } from '../helpers/calbridge-process.ts';

const calbridge = calbridgeProcesses();
let cwd: string | undefined;
let google: GoogleSimulator | undefined;
afterEach(async () => {
  if (cwd) rmSync(cwd, { recursive: true, force: true });
  await google?.close();
  cwd = google = undefined;
});

/** /api/status as its schema reads it, and the demo's simulated Google account in it. */
async function demoStatus(base: string) {
  const s = statusDocument.parse(await (await fetch(`${base}/api/status`)).json());
  const google = s.targets['google.default']!;
  const push = google.reverse_sync.enabled ? google.reverse_sync.push : undefined;
  return { ...s, ingest: s.ingest!, activity: s.activity!, google, push };
}

/** The appointments a simulated calendar page lists, per account section, each with the calendar it is in. */
async function pageAccounts(url: string): Promise<Map<string, { key: string; calendar: string }[]>> {
  const page = await (await fetch(url)).text();
  const accounts = new Map<string, { key: string; calendar: string }[]>();
  for (const section of page.matchAll(/<section class="account" data-account="([^"]+)">([\s\S]*?)<\/section>/g)) {
    const rows = [
      ...section[2]!.matchAll(/<tr class="event" data-appointment="([^"]*)"[\s\S]*?<td data-label="[^"]+">([^<]*)<\/td><\/tr>/g),
    ];
    accounts.set(
      section[1]!,
      rows.map((r) => ({ key: r[1]!, calendar: r[2]! })),
    );
  }
  return accounts;
}

const keysOf = (rows: { key: string }[] | undefined) => [...new Set((rows ?? []).map((r) => r.key))].sort();

/** A GET or a form's POST as a browser without JavaScript makes it: redirects are answered, not followed. */
const get = (url: string) => fetch(url, { redirect: 'manual', headers: { accept: 'text/html' } });
const post = (url: string, fields: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    body: new URLSearchParams(fields).toString(),
  });
const unescapeHtml = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The page's one form: where it posts, its hidden fields, and the calendars it offers. */
function formOf(page: string): { action: string; fields: Record<string, string>; calendars: string[] } {
  const action = /<form method="post" action="([^"]*)"/.exec(page)?.[1];
  if (action === undefined) throw new Error(`no form on the page:\n${page}`);
  const fields: Record<string, string> = {};
  for (const m of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[m[1]!] = unescapeHtml(m[2]!);
  const calendars = [...page.matchAll(/name="calendar" value="([^"]*)"/g)].map((m) => unescapeHtml(m[1]!));
  return { action: unescapeHtml(action), fields, calendars };
}

/** Waits until `account`'s section of a simulated calendar page holds exactly the appointments of `calendar` in the clinic's Google. */
async function holdsItsOwn(base: string, app: 'google' | 'outlook', account: string, calendar: string, demo: CalbridgeProcess) {
  return waitFor(
    `${account} to hold the appointments of “${calendar}” only`,
    async () => {
      const google = await pageAccounts(`${base}/demo/google`);
      const own = app === 'google' ? google.get(account) : (await pageAccounts(`${base}/demo/outlook`)).get(account);
      const expected = keysOf(google.get('google.default')?.filter((r) => r.calendar === calendar));
      const held = keysOf(own);
      // Each once: as many rows as keys.
      return expected.length > 0 && JSON.stringify(held) === JSON.stringify(expected) && own?.length === held.length && held;
    },
    { process: demo, everyMs: 250 },
  );
}

describe('demo', () => {
  it('runs the whole bridge with no configuration: booking simulator → calbridge → simulated Google and the feed', async () => {
    // An empty working folder: no config.yaml to find, and nothing may be written into it.
    cwd = mkdtempSync(join(tmpdir(), 'calbridge-demo-cwd-'));
    const demo = calbridge.spawn(['demo', '--port', '0', '--interval', '300', '--appointments', '12', '--people-interval', '0'], {
      cwd,
      env: { CALBRIDGE_CONFIG: '' },
    });

    await waitFor('the banner', () => demo.stdout().includes('Stop with Ctrl-C'), { process: demo });
    const out = demo.stdout();
    const base = /status page +(http:\/\/127\.0\.0\.1:\d+)\/status/.exec(out)?.[1];
    expect(base).toBeDefined();
    // No admin token to hand out: the demo lets callers on this machine open the status pages.
    expect((await fetch(`${base}/status`)).status).toBe(200);
    expect(out).toContain(`Google        ${base}/demo/google`);
    expect(out).toContain(`Outlook       ${base}/demo/outlook`);
    expect(out).toContain(`status JSON   ${base}/api/status`);
    const feedToken = /feed +http:\/\/127\.0\.0\.1:\d+\/feeds\/([\w-]+)\.ics/.exec(out)?.[1];
    expect(feedToken).toBeDefined();
    demo.addSecret(feedToken!, { printedOnStdout: true }); // the banner prints it on purpose, the logs never
    expect(out).toContain('Google is simulated');
    const dbDir = /The database is temporary \((.+)\)/.exec(out)?.[1];
    expect(dbDir && existsSync(dbDir)).toBe(true);

    // Changes keep arriving through the simulator's webhooks, and reach the simulated Google, whose push channel is open.
    const status = await waitFor(
      'webhook deliveries applied and events in Google',
      async () => {
        const s = await demoStatus(base!);
        // The activity keeps the latest entries only: an event added to Google is looked for while it shows.
        const added = s.activity.recent.some((e) => e.direction === 'booking-to-targets' && e.summary.startsWith('added to Google'));
        // All twelve stored: the start-up poll has finished, whatever the webhooks brought before it.
        return (
          s.ingest.appointments.total >= 12 &&
          s.ingest.deliveries.applied >= 3 &&
          s.google.mirrored > 0 &&
          s.push?.enabled === true &&
          s.push.channels_active > 0 &&
          added &&
          s
        );
      },
      { process: demo },
    );
    expect(status.ingest.appointments.total).toBeGreaterThanOrEqual(12);
    expect(status.google).toMatchObject({ enabled: true, auth: { ok: true } });
    expect(status.push?.enabled).toBe(true);
    // The terminal tells the same, one line per change (written as the activity is recorded, so look for it).
    await waitFor(
      'a change told on the terminal',
      () => /\d\d:\d\d:\d\d {2}AG\d{5} +\[booking → Google\/Outlook\/feeds\] +(booked for|added to Google)/.test(demo.stdout()),
      { process: demo },
    );
    const view = await fetch(`${base}/demo/google`);
    expect(view.status).toBe(200);
    expect(await view.text()).toContain('Google Calendar <span class="muted">(simulated)</span>');
    // The simulated Outlook beside it: signed in (app-only, against the simulator), every appointment mirrored there too.
    const outlook = await waitFor(
      'events in the simulated Outlook',
      async () => {
        const s = statusDocument.parse(await (await fetch(`${base}/api/status`)).json()).targets['microsoft.default'];
        return s && s.mirrored > 0 && s;
      },
      { process: demo },
    );
    expect(outlook).toMatchObject({ enabled: true, auth: { ok: true } });
    const outlookView = await (await fetch(`${base}/demo/outlook`)).text();
    expect(outlookView).toContain('Outlook calendar <span class="muted">(simulated)</span>');
    expect(outlookView).toContain('class="event"');

    demo.child.kill('SIGTERM');
    expect(await demo.exited).toBe(0);
    expect(existsSync(dbDir!)).toBe(false);
    expect(demo.stderr()).toBe('');
    expect(readdirSync(cwd!)).toEqual([]);
  }, 60_000);

  it('gives Ana (Google) and Carla (Outlook) their own appointments only, and Lúcia’s invite, clicked through over plain HTTP, mirrors her calendar', async () => {
    // Few changes while it runs: the pages are compared as they settle.
    const demo = calbridge.spawn(['demo', '--port', '0', '--interval', '60000', '--appointments', '30', '--people-interval', '0'], {
      env: { CALBRIDGE_CONFIG: '' },
    });
    await waitFor('the banner', () => demo.stdout().includes('Stop with Ctrl-C'), { process: demo });
    const out = demo.stdout();
    const base = /status page +(http:\/\/127\.0\.0\.1:\d+)\/status/.exec(out)![1]!;
    for (const m of out.matchAll(/\/feeds\/([\w-]+)\.ics/g)) demo.addSecret(m[1]!, { printedOnStdout: true });
    const physio = /Ana +Google, google\.ana: the appointments of “([^”]+)”/.exec(out)?.[1];
    const dental = /Carla +Outlook, microsoft\.carla: the appointments of “([^”]+)”/.exec(out)?.[1];
    const invited = /for Lúcia \(“([^”]+)”\)/.exec(out)?.[1];
    expect([physio, dental, invited]).toEqual(['Fisioterapia — Sala 2', 'Odontologia São João', 'Dra. Lúcia Magalhães · Clínica Geral']);
    const link = /connect +(http:\/\/\S+\/connect\/\S+)/.exec(out)?.[1];
    expect(link).toBeDefined();
    demo.addSecret(new URL(link!).pathname.split('/').pop()!, { printedOnStdout: true });

    // Each professional's own account holds the appointments of her booking calendar, once each, and no other.
    expect(await holdsItsOwn(base, 'google', 'google.ana', physio!, demo)).not.toEqual([]);
    expect(await holdsItsOwn(base, 'outlook', 'microsoft.carla', dental!, demo)).not.toEqual([]);
    const status = statusDocument.parse(await (await fetch(`${base}/api/status`)).json());
    expect(Object.keys(status.targets).sort()).toEqual(['google.ana', 'google.default', 'microsoft.carla', 'microsoft.default']);
    // The status page has a section per account, and shows the invite.
    const before = await (await fetch(`${base}/status`)).text();
    for (const account of ['google.ana', 'microsoft.carla']) expect(before).toContain(account);
    expect(before).toContain(`<a class="invite" href="${link}">`);

    // Lúcia clicks through with no JavaScript: calbridge sends her to the simulated Google's consent page,
    const signIn = await get(link!);
    expect(signIn.status).toBe(302);
    const consentUrl = signIn.headers.get('location')!;
    const consent = await get(consentUrl);
    expect(consent.status).toBe(200);
    const consentPage = await consent.text();
    expect(consentPage).toContain('<button type="submit">Allow</button>');
    // she clicks Allow, and is sent back with a code; calbridge lists the calendars she may change,
    const allowed = await post(new URL(formOf(consentPage).action, consentUrl).href, formOf(consentPage).fields);
    expect(allowed.status).toBe(302);
    const callback = allowed.headers.get('location')!;
    const list = await get(callback);
    expect(list.status).toBe(200);
    const pick = formOf(await list.text());
    expect(pick.calendars).toContain('office@group.calendar.google.com');
    // she picks her office calendar and confirms.
    const done = await post(new URL(pick.action, callback).href, { ...pick.fields, calendar: 'office@group.calendar.google.com' });
    expect(done.status).toBe(200);

    // Within a pass her account is mirrored: her booking calendar's appointments, once each, in the calendar she picked.
    const mirrored = await waitFor(
      'google.lucia mirrored',
      async () => {
        const s = statusDocument.parse(await (await fetch(`${base}/api/status`)).json()).targets['google.lucia'];
        return s && s.mirrored > 0 && s.pending === 0 && s;
      },
      { process: demo },
    );
    expect(mirrored).toMatchObject({ connected: true, auth: { ok: true } });
    expect(await holdsItsOwn(base, 'google', 'google.lucia', invited!, demo)).toHaveLength(mirrored.mirrored);
    // The link is spent, and the status page says she is connected.
    expect((await get(link!)).status).toBe(404);
    const after = await (await fetch(`${base}/status`)).text();
    expect(after).toContain('Lúcia connected her calendar');
    expect(after).not.toContain(link!);

    demo.child.kill('SIGTERM');
    expect(await demo.exited).toBe(0);
    expect(demo.stderr()).toBe('');
  }, 60_000);

  it('with --config, mirrors into the Google calendars of that file and leaves people out of them', async () => {
    // A Google simulator of the test's own stands for the real Google the file names.
    google = await startGoogleSimulator({ clientId: 'client-1.apps.example', clientSecret: 'client-secret-of-the-file' });
    cwd = mkdtempSync(join(tmpdir(), 'calbridge-demo-config-'));
    const file = join(cwd, 'config.yaml');
    writeFileSync(
      file,
      [
        'server: { public_url: "https://calendar.example.com" }',
        'booking: { base_url: "https://booking.example.com", token: "booking-token-of-the-file" }',
        'webhook: { secret: "webhook-secret-of-the-file" }',
        'google:',
        `  api_root: "${google.rootUrl}"`,
        `  token_url: "${google.tokenUrl}"`,
        '  credentials: { client_id: client-1.apps.example, client_secret: client-secret-of-the-file, refresh_token: refresh-token-of-the-file }',
        '  calendars: [{ calendar_key: "*", calendar_id: clinic@group.calendar.google.com }]',
        '  reverse_sync: { enabled: false }',
      ].join('\n'),
    );
    const demo = calbridge.spawn(
      ['demo', '--config', file, '--port', '0', '--appointments', '6', '--interval', '60000', '--people-interval', '300'],
      { cwd },
    );
    await waitFor('the banner', () => demo.stdout().includes('Stop with Ctrl-C'), { process: demo });
    const base = /status page +(http:\/\/127\.0\.0\.1:\d+)\/status/.exec(demo.stdout())?.[1];
    const feedToken = /feed +http:\/\/127\.0\.0\.1:\d+\/feeds\/([\w-]+)\.ics/.exec(demo.stdout())?.[1];
    demo.addSecret(feedToken!, { printedOnStdout: true });
    expect(demo.stdout()).toContain('Google is the one of --config');
    expect(demo.stdout()).not.toContain('/demo/google');

    // The seeded appointments are random (a past one may be cancelled): wait until calbridge has
    // nothing left to write, then every event it counts as mirrored is in the file's calendar.
    const settled = await waitFor(
      'every appointment written to the file’s calendar',
      async () => {
        const s = await demoStatus(base!);
        // How many of the six are in the poll window and not cancelled is up to the random seed.
        return s.ingest.poll.last?.outcome === 'success' && s.google.mirrored >= 1 && s.google.pending === 0 && s;
      },
      { process: demo },
    );
    expect(google.events('clinic@group.calendar.google.com')).toHaveLength(settled.google.mirrored);
    // Nobody but calbridge touched the file's calendar: its log, complete now that nothing is pending,
    // holds calbridge's inserts and no edit (simulated people edit only the demo's own simulated Google).
    expect(google.log.filter((r) => r.kind === 'patch' || r.kind === 'delete')).toEqual([]);
    expect(demo.stdout()).not.toContain('someone in Google');
    expect((await fetch(`${base}/demo/google`)).status).toBe(404);
    expect((await fetch(`${base}/demo/outlook`)).status).toBe(404);

    demo.child.kill('SIGTERM');
    expect(await demo.exited).toBe(0);
  }, 60_000);
});
