// The one rule of every outbound request: what was configured for an origin (scheme, host and port)
// goes to that origin only. A redirect or an address taken from an answer (a pagination link, a DAV
// href) that leads elsewhere, another port of the same host or https down to http included, is not
// followed: it is an error that names the address, so a person can configure it if it is right.

/** An address outside the configured origin; nothing was sent to it. */
export class OffOriginError extends Error {
  override name = 'OffOriginError';
  constructor(
    /** The origin that was refused, to be configured if it is the right one. */
    readonly address: string,
    message: string,
  ) {
    super(message);
  }
}

/** Where an off-origin address came from, for the message. */
export type OffOriginSource = 'redirect' | 'link';

/**
 * Throws OffOriginError unless `url` is on `allowed`'s origin. `setting` names the configuration key
 * that holds the address (e.g. `caldav.url`); `what` the request or answer it came from.
 */
export function requireOrigin(url: URL, allowed: URL, o: { setting: string; what: string; source: OffOriginSource }): void {
  if (url.origin === allowed.origin) return;
  const how = o.source === 'redirect' ? 'redirects to' : 'names the address';
  // The whole address, not only its origin: a CalDAV home or principal URL works as caldav.url as it is.
  throw new OffOriginError(
    url.origin,
    `${o.what}: the server ${how} ${url.href}, on another origin than ${allowed.origin} (${o.setting}); nothing was sent there. If ${url.href} is the right address, put it in ${o.setting}`,
  );
}
