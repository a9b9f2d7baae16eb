// What `demo` runs (demo.ts describes the command): the booking simulator in living mode → the daemon
// → the Google Calendar simulator (or the Google of --config) and the feed, on a throw-away database.
// Notifications from both simulators go straight to the daemon; the terminal tells what happens.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { configSchema, type Config } from '../config/schema.ts';
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
import type { DemoGoogle } from './demo-google.ts';
import { DIRECTION_LABELS } from '../core/activity-words.ts';

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

function demoConfig(sim: Simulator, port: number, dbPath: string, google: Config['google'] | Record<string, unknown> | undefined): Config {
  return configSchema.parse({
    // No admin token to hand out: the status pages open for callers on this machine only.
    server: { host: '127.0.0.1', port, public_url: `http://127.0.0.1:${port}`, status_auth: 'loopback' },
    database: { path: dbPath },
    booking: { base_url: sim.url, token: sim.token, timezone: ZONE },
    webhook: { secret: randomBytes(18).toString('base64url'), register: false },
    // A poll every minute, so a missed notification shows up quickly in the demo too.
    poll: { schedule: '* * * * *', past_days: 14, future_days: 30 },
    feeds: [{ name: 'Demo clinic', token: randomBytes(18).toString('base64url'), title: '{person.full_name} · {search_code}' }],
    ...(google ? { google } : {}),
  });
}

const DIRECTIONS: Record<string, string> = DIRECTION_LABELS;

/** One line per entry of the activity, and per edit of a simulated person; held back until `start()` (after the banner). */
function terminalLog(daemon: Daemon, io: CommandIo): { print(line: string): void; start(): void } {
  let held: string[] | null = [];
  const print = (line: string) => {
    const now = DateTime.now().setZone(ZONE).toFormat('HH:mm:ss');
    const stamped = `${now}  ${line}`;
    if (held) held.push(stamped);
    else io.out(stamped);
  };
  daemon.runtime.services.activity.onRecord((e: ActivityEntry) => {
    const direction = `[${DIRECTIONS[e.direction] ?? e.direction}]`.padEnd(24);
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
  if (peopleInterval > 0 && peopleInterval < 250) throw new UserError('--people-interval must be 0 (no simulated people) or at least 250 milliseconds', 2);
  // With --config, its google section (a real calendar, or none); without, the simulated Google.
  const fromConfig = values.config !== undefined;
  const realGoogle = fromConfig ? loadConfig().google : undefined;
  const port = requested === 0 ? await freePort() : requested;
  const seed = Date.now() % 100_000;

  const dir = mkdtempSync(join(tmpdir(), 'calbridge-demo-'));
  let daemonUrl = '';
  let sim: Simulator | undefined;
  let google: DemoGoogle | undefined;
  let daemon: Daemon | undefined;
  let stopped: Promise<void> | undefined;
  const cleanup = () =>
    (stopped ??= (async () => {
      sim?.stopLiving();
      await google?.close();
      await daemon?.stop();
      await sim?.close();
      rmSync(dir, { recursive: true, force: true });
    })());
  try {
    sim = await startSimulator({
      timezone: ZONE,
      seed: { count, random: seed },
      notify: { shape: 'envelope', rewriteCallback: (url) => url.replace(DEMO_PUBLIC, daemonUrl) },
    });
    if (!fromConfig) {
      // The Google simulator is loaded only here: serve and the other commands never need it.
      const { startDemoGoogle } = await import('./demo-google.ts');
      google = await startDemoGoogle(sim, { zone: ZONE, publicUrl: DEMO_PUBLIC, daemonUrl: () => daemonUrl, seed });
    }
    let config = demoConfig(sim, port, join(dir, 'calbridge.db'), fromConfig ? realGoogle : google?.section);
    // The terminal tells every move, revert and refusal in words (and the status page every problem):
    // the log adds only errors, unless --verbose or CALBRIDGE_LOG_LEVEL asks for more.
    const log = createLogger({ fd: 2, level: verbose ? 'debug' : logLevel('error'), secrets: configuredSecrets(config) });
    const guard = adminAuth({ token: config.server.admin_token, statusAuth: config.server.status_auth });
    // A free port found for --port 0 can be taken by another program before the daemon binds it
    // (the simulators start in between): then another is tried.
    for (let attempt = 1; ; attempt++) {
      try {
        daemon = await startDaemon(config, { log, port: config.server.port, ...(google ? { demoPages: google.pages(guard) } : {}) });
        break;
      } catch (e) {
        const code = ((e as Error).cause as NodeJS.ErrnoException | undefined)?.code;
        if (code === 'EADDRINUSE' && requested === 0 && attempt < 5) {
          const next = await freePort();
          config = { ...config, server: { ...config.server, port: next, public_url: `http://127.0.0.1:${next}` } };
          continue;
        }
        if (code === 'EADDRINUSE') throw new UserError(`port ${config.server.port} is in use; pick another with --port (0 picks a free one)`);
        throw e;
      }
    }
    daemonUrl = daemon.url;
    const terminal = terminalLog(daemon, io);
    await ensureWebhook(bookingClientFromConfig(config.booking, log), { publicUrl: DEMO_PUBLIC, secret: config.webhook.secret, events: config.webhook.events });

    const base = daemon.url;
    const feed = feedUrl(base, config.feeds[0]?.token ?? '');
    io.out(`calbridge demo: a simulated booking service with ${count} appointments that keep changing (every ${interval / 1000} s).`);
    io.out('Open:');
    if (await answers(`${base}/status`)) io.out(`  status page   ${base}/status`);
    if (google) io.out(`  Google        ${base}/demo/google   (the simulated Google calendars)`);
    io.out(`  status JSON   ${base}/api/status`);
    if (await answers(feed)) {
      io.out(`  feed          ${feed}`);
      io.out(`  subscribe     ${webcalUrl(feed)}`);
    }
    io.out(`  metrics       ${base}/metrics`);
    if (google) {
      io.out(
        peopleInterval > 0
          ? `Google is simulated: every appointment is mirrored there, and every ${peopleInterval / 1000} s someone moves or deletes an event in it.`
          : 'Google is simulated: every appointment is mirrored there; nobody edits it (--people-interval 0).',
      );
    } else {
      io.out(config.google?.enabled ? 'Google is the one of --config: simulated appointments are written to its mapped calendars.' : 'Google is off in the --config file.');
    }
    io.out(`The database is temporary (${dir}) and is removed at exit. Stop with Ctrl-C.`);
    io.out('');
    terminal.start();
    sim.startLiving({ intervalMs: interval });
    if (google && peopleInterval > 0) google.startPeople(peopleInterval, terminal.print);
    return await waitForSignal(cleanup);
  } finally {
    await cleanup().catch(() => undefined);
  }
}
