// POST /google/notifications (docs/reference/http.md): Google push channel messages. They carry no content, only
// "something changed in this calendar"; a known channel with the right token wakes the reverse sync.
// Unknown, stopped or expired channels and wrong tokens get 404 and change nothing.
import { Hono } from 'hono';
import { secretEquals } from '../core/secret-compare.ts';

export interface NotificationRouteDeps {
  /** The channel's token when the channel is open and unexpired; undefined for any other id. */
  liveChannelToken(id: string): string | undefined;
  /** Runs the reverse sync of the channel's account now (or right after the current round). */
  wake(channelId: string): void;
  onNotification?(outcome: 'accepted' | 'rejected'): void;
}

export function googleNotificationRoutes(deps: NotificationRouteDeps): Hono {
  const app = new Hono();
  app.post('/google/notifications', (c) => {
    const id = c.req.header('x-goog-channel-id') ?? '';
    const token = c.req.header('x-goog-channel-token') ?? '';
    const expected = id ? deps.liveChannelToken(id) : undefined;
    // Always compare, so timing does not tell a stranger whether the channel id exists.
    const tokenOk = secretEquals(token, expected ?? '\u0000no channel');
    if (expected === undefined || !tokenOk) {
      deps.onNotification?.('rejected');
      return c.json({ error: 'unknown channel' }, 404);
    }
    deps.onNotification?.('accepted');
    // "sync" only announces a new channel; "exists" / "not_exists" mean the calendar changed.
    if (c.req.header('x-goog-resource-state') !== 'sync') deps.wake(id);
    return c.body(null, 200);
  });
  return app;
}
