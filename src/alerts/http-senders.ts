// ntfy and webhook alerts over the one outbound client (net/outbound.ts): sent only to the configured
// address's origin, no redirect followed, a deadline and a size cap, and retried by the one retry
// loop (net/retry.ts) on a network failure, a 5xx or a rate limit.
import { Outbound } from '../net/outbound.ts';
import { OffOriginError } from '../net/origin.ts';
import { realSleep, type Sleep } from '../net/pacer.ts';
import { retryAfterMs } from '../net/rate-limit.ts';
import { withRetries, type Verdict } from '../net/retry.ts';
import type { RetryPolicy } from '../net/retry-policy.ts';
import { AlertSendError, alertTitle, failureCode, type AlertSender, type OutgoingAlert } from './sender.ts';

/** An alert is small and not urgent to the second: a few tries over about half a minute. */
const ALERT_RETRY: RetryPolicy = { retries: 3, baseMs: 1000, maxMs: 15_000 };

export interface HttpSenderOptions {
  retry?: RetryPolicy;
  sleep?: Sleep;
  now?: () => number;
}

class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly waitMs: number | undefined,
  ) {
    super(`HTTP ${status}`);
  }
}

function judge(e: unknown): Verdict {
  if (e instanceof OffOriginError) return { error: new AlertSendError(e.message), retry: false };
  if (e instanceof HttpStatusError) {
    const retry = e.status === 429 || e.status >= 500;
    return {
      error: new AlertSendError(`answered HTTP ${e.status}`),
      retry,
      reason: `HTTP ${e.status}`,
      ...(e.waitMs !== undefined ? { waitMs: e.waitMs } : {}),
    };
  }
  // A network failure or the deadline: its code only (the message may carry the address, and an
  // ntfy topic in an address is as good as a password).
  return { error: new AlertSendError(`could not be reached (${failureCode(e)})`), retry: true, reason: 'network' };
}

function httpSender(
  name: string,
  url: string,
  setting: string,
  request: (m: OutgoingAlert) => { headers: Record<string, string>; body: string },
  o: HttpSenderOptions,
): AlertSender {
  const target = new URL(url);
  const outbound = new Outbound({ origin: target, setting });
  return {
    name,
    async send(m) {
      const { headers, body } = request(m);
      await withRetries(
        async () => {
          const res = await outbound.send(
            target,
            { method: 'POST', headers, body, timeoutMs: 10_000, maxBodyBytes: 64 * 1024 },
            `${setting} POST`,
          );
          if (res.status < 200 || res.status >= 300)
            throw new HttpStatusError(res.status, retryAfterMs(res.header('retry-after') ?? null, Date.now()));
        },
        judge,
        { policy: o.retry ?? ALERT_RETRY, sleep: o.sleep ?? realSleep, now: o.now ?? Date.now },
      );
    },
  };
}

/** ntfy (https://docs.ntfy.sh/publish/): the sentence as the body, a title, and a click to the status page. */
export function ntfySender(url: string, o: HttpSenderOptions = {}): AlertSender {
  return httpSender(
    'ntfy',
    url,
    'alerts.ntfy',
    (m) => ({
      headers: {
        'Content-Type': 'text/plain; charset=utf-8',
        Title: alertTitle(m),
        Tags: m.event === 'problem' ? 'warning' : 'white_check_mark',
        Priority: m.event === 'problem' ? 'high' : 'default',
        Click: m.status_url,
      },
      body: m.sentence,
    }),
    o,
  );
}

/** A webhook: JSON {event, key, sentence, since, status_url}. */
export function webhookSender(url: string, o: HttpSenderOptions = {}): AlertSender {
  return httpSender(
    'webhook',
    url,
    'alerts.webhook',
    (m) => ({
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ event: m.event, key: m.key, sentence: m.sentence, since: m.since, status_url: m.status_url }),
    }),
    o,
  );
}
