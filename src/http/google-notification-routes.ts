// POST /google/notifications (contract §3): Google push channel messages. They carry no content, only
// "something changed in this calendar"; a known channel with the right token wakes the reverse sync.
// Unknown, stopped or expired channels and wrong tokens get 404 and change nothing.
import type { Hono } from 'hono';
import type { Clock } from '../core/clock.ts';
import type { ChannelStore } from '../store/channel-store.ts';
import { secretEquals } from './admin-auth.ts';

export interface NotificationRouteDeps {
  channels: ChannelStore;
  clock: Clock;
  /** Runs the reverse sync now (or right after the current round). */
  wake(): void;
  onNotification?(outcome: 'accepted' | 'rejected'): void;
}

export function googleNotificationRoutes(app: Hono, deps: NotificationRouteDeps): void {
  app.post('/google/notifications', (c) => {
    const id = c.req.header('x-goog-channel-id') ?? '';
    const token = c.req.header('x-goog-channel-token') ?? '';
    const channel = id ? deps.channels.get(id) : undefined;
    const live = channel !== undefined && channel.state !== 'stopped' && channel.expiration > deps.clock.now();
    // Always compare, so timing does not tell a stranger whether the channel id exists.
    const tokenOk = secretEquals(token, channel?.token ?? '\u0000no channel');
    if (!live || !tokenOk) {
      deps.onNotification?.('rejected');
      return c.json({ error: 'unknown channel' }, 404);
    }
    deps.onNotification?.('accepted');
    // "sync" only announces a new channel; "exists" / "not_exists" mean the calendar changed.
    if (c.req.header('x-goog-resource-state') !== 'sync') deps.wake();
    return c.body(null, 200);
  });
}
