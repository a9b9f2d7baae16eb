// Making an invite (docs/reference/commands.md, "connect invite"; the connections page): which
// target kinds `connect:` allows, the name's form and that no account of that kind (the config's,
// a connected one, another open invite) holds it already, and how long it lasts.
import type { Config } from '../../config/schema.ts';
import type { ConnectKind, ConnectStore } from '../../store/connect-store.ts';

export const CONNECT_KINDS: readonly ConnectKind[] = ['google', 'microsoft', 'caldav'];
const NAME = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
const DAY = 86_400_000;
const MAX_MS = 90 * DAY;

export interface InviteRequest {
  target: string;
  calendarKey: string;
  name?: string | undefined;
  /** `7d`, `12h`, `30m`; default 7 days. */
  expires?: string | undefined;
}

export type InviteResult =
  | { ok: true; url: string; kind: ConnectKind; name: string; expiresAt: number }
  /** One sentence naming what is wrong. */
  | { ok: false; reason: string };

/** The names the config's own accounts of this kind hold: each of `accounts:`, or `default` for the single-account form. */
function configNames(config: Config, kind: ConnectKind): string[] {
  const section = config[kind] as { accounts?: readonly { name: string }[] } | undefined;
  if (!section) return [];
  return section.accounts ? section.accounts.map((a) => a.name) : ['default'];
}

/** The lasting of an invite in milliseconds, or a reason. */
function parseExpiry(text: string | undefined): number | string {
  if (text === undefined) return 7 * DAY;
  const m = /^(\d{1,4})(m|h|d)$/.exec(text.trim());
  const ms = m ? Number(m[1]) * { m: 60_000, h: 3_600_000, d: DAY }[m[2] as 'm' | 'h' | 'd'] : Number.NaN;
  if (!(ms >= 60_000 && ms <= MAX_MS)) return `--expires must be a duration such as 7d, 12h or 30m, from 1m to 90d, not "${text}"`;
  return ms;
}

/** A name for the connection from its booking calendar, when none is given. */
function nameFrom(calendarKey: string): string {
  const base = calendarKey
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 24)
    .replace(/-+$/, '');
  return base || 'calendar';
}

export function makeInvite(config: Config, store: ConnectStore, r: InviteRequest, now: number): InviteResult {
  const c = config.connect;
  if (!c?.enabled) return { ok: false, reason: 'connect is not enabled: set connect.enabled: true and server.secret_key in the config' };
  const kind = CONNECT_KINDS.find((k) => k === r.target);
  if (!kind) return { ok: false, reason: `--target must be google, microsoft or caldav, not "${r.target}"` };
  if (kind === 'google' && !c.google_client)
    return { ok: false, reason: 'a Google invite needs connect.google_client (an OAuth client of type "Web application")' };
  if (kind === 'microsoft' && !c.microsoft_client)
    return { ok: false, reason: 'a Microsoft invite needs connect.microsoft_client (an app registration in Entra ID)' };
  const calendarKey = r.calendarKey.trim();
  if (calendarKey === '')
    return { ok: false, reason: '--calendar-key is required: the booking calendar whose appointments go to this account' };
  const lasting = parseExpiry(r.expires);
  if (typeof lasting === 'string') return { ok: false, reason: lasting };

  const taken = new Set([
    ...configNames(config, kind),
    ...store
      .list()
      .filter((x) => x.kind === kind)
      .map((x) => x.name),
    ...store.openInviteNames(kind),
  ]);
  let name = r.name?.trim();
  if (name !== undefined) {
    if (!NAME.test(name)) return { ok: false, reason: `--name must be 1 to 40 of a-z, 0-9 and - (not at either end), not "${name}"` };
    if (name === 'default' || taken.has(name))
      return {
        ok: false,
        reason: `the name "${name}" is already used by a ${kind} account (in the config, connected, or invited); give another --name`,
      };
  } else {
    const base = nameFrom(calendarKey);
    name = base;
    for (let n = 2; name === 'default' || taken.has(name); n++) name = `${base}-${n}`;
  }
  const expiresAt = now + lasting;
  const secret = store.createInvite({ kind, calendarKey, name, expiresAt });
  return { ok: true, url: new URL(`connect/${secret}`, withSlash(config.server.public_url)).href, kind, name, expiresAt };
}

export const withSlash = (url: string): string => (url.endsWith('/') ? url : `${url}/`);
