// A daemon in this process with connect enabled, on a config file the CLI reads too, its log lines
// kept, and a person's browser without JavaScript: plain requests, redirects followed by hand, forms
// read from the HTML and posted back as a browser would.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfigFile } from '../../src/config/load.ts';
import { createLogger } from '../../src/log.ts';
import type { Clock } from '../../src/core/clock.ts';
import { startDaemon, type Daemon } from '../../src/main.ts';
import { freePort } from '../helpers/free-port.ts';
import { cli } from '../helpers/run-cli.ts';
import { TEST_WEBHOOK_SECRET, unreachableBooking } from '../helpers/context.ts';
import type { Simulator } from '../../src/booking/simulator/index.ts';
import { simulatorClient, TEST_ZONE } from '../helpers/simulator.ts';
import type { ResolveHost } from '../../src/net/address-guard.ts';

export const ADMIN_TOKEN = 'connect-admin-token-0123456789';
const SECRET_KEY = 'connect-secret-key-0123456789-abcdefghij';

export interface ConnectEnv {
  dir: string;
  file: string;
  base: string;
  daemon: Daemon;
  /** `calbridge <args> --config <file>`. */
  run(...args: string[]): ReturnType<typeof cli>;
  /** Every log line of the daemon so far. */
  logs(): string;
  /** The database file and its WAL, raw. */
  databaseBytes(): Buffer;
  /** Writes the config again with other lines (for a one-shot command). */
  rewrite(yaml: string): void;
  stop(): Promise<void>;
}

/** `sections`: YAML after server, database, booking and webhook (a google section, connect, ...). */
export async function startConnectEnv(
  sections: (base: string) => string,
  options: { clock?: Clock; locale?: 'en' | 'pt-BR'; booking?: Simulator; resolveHost?: ResolveHost } = {},
): Promise<ConnectEnv> {
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-connect-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const file = join(dir, 'config.yaml');
  const yaml = (
    extra: string,
  ) => `server: { host: 127.0.0.1, port: ${port}, public_url: "${base}", admin_token: ${ADMIN_TOKEN}, secret_key: ${SECRET_KEY}, locale: ${options.locale ?? 'en'} }
database: { path: calbridge.db }
booking: { base_url: "${options.booking?.url ?? 'http://127.0.0.1:9'}", token: ${options.booking?.token ?? 'connect-booking-token'}, timezone: ${TEST_ZONE} }
webhook: { secret: ${TEST_WEBHOOK_SECRET}, register: false }
poll: { schedule: "0 0 1 1 *" }
${extra}`;
  writeFileSync(file, yaml(sections(base)));
  const written: string[] = [];
  const log = createLogger({ level: 'debug', stream: { write: (l) => written.push(l) } });
  const daemon = await startDaemon(loadConfigFile(file).config, {
    log,
    port,
    booking: options.booking ? simulatorClient(options.booking) : unreachableBooking,
    processMetrics: false,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.resolveHost ? { resolveHost: options.resolveHost } : {}),
  });
  let stopped = false;
  return {
    dir,
    file,
    base,
    daemon,
    run: (...args) => cli(...args, '--config', file),
    logs: () => written.join(''),
    databaseBytes: () =>
      Buffer.concat(
        ['calbridge.db', 'calbridge.db-wal']
          .map((f) => join(dir, f))
          .filter(existsSync)
          .map((f) => readFileSync(f)),
      ),
    rewrite: (extra) => writeFileSync(file, extra),
    async stop() {
      if (stopped) return;
      stopped = true;
      await daemon.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Form {
  action: string;
  fields: Record<string, string>;
  /** The values of the radio buttons named `calendar`, in order. */
  calendars: string[];
}

const unescapeHtml = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The first form of a page, as a browser sees it: its action, hidden fields and calendar choices. */
export function formOf(page: string): Form {
  const action = /<form method="post" action="([^"]*)"/.exec(page)?.[1];
  if (action === undefined) throw new Error(`no form on the page:\n${page}`);
  const fields: Record<string, string> = {};
  for (const m of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[m[1]!] = unescapeHtml(m[2]!);
  const calendars = [...page.matchAll(/name="calendar" value="([^"]*)"/g)].map((m) => unescapeHtml(m[1]!));
  return { action: unescapeHtml(action), fields, calendars };
}

/** A GET as a browser without JavaScript makes it, nothing followed. */
export const get = (url: string) => fetch(url, { redirect: 'manual', headers: { accept: 'text/html' } });

export const post = (url: string, fields: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    body: new URLSearchParams(fields).toString(),
  });

/** Follows redirects by hand from `url` (each hop a plain GET), up to the first answer that is not one; returns it and the hops. */
export async function follow(url: string): Promise<{ res: Response; hops: string[] }> {
  const hops: string[] = [];
  let res = await get(url);
  for (let i = 0; i < 5 && res.status >= 300 && res.status < 400; i++) {
    const next = new URL(res.headers.get('location')!, url).href;
    hops.push(next);
    url = next;
    res = await get(url);
  }
  return { res, hops };
}
