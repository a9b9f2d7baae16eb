// Guards /status and /api/* (contract §3): Bearer <admin_token>, or the password of HTTP Basic auth
// for a browser. With no admin_token set, loopback callers only.
import { timingSafeEqual, createHash } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

/**
 * Constant-time comparison against one fixed secret, of any length (hashing first hides the length
 * too). The secret's digest is computed once, for routes asked thousands of times a second.
 */
export function secretMatcher(expected: string): (given: string) => boolean {
  const b = createHash('sha256').update(expected).digest();
  return (given) => timingSafeEqual(createHash('sha256').update(given).digest(), b) && given.length === expected.length;
}

export function secretEquals(given: string, expected: string): boolean {
  return secretMatcher(expected)(given);
}

export function remoteAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined; // app.request() in tests has no socket
  }
}

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address === 'localhost' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

function presentedToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const [scheme, value] = header.split(/\s+/, 2);
  if (!value) return undefined;
  if (scheme?.toLowerCase() === 'bearer') return value;
  if (scheme?.toLowerCase() === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon >= 0 ? decoded.slice(colon + 1) : undefined;
  }
  return undefined;
}

/** Headers a reverse proxy adds: a request carrying one came from elsewhere, whatever the socket says. */
const PROXY_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

/** A caller on this machine itself, not one relayed by a reverse proxy running here. */
export function isLocalCaller(c: Context): boolean {
  return isLoopback(remoteAddress(c)) && PROXY_HEADERS.every((h) => c.req.header(h) === undefined);
}

export function adminAuth(adminToken: string | undefined): MiddlewareHandler {
  return async (c, next) => {
    if (adminToken === undefined) {
      if (isLocalCaller(c)) return next();
      return c.json({ error: 'admin_token is not set, so this page answers only on loopback' }, 401);
    }
    const token = presentedToken(c.req.header('authorization'));
    if (token !== undefined && secretEquals(token, adminToken)) return next();
    c.header('WWW-Authenticate', 'Basic realm="calbridge", charset="UTF-8"');
    return c.json({ error: 'the admin token is required (Authorization: Bearer <admin_token>)' }, 401);
  };
}
