// GET /connect/{invite}, GET /connect/callback and the forms they lead to (docs/reference/http.md,
// "Connect"). Google and Microsoft: a redirect to the provider's consent page (authorization code
// with PKCE, the state bound to the invite), then the calendars that account may change as a form.
// CalDAV: a form for the server, user name and app password, checked by discovery, then the same
// choice. Confirming stores the account (credentials sealed) and spends the invite, in one
// transaction. A link unknown, used or expired answers 404; a state nobody waits for, 400. No secret
// is put in a page, a log line or an answer.
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Logger } from '../../log.ts';
import type { Messages } from '../../core/i18n/index.ts';
import type { FormTokens } from '../../core/form-token.ts';
import { newPkce, newState } from '../../core/pkce.ts';
import type { ConnectStore, Invite } from '../../store/connect-store.ts';
import type { StoredSecrets } from '../../sync/connect/connected-accounts.ts';
import { notice, PAGE_HEADERS } from './page.ts';
import { calDavFormPage, CALDAV_SERVICES, donePage, pickPage, providerName, type CalDavService } from './connect-pages.ts';
import type { ConnectProviders, PickableCalendar } from './providers.ts';

export interface ConnectRoutesDeps {
  store: ConnectStore;
  /** {public_url}/connect/callback: the redirect URI registered with Google and Microsoft. */
  redirectUri: string;
  providers: ConnectProviders;
  forms: FormTokens;
  messages: Messages;
  log: Logger;
  /** http:// CalDAV addresses are taken only when public_url is itself http on this machine (tests, the demo). */
  allowHttpCalDav: boolean;
  /**
   * Who already writes the picked calendar (a YAML path or a connected account), if anyone
   * (sync/connect/calendar-taken.ts): two accounts writing one calendar would fight over its events.
   */
  calendarTaken(kind: Invite['kind'], calendar: PickableCalendar, login: { url: string; username: string } | undefined): string | undefined;
  /** The daemon's clock: when a refresh token was issued (the Google "Testing" trap counts from it). */
  now(): number;
  /** An account was connected: the runtime starts mirroring it. */
  connected(account: string): void;
}

/** What a sign-in found, sealed on the invite until the person picks a calendar. */
interface Pending {
  secrets: StoredSecrets;
  calendars: PickableCalendar[];
}

const SERVERS: Record<Exclude<CalDavService, 'nextcloud' | 'other'>, string> = {
  icloud: 'https://caldav.icloud.com/',
  fastmail: 'https://caldav.fastmail.com/dav/',
};

/** A form is a few hundred bytes; nothing larger is read. */
const FORM_LIMIT = bodyLimit({ maxSize: 16 * 1024, onError: (c) => c.text('too large', 413) });

export function connectRoutes(d: ConnectRoutesDeps): Hono {
  const app = new Hono();
  const m = d.messages;
  const log = d.log.child({ module: 'connect' });
  const send = (c: Context, body: string, status: 200 | 400 | 404 | 409 = 200) => c.html(body, status, PAGE_HEADERS);
  const gone = (c: Context) => send(c, notice(m, m.connect.gone.title, m.connect.gone.text), 404);
  const stale = (c: Context) => send(c, notice(m, m.connect.gone.title, m.connect.stale), 400);
  const formToken = (invite: Invite) => d.forms.token('connect', invite.id);
  const own = (secret: string) => `/connect/${encodeURIComponent(secret)}`;

  // Registered before /connect/:invite, which would otherwise take "callback" for an invite.
  app.get('/connect/callback', async (c) => {
    const state = c.req.query('state');
    const taken = state ? d.store.takeSignIn(state) : undefined;
    if (taken === 'spent') return gone(c);
    if (!taken) {
      log.warn('a sign-in came back with a state no invite is waiting for; refused');
      return send(c, notice(m, m.connect.refused.title, m.connect.refused.text), 400);
    }
    const { invite, verifier } = taken;
    const provider = invite.kind === 'caldav' ? undefined : d.providers[invite.kind];
    const code = c.req.query('code');
    if (!provider || !code) {
      log.info({ invite: invite.name, kind: invite.kind }, 'the person did not allow access');
      return send(c, notice(m, m.connect.failed.title, m.connect.failed.declined));
    }
    let found: { refreshToken: string; calendars: PickableCalendar[] };
    try {
      found = await provider.finish({ code, redirectUri: d.redirectUri, verifier });
    } catch (e) {
      log.warn({ invite: invite.name, kind: invite.kind, reason: (e as Error).message }, 'a sign-in through a connect link failed');
      return send(c, notice(m, m.connect.failed.title, m.connect.failed.text(providerName(m, invite.kind))));
    }
    hold(invite, { secrets: { refresh_token: found.refreshToken, issued_at: d.now() }, calendars: found.calendars });
    // The link itself is not known here (only its hash is kept): the choice is posted to the callback.
    return send(c, pickPage(m, `/connect/callback?pick=${encodeURIComponent(invite.id)}`, formToken(invite), found.calendars));
  });

  app.post('/connect/callback', FORM_LIMIT, async (c) => {
    const invite = d.store.inviteById(c.req.query('pick') ?? '');
    if (!invite) return gone(c);
    return confirm(c, invite, `/connect/callback?pick=${encodeURIComponent(invite.id)}`);
  });

  app.get('/connect/:invite', (c) => {
    const secret = c.req.param('invite');
    const invite = d.store.openInvite(secret);
    if (!invite) return gone(c);
    if (invite.kind === 'caldav') return send(c, calDavFormPage(m, { action: own(secret), token: formToken(invite) }));
    const provider = d.providers[invite.kind];
    if (!provider) return gone(c);
    // A new sign-in replaces one left half way (a second tab, a link opened again).
    const pkce = newPkce();
    const state = newState();
    d.store.beginSignIn(invite, state, pkce.verifier);
    return c.redirect(provider.consentUrl({ redirectUri: d.redirectUri, state, challenge: pkce.challenge }), 302);
  });

  app.post('/connect/:invite', FORM_LIMIT, async (c) => {
    const secret = c.req.param('invite');
    const invite = d.store.openInvite(secret);
    if (invite?.kind !== 'caldav') return gone(c);
    const form = await c.req.parseBody();
    if (!d.forms.check(form.token, 'connect', invite.id)) return stale(c);
    if (typeof form.calendar === 'string') return confirm(c, invite, own(secret), form);
    const service = CALDAV_SERVICES.find((s) => s === form.service) ?? 'other';
    const address = typeof form.address === 'string' ? form.address.trim() : '';
    const username = typeof form.username === 'string' ? form.username.trim() : '';
    const password = typeof form.password === 'string' ? form.password : '';
    const again = (error: string) =>
      send(c, calDavFormPage(m, { action: own(secret), token: formToken(invite), error, service, address, username }), 400);
    if (!username || !password) return again(m.connect.caldav.errors.missing);
    const url = serverUrl(service, address, d.allowHttpCalDav);
    if (!url) return again(m.connect.caldav.errors.address);
    const checked = await d.providers.caldav(url, username, password);
    if (!checked.ok) {
      log.info(
        { invite: invite.name, reason: checked.reason, detail: checked.detail },
        'a CalDAV account given through a connect link was not usable',
      );
      return again(m.connect.caldav.errors[checked.reason]);
    }
    hold(invite, { secrets: { url, username, password }, calendars: checked.calendars });
    return send(c, pickPage(m, own(secret), formToken(invite), checked.calendars));
  });

  function hold(invite: Invite, pending: Pending): void {
    d.store.holdPending(invite, JSON.stringify(pending));
  }

  /** `action`: where the list is posted again when the choice is refused. */
  async function confirm(c: Context, invite: Invite, action: string, parsed?: Record<string, unknown>): Promise<Response> {
    const form = parsed ?? (await c.req.parseBody());
    if (!d.forms.check(form.token, 'connect', invite.id)) return stale(c);
    const text = d.store.pending(invite);
    if (!text) return stale(c);
    const pending = JSON.parse(text) as Pending;
    const chosen = pending.calendars.find((x) => x.id === form.calendar);
    if (!chosen) return stale(c);
    const login = 'url' in pending.secrets ? { url: pending.secrets.url, username: pending.secrets.username } : undefined;
    const holder = d.calendarTaken(invite.kind, chosen, login);
    if (holder) {
      // The invite stays open, its sign-in held: the person may pick another of the same calendars.
      log.warn(
        { invite: invite.name, kind: invite.kind, taken_by: holder },
        'a connect link picked a calendar another account already writes; refused',
      );
      return send(c, pickPage(m, action, formToken(invite), pending.calendars, m.connect.pick.taken(chosen.name)), 409);
    }
    if (!d.store.confirm(invite, { calendar: chosen.id, calendarName: chosen.name }, JSON.stringify(pending.secrets))) return gone(c);
    const account = `${invite.kind}.${invite.name}`;
    log.info({ account, calendar_key: invite.calendarKey }, 'a calendar was connected through a link');
    d.connected(account);
    return send(c, donePage(m, chosen.name));
  }

  return app;
}

/** The DAV root of a named service, or the address given; undefined when it cannot be one. */
function serverUrl(service: CalDavService, address: string, allowHttp: boolean): string | undefined {
  if (service === 'icloud' || service === 'fastmail') return SERVERS[service];
  let url: URL;
  try {
    url = new URL(/^[a-z]+:\/\//i.test(address) ? address : `https://${address}`);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) return undefined;
  if (url.username || url.password || !url.hostname) return undefined;
  if (service === 'nextcloud' && !/\/remote\.php\/dav\/?$/.test(url.pathname)) {
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/remote.php/dav/`;
  }
  return url.href;
}
