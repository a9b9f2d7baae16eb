// `demo`: the daemon against the built-in booking simulator in living mode, on a throw-away database,
// with no credentials and no config file. Notifications go from the simulator straight to the daemon.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { configSchema, type Config } from '../config/schema.ts';
import { UserError } from '../core/errors.ts';
import { isCancelled } from '../core/appointment.ts';
import { commandLogger } from '../log.ts';
import { startDaemon, type Daemon } from '../main.ts';
import { startSimulator, type Simulator } from '../booking/simulator/index.ts';
import { bookingClientFromConfig } from '../booking/client.ts';
import { ensureWebhook } from '../booking/webhook-registration.ts';
import { feedUrl, webcalUrl } from '../feeds/feed-urls.ts';
import type { Command, CommandIo } from './command.ts';
import { wholeNumberOption } from './args.ts';
import { waitForSignal } from './serve.ts';

const ZONE = 'America/Sao_Paulo';
// The simulator, like the real service, only registers https:// callbacks; it delivers them locally.
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

function demoConfig(sim: Simulator, port: number, dbPath: string, google: Config['google']): Config {
  return configSchema.parse({
    server: { host: '127.0.0.1', port, public_url: `http://127.0.0.1:${port}` },
    database: { path: dbPath },
    booking: { base_url: sim.url, token: sim.token, timezone: ZONE },
    webhook: { secret: randomBytes(18).toString('base64url'), register: false },
    // A poll every minute, so a missed notification shows up quickly in the demo too.
    poll: { schedule: '* * * * *', past_days: 14, future_days: 30 },
    feeds: [{ name: 'Demo clinic', token: randomBytes(18).toString('base64url') }],
    ...(google ? { google } : {}),
  });
}

/** One line per change, as appointments arrive: the demo's point. Held back until `start()` (after the banner). */
function printChanges(daemon: Daemon, io: CommandIo): { start(): void } {
  const { appointments } = daemon.runtime.ctx;
  let held: string[] | null = [];
  const print = (line: string) => (held ? held.push(line) : io.out(line));
  appointments.onChange((key, revision) => {
    const stored = appointments.get(key);
    if (!stored) return;
    const a = stored.appointment;
    const what = stored.goneAt !== null ? 'gone' : isCancelled(a.status) ? 'cancelled' : revision === 1 ? 'new' : 'changed';
    const when = DateTime.fromMillis(a.start, { zone: a.timezone }).setLocale('en').toFormat('ccc dd LLL HH:mm');
    const now = DateTime.now().setZone(a.timezone).toFormat('HH:mm:ss');
    const who = [a.person.fullName, a.calendar.name].filter(Boolean).join(' · ');
    print(`${now}  ${what.padEnd(9)} ${(a.searchCode ?? key).padEnd(9)} ${when}  ${who}  (${a.status})`);
  });
  return {
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

export const demoCommand: Command = {
  name: 'demo',
  summary: 'serve against a built-in simulator of the booking service: throw-away database, no credentials',
  help: [
    'Starts a simulated booking service seeded with realistic appointments that keep changing, and the daemon',
    'against it, with a temporary database removed at exit. Nothing is needed: no config, no tokens.',
    'With --config, the Google section of that file is used (and Google is mirrored); without, Google is off.',
    'Stops on SIGTERM or SIGINT (Ctrl-C), exit 0.',
  ].join('\n'),
  options: {
    port: { type: 'string', description: 'listen on this port (default 8080; 0 picks a free one)' },
    appointments: { type: 'string', description: 'appointments to start with (default 40)' },
    interval: { type: 'string', description: 'milliseconds between changes at the simulated service (default 4000)' },
  },
  async run({ values, io, verbose, loadConfig }) {
    const requested = wholeNumberOption(values.port, 'port', 8080, 0, 65535);
    const count = wholeNumberOption(values.appointments, 'appointments', 40, 0, 5000);
    const interval = wholeNumberOption(values.interval, 'interval', 4000, 100, 3_600_000);
    const google = values.config !== undefined ? loadConfig().google : undefined;
    const port = requested === 0 ? await freePort() : requested;

    const dir = mkdtempSync(join(tmpdir(), 'calbridge-demo-'));
    let daemonUrl = '';
    let sim: Simulator | undefined;
    let daemon: Daemon | undefined;
    let stopped: Promise<void> | undefined;
    const cleanup = () =>
      (stopped ??= (async () => {
        sim?.stopLiving();
        await daemon?.stop();
        await sim?.close();
        rmSync(dir, { recursive: true, force: true });
      })());
    try {
      sim = await startSimulator({
        timezone: ZONE,
        seed: { count, random: Date.now() % 100_000 },
        notify: { shape: 'envelope', rewriteCallback: (url) => url.replace(DEMO_PUBLIC, daemonUrl) },
      });
      const config = demoConfig(sim, port, join(dir, 'calbridge.db'), google);
      const log = commandLogger(verbose);
      try {
        daemon = await startDaemon(config, { log, port });
      } catch (e) {
        const code = ((e as Error).cause as NodeJS.ErrnoException | undefined)?.code;
        if (code === 'EADDRINUSE') throw new UserError(`port ${port} is in use; pick another with --port (0 picks a free one)`);
        throw e;
      }
      daemonUrl = daemon.url;
      const changes = printChanges(daemon, io);
      await ensureWebhook(bookingClientFromConfig(config.booking, log), { publicUrl: DEMO_PUBLIC, secret: config.webhook.secret, events: config.webhook.events });

      const base = daemon.url;
      const feed = feedUrl(base, config.feeds[0]?.token ?? '');
      io.out(`calbridge demo: a simulated booking service with ${count} appointments that keep changing (every ${interval / 1000} s).`);
      io.out('Open:');
      if (await answers(`${base}/status`)) io.out(`  status page   ${base}/status`);
      io.out(`  status JSON   ${base}/api/status`);
      if (await answers(feed)) {
        io.out(`  feed          ${feed}`);
        io.out(`  subscribe     ${webcalUrl(feed)}`);
      }
      io.out(`  metrics       ${base}/metrics`);
      io.out(config.google?.enabled ? 'Google is on: simulated appointments are written to the mapped calendars.' : 'Google is off (run `demo --config <file>` with a google section to mirror into a calendar).');
      io.out(`The database is temporary (${dir}) and is removed at exit. Stop with Ctrl-C.`);
      io.out('');
      changes.start();
      sim.startLiving({ intervalMs: interval });
      return await waitForSignal(cleanup);
    } finally {
      await cleanup().catch(() => undefined);
    }
  },
};
