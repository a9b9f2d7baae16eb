// Graph change notifications for the simulated calendars: `POST /subscriptions` validates each
// address first (a POST with `?validationToken=…` that must answer 200, text/plain, the token, within
// 10 s, or the subscription is refused), then every change of a subscribed calendar is POSTed to its
// notificationUrl with the subscription's clientState; `lifecycle()` sends reauthorizationRequired,
// subscriptionRemoved or missed to its lifecycleNotificationUrl.
import { randomBytes } from 'node:crypto';
import { GraphApiError } from './mailboxes.ts';

export interface Subscription {
  id: string;
  resource: string;
  /** The mailbox and calendar the resource names (resolved at creation). */
  mailbox: string;
  calendarId: string;
  changeType: string;
  notificationUrl: string;
  lifecycleNotificationUrl: string | null;
  clientState: string | null;
  expiration: number;
}

export type LifecycleEvent = 'reauthorizationRequired' | 'subscriptionRemoved' | 'missed';

export interface Delivery {
  subscriptionId: string;
  url: string;
  kind: 'validation' | 'notification' | 'lifecycle';
  status: number;
}

/** The longest life Graph gives a subscription to Outlook events, in minutes (its current table). */
const MAX_MINUTES = 10_080;

const VALIDATION_TIMEOUT_MS = 10_000;

export class Subscriptions {
  readonly all = new Map<string, Subscription>();
  readonly deliveries: Delivery[] = [];

  constructor(
    private readonly tenantId: string,
    /** Maps an (https) address to where it is really delivered (a local port). */
    private readonly address: (url: string) => string,
  ) {}

  private async post(url: string, body: string | undefined, contentType: string): Promise<Response | null> {
    try {
      return await fetch(this.address(url), {
        method: 'POST',
        headers: { 'content-type': contentType },
        body: body ?? '',
        signal: AbortSignal.timeout(VALIDATION_TIMEOUT_MS),
        redirect: 'manual',
      });
    } catch {
      return null;
    }
  }

  /** The handshake Graph does before it creates a subscription. */
  private async validate(subscriptionId: string, url: string): Promise<void> {
    const challenge = `${randomBytes(16).toString('base64url')} validation`;
    const u = new URL(url);
    u.searchParams.set('validationToken', challenge);
    const res = await this.post(u.toString(), undefined, 'text/plain; charset=utf-8');
    const text = res ? await res.text() : '';
    this.deliveries.push({ subscriptionId, url, kind: 'validation', status: res?.status ?? 0 });
    const type = res?.headers.get('content-type') ?? '';
    if (res?.status !== 200 || !type.startsWith('text/plain') || text !== challenge) {
      throw new GraphApiError(
        400,
        'ValidationError',
        `Subscription validation request failed. Notification endpoint must respond with 200 OK to validation request (${url}).`,
      );
    }
  }

  async create(
    body: Record<string, unknown>,
    resolve: (resource: string) => { mailbox: string; calendarId: string },
    now: number,
  ): Promise<Subscription> {
    const str = (k: string) => (typeof body[k] === 'string' ? (body[k] as string) : null);
    const notificationUrl = str('notificationUrl');
    const resource = str('resource');
    const changeType = str('changeType');
    const expiration = Date.parse(str('expirationDateTime') ?? '');
    if (!notificationUrl || !resource || !changeType || Number.isNaN(expiration)) {
      throw new GraphApiError(400, 'InvalidRequest', 'changeType, notificationUrl, resource and expirationDateTime are required.');
    }
    for (const u of [notificationUrl, str('lifecycleNotificationUrl')]) {
      if (u !== null && !u.startsWith('https://'))
        throw new GraphApiError(400, 'InvalidRequest', `The notification URL must be https: ${u}`);
    }
    checkExpiration(expiration, now);
    const target = resolve(resource);
    const id = crypto.randomUUID();
    await this.validate(id, notificationUrl);
    const lifecycle = str('lifecycleNotificationUrl');
    if (lifecycle !== null) await this.validate(id, lifecycle);
    const s: Subscription = {
      id,
      resource,
      ...target,
      changeType,
      notificationUrl,
      lifecycleNotificationUrl: lifecycle,
      clientState: str('clientState'),
      expiration,
    };
    this.all.set(id, s);
    return s;
  }

  renew(id: string, body: Record<string, unknown>, now: number): Subscription {
    const s = this.get(id, now);
    const expiration = Date.parse(typeof body.expirationDateTime === 'string' ? body.expirationDateTime : '');
    if (Number.isNaN(expiration)) throw new GraphApiError(400, 'InvalidRequest', 'expirationDateTime is required.');
    checkExpiration(expiration, now);
    s.expiration = expiration;
    return s;
  }

  remove(id: string, now: number): void {
    this.get(id, now);
    this.all.delete(id);
  }

  /** A live subscription; an expired one is gone, as Graph deletes them. */
  get(id: string, now: number): Subscription {
    const s = this.all.get(id);
    if (s && s.expiration <= now) this.all.delete(id);
    if (!s || s.expiration <= now) throw new GraphApiError(404, 'ResourceNotFound', `The object was not found: subscription ${id}.`);
    return s;
  }

  json(s: Subscription): Record<string, unknown> {
    return {
      id: s.id,
      resource: s.resource,
      changeType: s.changeType,
      notificationUrl: s.notificationUrl,
      lifecycleNotificationUrl: s.lifecycleNotificationUrl,
      expirationDateTime: new Date(s.expiration).toISOString(),
      clientState: s.clientState,
      applicationId: '00000000-0000-0000-0000-000000000000',
    };
  }

  /** A change of an event: every live subscription of its calendar is told, at once. */
  async changed(
    mailbox: string,
    calendarId: string,
    eventId: string,
    changeType: 'created' | 'updated' | 'deleted',
    now: number,
  ): Promise<void> {
    const subs = [...this.all.values()].filter(
      (s) => s.mailbox === mailbox && s.calendarId === calendarId && s.expiration > now && s.changeType.split(',').includes(changeType),
    );
    await Promise.all(
      subs.map(async (s) => {
        const value = [
          {
            subscriptionId: s.id,
            subscriptionExpirationDateTime: new Date(s.expiration).toISOString(),
            changeType,
            resource: `Users/${mailbox}/Events/${eventId}`,
            resourceData: { '@odata.type': '#Microsoft.Graph.Event', '@odata.id': `Users/${mailbox}/Events/${eventId}`, id: eventId },
            clientState: s.clientState,
            tenantId: this.tenantId,
          },
        ];
        const res = await this.post(s.notificationUrl, JSON.stringify({ value }), 'application/json; charset=utf-8');
        this.deliveries.push({ subscriptionId: s.id, url: s.notificationUrl, kind: 'notification', status: res?.status ?? 0 });
      }),
    );
  }

  /** A lifecycle notification; subscriptionRemoved also ends the subscription, as Graph does. */
  async lifecycle(id: string, event: LifecycleEvent): Promise<number> {
    const s = this.all.get(id);
    if (!s?.lifecycleNotificationUrl) throw new Error(`subscription ${id} has no lifecycle address`);
    if (event === 'subscriptionRemoved') this.all.delete(id);
    const value = [
      {
        subscriptionId: s.id,
        subscriptionExpirationDateTime: new Date(s.expiration).toISOString(),
        tenantId: this.tenantId,
        clientState: s.clientState,
        lifecycleEvent: event,
      },
    ];
    const res = await this.post(s.lifecycleNotificationUrl, JSON.stringify({ value }), 'application/json; charset=utf-8');
    const status = res?.status ?? 0;
    this.deliveries.push({ subscriptionId: s.id, url: s.lifecycleNotificationUrl, kind: 'lifecycle', status });
    return status;
  }
}

function checkExpiration(expiration: number, now: number): void {
  if (expiration <= now) throw new GraphApiError(400, 'InvalidRequest', 'Subscription expiration must be in the future.');
  if (expiration > now + MAX_MINUTES * 60_000)
    throw new GraphApiError(400, 'InvalidRequest', `Subscription expiration can only be ${MAX_MINUTES} minutes in the future.`);
}
