// Connecting calendars through a link (docs/reference/http.md, "Connect"): the pages a person opens
// (under /connect, while connect.enabled) and the admin's connections page (/status/connections,
// behind the admin guard). The providers are the adapters' sign-in functions over the configured
// endpoints; a confirmed or removed account wakes the runtime's `accounts` job.
import { randomBytes } from 'node:crypto';
import { errorMessage } from '../core/errors.ts';
import { Hono } from 'hono';
import { messagesOf } from '../config/voice.ts';
import { isLoopbackUrl } from '../config/connect-schema.ts';
import { createFormTokens } from '../core/form-token.ts';
import { googleSignIn } from '../google/connect-sign-in.ts';
import { microsoftSignIn } from '../microsoft/connect-sign-in.ts';
import { checkCalDavAccount } from '../caldav/connect-check.ts';
import { connectRoutes } from '../http/connect/connect-routes.ts';
import { connectionsPageRoutes } from '../http/connect/connections-page.ts';
import type { ConnectProviders } from '../http/connect/providers.ts';
import { CONNECT_KINDS, makeInvite, withSlash } from '../sync/connect/invite.ts';
import { removeConnection } from '../sync/connect/remove.ts';
import { connectedAccountsOf } from '../sync/connect/connected-accounts.ts';
import { calendarTaken } from '../sync/connect/calendar-taken.ts';
import type { Part } from './part.ts';
import type { Services } from './services.ts';

const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
const GOOGLE_API_ROOT = 'https://www.googleapis.com/';
const MICROSOFT_AUTHORITY = 'https://login.microsoftonline.com/';
const GRAPH_ROOT = 'https://graph.microsoft.com/';
const KEY_CHECK_MS = 60_000;

/** The sign-in of each kind `connect:` has a client for, at the endpoints of its kind's section (or their defaults). */
function providersOf(s: Services): ConnectProviders {
  const { config } = s;
  const c = config.connect;
  const g = c?.google_client;
  const ms = c?.microsoft_client;
  return {
    ...(g && c
      ? {
          google: googleSignIn({
            authUrl: c.google_auth_url,
            tokenUrl: config.google?.token_url ?? GOOGLE_TOKEN_URL,
            apiRoot: config.google?.api_root ?? GOOGLE_API_ROOT,
            clientId: g.client_id,
            clientSecret: g.client_secret,
          }),
        }
      : {}),
    ...(ms
      ? {
          microsoft: microsoftSignIn({
            authorityUrl: config.microsoft?.authority_url ?? MICROSOFT_AUTHORITY,
            graphRoot: config.microsoft?.graph_root ?? GRAPH_ROOT,
            tenant: ms.tenant,
            clientId: ms.client_id,
            clientSecret: ms.client_secret,
          }),
        }
      : {}),
    // A server given through a link is on a public address unless the admin allowed private ones
    // (net/address-rule.ts): the person holds an invite, not the keys to what only this host reaches.
    caldav: (url, username, password) =>
      checkCalDavAccount(url, username, password, {
        addresses: c?.caldav_private_addresses ? 'any' : 'public',
        ...(s.resolveHost ? { resolve: s.resolveHost } : {}),
      }),
  };
}

export function createConnectPart(s: Services): Part {
  const { config } = s;
  const m = messagesOf(config);
  const enabled = config.connect?.enabled === true;
  // Without secret_key nothing can be connected; the connections page's forms then last as long as this process.
  const forms = createFormTokens(config.server.secret_key ?? randomBytes(32).toString('base64url'));
  // A key that does not open the stored accounts leaves them unmirrored: said at start, and on /readyz
  // and the status page. Probes come every few seconds: the answer is kept a minute (or until a change).
  let checked: { at: number; problem: string | undefined } | undefined;
  const keyProblem = (): string | undefined => {
    const now = s.clock.now();
    if (checked && now - checked.at < KEY_CHECK_MS) return checked.problem;
    let problem: string | undefined;
    try {
      connectedAccountsOf(s.connections, config, s.clock, { strict: true })();
    } catch (e) {
      problem = errorMessage(e);
    }
    checked = { at: now, problem };
    return problem;
  };
  const changed = () => {
    checked = undefined;
    s.wake('accounts');
  };
  const app = new Hono();
  if (enabled) {
    const publicUrl = new URL(withSlash(config.server.public_url));
    app.route(
      '/',
      connectRoutes({
        store: s.connections,
        redirectUri: new URL('connect/callback', publicUrl).href,
        providers: providersOf(s),
        forms,
        messages: m,
        log: s.log,
        allowHttpCalDav: publicUrl.protocol === 'http:' && isLoopbackUrl(publicUrl),
        calendarTaken: (kind, calendar, login) =>
          calendarTaken(config, s.connections, { kind, id: calendar.id, name: calendar.name, login }),
        now: () => s.clock.now(),
        connected: changed,
      }),
    );
  }
  app.route(
    '/',
    connectionsPageRoutes({
      messages: m,
      forms,
      log: s.log,
      zone: config.booking.timezone,
      enabled,
      kinds: CONNECT_KINDS.filter(
        (k) => k === 'caldav' || (k === 'google' ? config.connect?.google_client : config.connect?.microsoft_client),
      ),
      list: () => s.connections.list(),
      invite: (r) => makeInvite(config, s.connections, r, s.clock.now()),
      remove: (name) => {
        const r = removeConnection(s.connections, name);
        if (r.ok) changed();
        return r;
      },
    }),
  );
  return {
    name: 'connect',
    routes: app,
    async start() {
      const problem = keyProblem();
      if (problem) s.log.error({ module: 'connect' }, problem);
    },
    readiness: () => {
      const problem = keyProblem();
      return { reasons: [], warnings: problem ? [{ text: problem }] : [] };
    },
  };
}
