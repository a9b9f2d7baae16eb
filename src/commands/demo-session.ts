// What `demo` runs (demo.ts describes the command): the booking simulator in living mode → the daemon
// → the Google Calendar and Graph simulators (or the Google of --config) and the feed, on a throw-away
// database. The clinic's accounts get every appointment; Ana (Google) and Carla (Outlook) each their
// own booking calendar in an account of their own; Lúcia is invited to connect hers by a link
// (`connect` on, with a throw-away secret_key). Notifications go straight to the daemon; the
// terminal tells what happens.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono, type MiddlewareHandler } from 'hono';
import { DateTime } from 'luxon';
import { configSchema, type Config } from '../config/schema.ts';
import { connect as connectSchema } from '../config/connect-schema.ts';
import { makeInvite } from '../sync/connect/invite.ts';
import { UserError } from '../core/errors.ts';
import { createLogger, logLevel } from '../log.ts';
import { configuredSecrets } from '../http/status-page/redact.ts';
import { adminAuth } from '../http/admin-auth.ts';
import { startDaemon, type Daemon } from '../main.ts';
import { startSimulator, type Simulator } from '../booking/simulator/index.ts';
import { bookingClientFromConfig } from '../booking/client.ts';
import { ensureWebhook } from '../booking/webhook-registration.ts';
import { feedUrl, webcalUrl } from '../feeds/feed-urls.ts';
import type { ActivityEntry } from '../store/activity-store.ts';
import type { CommandArgs, CommandIo } from './command.ts';
import { wholeNumberOption } from './args.ts';
import { waitForSignal } from './serve.ts';
import type { DemoGoogle, DemoProfessional } from './demo-google.ts';
import type { DemoMicrosoft } from './demo-microsoft.ts';
import { directionLabel, type Voice } from '../core/activity-words.ts';
import { LOCALES, messagesFor, type Locale } from '../core/i18n/index.ts';
import { voiceOf } from '../config/voice.ts';
import { lanAddress } from './lan-address.ts';
import { demoCalendarPath } from '../http/demo-calendar-view.ts';
import type { PageLink, PageNotice } from '../http/status-page.ts';

const ZONE = 'America/Sao_Paulo';
// The simulators, like the real services, only call https:// addresses; they deliver them locally.
const DEMO_PUBLIC = 'https://calbridge-demo.invalid';

/** A free port now, so public_url (feed links) names the port the daemon really gets. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * The address the feed's links and QR code carry: the machine's LAN address, so a phone on the same
 * network subscribes by scanning the page; without one, 127.0.0.1 (and the page draws no code).
 */
function publicUrl(lan: string | undefined, port: number): string {
  return `http://${lan ?? '127.0.0.1'}:${port}`;
}

function demoConfig(
  sim: Simulator,
  port: number,
  dbPath: string,
  google: Config['google'] | Record<string, unknown> | undefined,
  locale: Locale,
  lan: string | undefined,
  microsoft?: Record<string, unknown>,
  connect?: Record<string, unknown>,
): Config {
  const config = configSchema.parse({
    // No admin token to hand out: the status pages open for callers on this machine only. With a LAN
    // address the daemon listens there too, for the feed a phone subscribes to (its token is its address).
    server: {
      host: lan ? '0.0.0.0' : '127.0.0.1',
      port,
      public_url: publicUrl(lan, port),
      status_auth: 'loopback',
      locale,
      // Seals the connected calendar's refresh token in the throw-away database.
      ...(connect ? { secret_key: randomBytes(33).toString('base64url') } : {}),
    },
    database: { path: dbPath },
    booking: { base_url: sim.url, token: sim.token, timezone: ZONE },
    webhook: { secret: randomBytes(18).toString('base64url'), register: false },
    // A poll every minute, so a missed notification shows up quickly in the demo too.
    poll: { schedule: '* * * * *', past_days: 14, future_days: 30 },
    feeds: [
      {
        name: messagesFor(locale).demo.feedName,
        token: randomBytes(18).toString('base64url'),
        title: '{person.full_name} · {search_code}',
      },
    ],
    ...(google ? { google } : {}),
    ...(microsoft ? { microsoft } : {}),
  });
  // Laid on after the check that wants an https (or loopback) public_url while connect is on: the
  // demo's public_url is its LAN address over http, for a phone's feed, and the sign-in it carries
  // is the simulated Google's on this machine, with a throw-away client and database.
  return connect ? { ...config, connect: connectSchema.parse(connect) } : config;
}

/** The demo's professionals: Ana and Carla each in an account of their own, Lúcia invited to connect hers. */
function professionalsOf(sim: Simulator): { ana: DemoProfessional; carla: DemoProfessional; lucia: DemoProfessional } {
  const [general, physio, dental] = sim.calendars();
  if (!general || !physio || !dental) throw new Error('the booking simulator has fewer than three calendars');
  return {
    lucia: { account: 'lucia', person: 'Lúcia', calendar: general },
    ana: { account: 'ana', person: 'Ana', calendar: physio },
    carla: { account: 'carla', person: 'Carla', calendar: dental },
  };
}

/** One line per entry of the activity, and per edit of a simulated person; held back until `start()` (after the banner). */
function terminalLog(daemon: Daemon, io: CommandIo, voice: Voice): { print(line: string): void; start(): void } {
  let held: string[] | null = [];
  const print = (line: string) => {
    const now = DateTime.now().setZone(ZONE).toFormat('HH:mm:ss');
    const stamped = `${now}  ${line}`;
    if (held) held.push(stamped);
    else io.out(stamped);
  };
  // The badge column as wide as its widest badge ("[booking → Google/Outlook/feeds]").
  const width = Math.max(24, directionLabel('booking-to-targets', voice).length + 3);
  daemon.runtime.services.activity.onRecord((e: ActivityEntry) => {
    const direction = `[${directionLabel(e.direction, voice)}]`.padEnd(width);
    print(`${(e.label ?? '').padEnd(9)} ${direction} ${e.summary}${e.reason ? ` — ${e.reason}` : ''}`);
  });
  return {
    print,
    start() {
      for (const line of held ?? []) io.out(line);
      held = null;
    },
  };
}

/** The simulated calendars' pages, on one router, the status page's links to each, and its note of the invite. */
function demoPages(
  guard: MiddlewareHandler,
  notice: () => PageNotice | undefined,
  ...apps: ({ pages(guard: MiddlewareHandler): { routes: Hono; links: PageLink[] } } | undefined)[]
): { demoPages?: { routes: Hono; links: PageLink[]; notice: () => PageNotice | undefined } } {
  const pages = apps.flatMap((a) => (a ? [a.pages(guard)] : []));
  if (pages.length === 0) return {};
  const routes = new Hono();
  for (const p of pages) routes.route('/', p.routes);
  return { demoPages: { routes, links: pages.flatMap((p) => p.links), notice } };
}

/** --locale, else the --config file's server.locale, else English. */
function localeOption(value: unknown, fromFile: Locale | undefined): Locale {
  if (value === undefined) return fromFile ?? 'en';
  if (typeof value === 'string' && (LOCALES as readonly string[]).includes(value)) return value as Locale;
  throw new UserError(`--locale must be one of ${LOCALES.join(', ')}`, 2);
}

async function answers(url: string): Promise<boolean> {
  return fetch(url, { method: 'HEAD' }).then(
    (r) => r.status !== 404,
    () => false,
  );
}

export async function runDemo({ values, io, verbose, loadConfig }: CommandArgs): Promise<number> {
  const requested = wholeNumberOption(values.port, 'port', 8080, 0, 65535);
  const count = wholeNumberOption(values.appointments, 'appointments', 40, 0, 5000);
  const interval = wholeNumberOption(values.interval, 'interval', 4000, 100, 3_600_000);
  const peopleInterval = wholeNumberOption(values['people-interval'], 'people-interval', 15_000, 0, 3_600_000);
  if (peopleInterval > 0 && peopleInterval < 250)
    throw new UserError('--people-interval must be 0 (no simulated people) or at least 250 milliseconds', 2);
  // With --config, its google section (a real calendar, or none); without, the simulated Google.
  const fromConfig = values.config !== undefined;
  const fromFile = fromConfig ? loadConfig() : undefined;
  const realGoogle = fromFile?.google;
  const locale = localeOption(values.locale, fromFile?.server.locale);
  const lan = lanAddress();
  const port = requested === 0 ? await freePort() : requested;
  const seed = Date.now() % 100_000;

  const dir = mkdtempSync(join(tmpdir(), 'calbridge-demo-'));
  let daemonUrl = '';
  let sim: Simulator | undefined;
  let google: DemoGoogle | undefined;
  let outlook: DemoMicrosoft | undefined;
  let daemon: Daemon | undefined;
  let stopped: Promise<void> | undefined;
  const cleanup = () =>
    (stopped ??= (async () => {
      sim?.stopLiving();
      // The daemon first, while the simulators still answer: a pass or a round under way ends at once
      // instead of retrying against closed ports (with four accounts and more, one nearly always is).
      await daemon?.stop();
      await google?.close();
      await outlook?.close();
      await sim?.close();
      rmSync(dir, { recursive: true, force: true });
    })());
  try {
    sim = await startSimulator({
      timezone: ZONE,
      seed: { count, random: seed },
      notify: { shape: 'envelope', rewriteCallback: (url) => url.replace(DEMO_PUBLIC, daemonUrl) },
    });
    const team = professionalsOf(sim);
    if (!fromConfig) {
      // The Google simulator is loaded only here: serve and the other commands never need it.
      const { startDemoGoogle } = await import('./demo-google.ts');
      google = await startDemoGoogle({
        zone: ZONE,
        publicUrl: DEMO_PUBLIC,
        daemonUrl: () => daemonUrl,
        seed,
        messages: messagesFor(locale),
        calendars: sim.calendars(),
        professionals: [team.ana],
        invited: team.lucia,
      });
      // And a simulated Outlook beside it, mirrored the same way.
      const { startDemoMicrosoft } = await import('./demo-microsoft.ts');
      outlook = await startDemoMicrosoft({ zone: ZONE, seed, messages: messagesFor(locale), professionals: [team.carla] });
    }
    let config = demoConfig(
      sim,
      port,
      join(dir, 'calbridge.db'),
      fromConfig ? realGoogle : google?.section,
      locale,
      lan,
      outlook?.section,
      // caldav_private_addresses: the demo runs on the trier's own machine, and the CalDAV server
      // they may try the status page's "connect" with is theirs, on this machine or their LAN.
      google ? { enabled: true, caldav_private_addresses: true, ...google.connect } : undefined,
    );
    const voice = voiceOf(config);
    let notice: () => PageNotice | undefined = () => undefined;
    const m = voice.m;
    // The terminal tells every move, revert and refusal in words (and the status page every problem):
    // the log adds only errors, unless --verbose or CALBRIDGE_LOG_LEVEL asks for more.
    const log = createLogger({ fd: 2, level: verbose ? 'debug' : logLevel('error'), secrets: configuredSecrets(config) });
    const guard = adminAuth({ token: config.server.admin_token, statusAuth: config.server.status_auth, messages: m });
    // A free port found for --port 0 can be taken by another program before the daemon binds it
    // (the simulators start in between): then another is tried.
    for (let attempt = 1; ; attempt++) {
      try {
        daemon = await startDaemon(config, { log, port: config.server.port, ...demoPages(guard, () => notice(), google, outlook) });
        break;
      } catch (e) {
        const code = ((e as Error).cause as NodeJS.ErrnoException | undefined)?.code;
        if (code === 'EADDRINUSE' && requested === 0 && attempt < 5) {
          const next = await freePort();
          config = { ...config, server: { ...config.server, port: next, public_url: publicUrl(lan, next) } };
          continue;
        }
        if (code === 'EADDRINUSE')
          throw new UserError(`port ${config.server.port} is in use; pick another with --port (0 picks a free one)`);
        throw e;
      }
    }
    // The pages open for callers on this machine only (status_auth: loopback): they are shown on
    // 127.0.0.1, and the simulators deliver there, whatever address the daemon also listens on.
    const base = `http://127.0.0.1:${daemon.port}`;
    daemonUrl = base;
    const terminal = terminalLog(daemon, io, voice);
    // The invite for Lúcia, made once at start, shown in the banner and on the status page until she has used it.
    const running = daemon;
    const invite = google
      ? makeInvite(
          config,
          running.runtime.services.connections,
          { target: 'google', calendarKey: team.lucia.calendar.calendar_key, name: team.lucia.account },
          Date.now(),
        )
      : undefined;
    if (invite && !invite.ok) throw new Error(`the demo's invite was refused: ${invite.reason}`);
    notice = () => {
      if (!invite?.ok) return undefined;
      const used = running.runtime.services.connections.list().some((c) => c.kind === 'google' && c.name === team.lucia.account);
      return used
        ? { title: m.demo.inviteTitle, text: m.demo.inviteUsed(team.lucia.person) }
        : { title: m.demo.inviteTitle, text: m.demo.inviteText(team.lucia.person, team.lucia.calendar.name), link: invite.url };
    };
    await ensureWebhook(bookingClientFromConfig(config.booking, log), {
      publicUrl: DEMO_PUBLIC,
      secret: config.webhook.secret,
      events: config.webhook.events,
    });

    const token = config.feeds[0]?.token ?? '';
    const feed = feedUrl(base, token);
    const d = m.demo;
    const line = (label: string, value: string) => io.out(`  ${label.padEnd(13)} ${value}`);
    io.out(d.intro(count, interval / 1000));
    io.out(d.open);
    if (await answers(`${base}/status`)) line(d.statusPage, `${base}/status`);
    if (google) line(d.google, `${base}${demoCalendarPath('google')}   ${d.googleNote}`);
    if (outlook) line(d.outlook, `${base}${demoCalendarPath('outlook')}   ${d.outlookNote}`);
    if (google && outlook) {
      io.out(d.professionals);
      line(`  ${team.ana.person}`, d.professional('Google', `google.${team.ana.account}`, team.ana.calendar.name));
      line(`  ${team.carla.person}`, d.professional('Outlook', `microsoft.${team.carla.account}`, team.carla.calendar.name));
    }
    if (invite?.ok) {
      line(d.invite, invite.url);
      io.out(`  ${d.inviteNote(team.lucia.person, team.lucia.calendar.name)}`);
    }
    line(d.statusJson, `${base}/api/status`);
    if (await answers(feed)) {
      line(d.feed, feed);
      line(d.subscribe, webcalUrl(feed));
      if (lan) line(d.phone, webcalUrl(feedUrl(config.server.public_url, token)));
    }
    line(d.metrics, `${base}/metrics`);
    if (google) io.out(peopleInterval > 0 ? d.people(peopleInterval / 1000) : d.nobody);
    if (outlook) io.out(peopleInterval > 0 ? d.outlookPeople(peopleInterval / 1000) : d.outlookNobody);
    else io.out(config.google?.enabled ? d.realGoogle : d.googleOff);
    io.out(d.temporary(dir));
    io.out('');
    terminal.start();
    sim.startLiving({ intervalMs: interval });
    if (google && peopleInterval > 0) google.startPeople(peopleInterval, terminal.print);
    // Offset from Google's people, so the two calendars' edits do not land in the same second.
    if (outlook && peopleInterval > 0) setTimeout(() => outlook?.startPeople(peopleInterval, terminal.print), peopleInterval / 2).unref();
    return await waitForSignal(cleanup);
  } finally {
    await cleanup().catch(() => undefined);
  }
}
