// POST /microsoft/notifications and POST /microsoft/lifecycle (docs/reference/http.md): Graph's
// change and lifecycle notifications. With a validationToken in the query it is Graph's handshake:
// 200, text/plain, the token, at once (Graph gives up after 10 s and refuses the subscription).
// Otherwise 202 whatever the body holds, and only entries of a subscription we hold, with its
// clientState (compared in constant time), do anything: a notification says *that* a calendar
// changed, so the work is a wake of the reverse sync, done after the answer.
import { Hono, type Context } from 'hono';
import { secretEquals } from '../core/secret-compare.ts';

export interface MicrosoftNotice {
  subscriptionId: string;
  clientState: string;
  lifecycle?: string;
}

export interface MicrosoftNotificationDeps {
  /** The clientState of a live subscription of ours; undefined for any other id. */
  clientStateOf(subscriptionId: string): string | undefined;
  readNotices(body: unknown): MicrosoftNotice[];
  /** A change in that subscription's calendar: read its delta now. */
  changed(subscriptionId: string): void;
  /** reauthorizationRequired, subscriptionRemoved, missed. */
  lifecycle(subscriptionId: string, event: string): void;
  onNotification?(outcome: 'accepted' | 'rejected'): void;
}

/** Graph's validation tokens are short; a longer query value is not one and is not echoed. */
const MAX_TOKEN = 1024;
/** A notification batch is small; a larger body is not Graph's. */
const MAX_BODY = 1024 * 1024;

export function microsoftNotificationRoutes(deps: MicrosoftNotificationDeps): Hono {
  const app = new Hono();
  const handle = (kind: 'change' | 'lifecycle') => async (c: Context) => {
    const token = c.req.query('validationToken');
    if (token !== undefined) {
      if (token.length > MAX_TOKEN) return c.body(null, 400);
      // Sent as text/plain: an echo must never be read as HTML by anyone's browser.
      return c.body(token, 200, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' });
    }
    const length = Number(c.req.header('content-length') ?? 0);
    let body: unknown = null;
    if (length <= MAX_BODY) {
      try {
        body = await c.req.json();
      } catch {
        body = null;
      }
    }
    for (const n of deps.readNotices(body)) {
      const expected = deps.clientStateOf(n.subscriptionId);
      // Always compare, so timing does not tell a stranger whether the subscription exists.
      const ok = secretEquals(n.clientState, expected ?? '\u0000no subscription');
      if (expected === undefined || !ok) {
        deps.onNotification?.('rejected');
        continue;
      }
      deps.onNotification?.('accepted');
      if (kind === 'lifecycle' && n.lifecycle) deps.lifecycle(n.subscriptionId, n.lifecycle);
      else deps.changed(n.subscriptionId);
    }
    return c.body(null, 202);
  };
  app.post('/microsoft/notifications', handle('change'));
  app.post('/microsoft/lifecycle', handle('lifecycle'));
  return app;
}
