// One alert channel (ntfy, a webhook, e-mail): it takes a message in calbridge's words and delivers
// it, or throws an AlertSendError saying why in our words (never the upstream's text, which can echo
// a URL with a token in it).
import type { AlertEvent } from '../core/alerts/decide.ts';

export interface OutgoingAlert {
  event: AlertEvent;
  /** `google.default.auth`, `booking.api`. */
  key: string;
  /** What broke and what to do, ending with the status page's address. */
  sentence: string;
  /** When the problem began, ISO 8601. */
  since: string;
  /** {server.public_url}/status */
  status_url: string;
}

export interface AlertSender {
  /** The channel's name in status: `ntfy`, `webhook`, `email`. */
  name: string;
  send(m: OutgoingAlert): Promise<void>;
}

export class AlertSendError extends Error {
  override name = 'AlertSendError';
}

/** The title of a message: short, for a phone's notification. */
export function alertTitle(m: Pick<OutgoingAlert, 'event' | 'key'>): string {
  return m.event === 'problem' ? `calbridge: problem (${m.key})` : `calbridge: recovered (${m.key})`;
}

/** A failure in a few words that hold no address or account: its code (ECONNREFUSED, EAUTH), else its kind. */
export function failureCode(e: unknown): string {
  // The transport wraps the system's error in `cause` (net/http-request.ts).
  for (let x: unknown = e, depth = 0; x && typeof x === 'object' && depth < 3; x = (x as { cause?: unknown }).cause, depth++) {
    const code = 'code' in x ? (x as { code: unknown }).code : undefined;
    if (typeof code === 'string' && /^[A-Z_0-9]{2,40}$/.test(code)) return code;
  }
  if (e instanceof Error && e.name === 'TimeoutError') return 'no answer in time';
  return e instanceof Error ? e.name : 'unknown failure';
}
