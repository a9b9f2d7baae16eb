// Graph change notifications for a mapped calendar: one subscription per calendar (created, events,
// changes of every kind), its clientState a secret of ours, renewed before half its life is gone.
// Graph validates the notification and lifecycle addresses while it creates one, so the routes must
// already answer (http/microsoft-notification-routes.ts).
import { randomBytes } from 'node:crypto';
import { GraphError } from './errors.ts';
import type { GraphHttp } from './graph-http.ts';
import type { GraphTarget } from './graph-target.ts';

/**
 * What we ask for: 4,230 minutes, the limit older documentation gives for Outlook events; the current
 * table says 10,080. Asking the smaller is accepted under either, and Graph's answer is what we keep.
 */
const SUBSCRIPTION_MINUTES = 4230;

export interface SubscriptionRecord {
  id: string;
  calendarId: string;
  /** Epoch ms, as Graph answered. */
  createdAt: number;
  expiresAt: number;
  clientState: string;
}

/** Renew once half its life is gone (Graph's own advice), so a failed renewal has the other half to succeed. */
export const renewalDue = (s: Pick<SubscriptionRecord, 'createdAt' | 'expiresAt'>, now: number): boolean =>
  now >= s.createdAt + (s.expiresAt - s.createdAt) / 2;

export interface SubscribeRequest {
  notificationUrl: string;
  lifecycleUrl: string;
  now: number;
}

export async function subscribe(
  http: GraphHttp,
  target: GraphTarget,
  calendarId: string,
  r: SubscribeRequest,
): Promise<SubscriptionRecord> {
  const cal = await target.calendar(calendarId);
  const clientState = randomBytes(24).toString('base64url');
  const { json } = await http.request(cal.mailbox, {
    op: 'subscribe',
    method: 'POST',
    path: 'v1.0/subscriptions',
    body: {
      changeType: 'created,updated,deleted',
      notificationUrl: r.notificationUrl,
      lifecycleNotificationUrl: r.lifecycleUrl,
      // The resource as Graph wants it: without the version segment.
      resource: `${cal.path.replace(/^v1\.0\//, '')}/events`,
      expirationDateTime: new Date(r.now + SUBSCRIPTION_MINUTES * 60_000).toISOString(),
      clientState,
    },
  });
  const expiresAt = Date.parse(String(json.expirationDateTime));
  if (typeof json.id !== 'string' || Number.isNaN(expiresAt))
    throw new GraphError('invalid', 'Graph answered a subscription without id or expirationDateTime');
  return { id: json.id, calendarId, createdAt: r.now, expiresAt, clientState };
}

/** PATCH with a new expiration; a subscription Graph no longer has is `gone` (make a new one). */
export async function renew(http: GraphHttp, mailbox: string, s: SubscriptionRecord, now: number): Promise<SubscriptionRecord | 'gone'> {
  const r = await http.request(mailbox, {
    op: 'renew',
    method: 'PATCH',
    path: `v1.0/subscriptions/${encodeURIComponent(s.id)}`,
    body: { expirationDateTime: new Date(now + SUBSCRIPTION_MINUTES * 60_000).toISOString() },
    accept: [404],
  });
  if (r.status === 404) return 'gone';
  const expiresAt = Date.parse(String(r.json.expirationDateTime));
  return { ...s, createdAt: now, expiresAt: Number.isNaN(expiresAt) ? s.expiresAt : expiresAt };
}

export async function unsubscribe(http: GraphHttp, mailbox: string, id: string): Promise<void> {
  await http.request(mailbox, { op: 'unsubscribe', method: 'DELETE', path: `v1.0/subscriptions/${encodeURIComponent(id)}`, accept: [404] });
}

/** One entry of a notification's `value` array, in our words. */
export interface Notice {
  subscriptionId: string;
  clientState: string;
  /** A lifecycle notification's event; undefined for a change notification. */
  lifecycle?: 'reauthorizationRequired' | 'subscriptionRemoved' | 'missed' | string;
}

/** The entries of a notification body; anything unreadable is left out. */
export function readNotices(body: unknown): Notice[] {
  const value = (body as { value?: unknown } | null)?.value;
  if (!Array.isArray(value)) return [];
  return value.flatMap((v: Record<string, unknown>) =>
    typeof v?.subscriptionId === 'string'
      ? [
          {
            subscriptionId: v.subscriptionId,
            clientState: typeof v.clientState === 'string' ? v.clientState : '',
            ...(typeof v.lifecycleEvent === 'string' ? { lifecycle: v.lifecycleEvent } : {}),
          },
        ]
      : [],
  );
}
