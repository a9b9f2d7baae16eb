// Guards /status and /api/* (and /metrics with metrics_auth), docs/reference/http.md, "Who may open the status": the admin token as
// `Authorization: Bearer <admin_token>`, or as the password of HTTP Basic auth for a browser.
// Every caller needs it, loopback included: a reverse proxy on this host that adds no header cannot
// be told from a local caller. Only `status_auth: loopback`, set on purpose, lets local callers in.
import type { Context, MiddlewareHandler } from 'hono';
import { remoteAddressOf } from '../net/hono-server.ts';
import type { Config } from '../config/schema.ts';
import { secretMatcher } from '../core/secret-compare.ts';
import { messagesFor, type Messages } from '../core/i18n/index.ts';
import { html } from './status-page/html.ts';

/** As the status page's: never cached, never framed, no scripts. */
const PAGE_HEADERS: Record<string, string> = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
};

export interface AdminAccess {
  token: string | undefined;
  statusAuth: 'token' | 'loopback';
  /** server.locale: a browser's 401 is a short page in it (English without). */
  messages?: Messages;
}

/** A browser asks for HTML first; scripts and curl get the JSON answer. */
function wantsHtml(c: Context): boolean {
  return /\btext\/html\b/i.test(c.req.header('accept') ?? '');
}

/** The 401 a person reads: what to do, in a sentence, in the locale. No script, nothing loaded. */
function unauthorizedPage(m: Messages, text: string): string {
  const prose = html`${text.split('`').map((part, i) => (i % 2 ? html`<code>${part}</code>` : part))}`;
  return html`<!doctype html>
<html lang="${m.tag}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${m.unauthorized.title}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1b1f24}h1{font-size:1.3rem}code{overflow-wrap:anywhere}</style></head>
<body><h1>${m.unauthorized.title}</h1><p>${prose}</p></body></html>`.value;
}

/** The socket's address; app.request() in tests has no socket, so none. */
function remoteAddress(c: Context): string | undefined {
  return remoteAddressOf(c.env);
}

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address === 'localhost' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/**
 * The token a request presents: the rest of a Bearer header (trimmed, so a token with inner spaces
 * still matches; the config refuses leading or trailing whitespace), or the password of Basic auth.
 */
export function presentedToken(header: string | undefined): string | undefined {
  // Split by hand: a regex with two whitespace runs backtracks quadratically on a 16 KiB header of spaces.
  const text = header?.trim() ?? '';
  const gap = text.search(/\s/);
  if (gap < 0) return undefined;
  const scheme = text.slice(0, gap).toLowerCase();
  const value = text.slice(gap).trim();
  if (scheme === 'bearer') return value;
  if (scheme === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon >= 0 ? decoded.slice(colon + 1) : undefined;
  }
  return undefined;
}

/** Headers a proxy or CDN adds: a request carrying one was relayed, whatever the socket says. */
const PROXY_HEADERS = new Set(['forwarded', 'via', 'x-real-ip', 'cf-connecting-ip', 'true-client-ip']);

function relayed(c: Context): boolean {
  for (const name of c.req.raw.headers.keys()) {
    if (PROXY_HEADERS.has(name) || name.startsWith('x-forwarded-')) return true;
  }
  return false;
}

/** localhost, 127.x.y.z or [::1], any port: a browser lured by DNS rebinding sends the attacker's name. */
function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const m = /^(\[[^\]]+\]|[^:]+)(?::\d{1,5})?$/.exec(host.trim().toLowerCase());
  const name = m?.[1];
  if (!name) return false;
  return name === 'localhost' || name === '[::1]' || /^127(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(name);
}

/**
 * A caller on this machine itself, by every sign a request carries: a loopback socket, no header a
 * relay adds, and a loopback Host. Defence in depth only: a proxy that adds nothing passes it.
 */
function isLocalCaller(c: Context): boolean {
  return isLoopback(remoteAddress(c)) && !relayed(c) && isLoopbackHost(c.req.header('host'));
}

export function adminAuth(access: AdminAccess): MiddlewareHandler {
  const matches = access.token === undefined ? undefined : secretMatcher(access.token);
  const loopback = access.statusAuth === 'loopback';
  return async (c, next) => {
    if (matches) {
      const token = presentedToken(c.req.header('authorization'));
      if (token !== undefined && matches(token)) return next();
    }
    if (loopback && isLocalCaller(c)) return next();
    const m = access.messages ?? messagesFor('en');
    if (!matches) {
      c.header('WWW-Authenticate', 'Bearer realm="calbridge"');
      if (wantsHtml(c)) return c.html(unauthorizedPage(m, m.unauthorized.noToken), 401, PAGE_HEADERS);
      return c.json({ error: 'server.admin_token is not set, so this answers no one; set it (16 characters or more) and present it' }, 401);
    }
    c.header('WWW-Authenticate', 'Basic realm="calbridge", charset="UTF-8"');
    if (wantsHtml(c)) return c.html(unauthorizedPage(m, m.unauthorized.needToken), 401, PAGE_HEADERS);
    return c.json({ error: 'the admin token is required (Authorization: Bearer <admin_token>, or as the Basic password)' }, 401);
  };
}

/** What serve warns about at start: status pages nobody can open, or that a proxy on this host opens. */
export function accessWarnings(server: Config['server']): string[] {
  const warnings: string[] = [];
  const closed = server.admin_token === undefined && server.status_auth === 'token';
  if (closed) {
    warnings.push(
      'server.admin_token is not set, so /status and /api/status answer 401 to everyone; set it (16 characters or more) and open /status with it as the password, or run `calbridge status` on this machine',
    );
  }
  if (server.status_auth === 'loopback' && !isLoopback(server.host)) {
    warnings.push(
      `server.status_auth is loopback while the server listens on ${server.host}: a request relayed by a proxy on this machine that adds no header opens /status and /api/status without a token; behind a proxy use status_auth: token with an admin_token, or listen on 127.0.0.1`,
    );
  }
  if (server.metrics_auth && closed)
    warnings.push('server.metrics_auth is on but server.admin_token is not set, so /metrics answers 401 to every scraper');
  return warnings;
}
