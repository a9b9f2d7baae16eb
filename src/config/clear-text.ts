// Upstream URLs that would carry a token in clear text: check-config warns about them (it does not
// fail: a plain-HTTP upstream on a private network may be a deliberate choice).
import { isIP } from 'node:net';
import type { ConfigProblem } from './problem.ts';
import type { Config } from './schema.ts';

/** localhost, *.localhost, 127.0.0.0/8 and ::1 never leave the machine. */
function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return isIP(host) === 6 && (host === '::1' || host === '0:0:0:0:0:0:0:1');
}

export function clearTextWarnings(config: Config): ConfigProblem[] {
  const urls: [string, string | undefined, string][] = [
    ['booking.base_url', config.booking.base_url, 'the booking token'],
    ['google.token_url', config.google?.enabled ? config.google.token_url : undefined, 'Google credentials and access tokens'],
    ['google.api_root', config.google?.enabled ? config.google.api_root : undefined, 'Google access tokens'],
    [
      'microsoft.authority_url',
      config.microsoft?.enabled ? config.microsoft.authority_url : undefined,
      'Microsoft credentials and refresh tokens',
    ],
    ['microsoft.graph_root', config.microsoft?.enabled ? config.microsoft.graph_root : undefined, 'Microsoft access tokens'],
  ];
  return urls.flatMap(([path, url, what]) => {
    if (!url) return [];
    const u = new URL(url);
    if (u.protocol !== 'http:' || isLoopback(u.hostname)) return [];
    return [
      { path, message: `uses http:// on ${u.hostname}, which is not this machine: ${what} would travel in clear text; use https://` },
    ];
  });
}
