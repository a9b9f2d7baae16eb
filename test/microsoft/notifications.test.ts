// Graph change notifications end to end against the simulator: the subscription's validation
// handshake answered by the daemon's routes, notifications with our clientState waking a read,
// strangers' and forged ones ignored, lifecycle events passed on, renewal before half-life.
import type { Server } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { microsoftNotificationRoutes } from '../../src/http/microsoft-notification-routes.ts';
import { calendarRef } from '../../src/microsoft/graph-target.ts';
import { startGraphSimulator, type GraphSimulator } from '../../src/microsoft/simulator/index.ts';
import { readNotices, renew, renewalDue, subscribe, unsubscribe, type SubscriptionRecord } from '../../src/microsoft/subscriptions.ts';
import { listen, portOf } from '../../src/net/hono-server.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { body, CLIENT_ID, CLIENT_SECRET, connect, MAILBOX, type Env } from './env.ts';

const CAL = calendarRef(MAILBOX, 'Calendar');
const PUBLIC = 'https://calendar.clinic.example';
let sim: GraphSimulator;
let env: Env;
let server: Server;
const subs = new Map<string, SubscriptionRecord>();
const changed: string[] = [];
const lifecycle: [string, string][] = [];
let rejected = 0;
let answerHandshake = true;

beforeEach(async () => {
  subs.clear();
  changed.length = 0;
  lifecycle.length = 0;
  rejected = 0;
  answerHandshake = true;
  const app = microsoftNotificationRoutes({
    clientStateOf: (id) => subs.get(id)?.clientState,
    readNotices,
    changed: (id) => changed.push(id),
    lifecycle: (id, e) => lifecycle.push([id, e]),
    onNotification: (o) => void (o === 'rejected' && rejected++),
  });
  server = await listen(
    (req) =>
      answerHandshake || !new URL(req.url).searchParams.has('validationToken') ? app.fetch(req) : new Response('nope', { status: 500 }),
    { port: 0, host: '127.0.0.1' },
  );
  const local = `http://127.0.0.1:${portOf(server)}`;
  sim = await startGraphSimulator({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    mailboxes: [MAILBOX],
    pushAddress: (u) => u.replace(PUBLIC, local),
    retryAfterSeconds: 0,
  });
  env = connect(sim);
});
afterEach(async () => {
  await sim.close();
  await new Promise((r) => server.close(r));
});

const request = { notificationUrl: `${PUBLIC}/microsoft/notifications`, lifecycleUrl: `${PUBLIC}/microsoft/lifecycle` };

describe('Graph change notifications', () => {
  it('the routes answer the validation handshake with the token as text/plain, at once', async () => {
    const res = await fetch(
      `http://127.0.0.1:${portOf(server)}/microsoft/notifications?validationToken=${encodeURIComponent('Validation: Testing client application reachability <b>')}`,
      { method: 'POST' },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe('Validation: Testing client application reachability <b>');
  });

  it('a subscription passes the handshake; a change in Outlook reaches the daemon with our clientState', async () => {
    const s = await subscribe(env.connection.http, env.connection.target, CAL, { ...request, now: Date.now() });
    subs.set(s.id, s);
    expect(sim.subscriptions.deliveries.filter((d) => d.kind === 'validation').map((d) => d.status)).toEqual([200, 200]);
    expect(s.expiresAt - Date.now()).toBeGreaterThan(70 * 3_600_000);

    await env.connection.target.put(CAL, 'k1', body('k1', 13), { kind: 'absent' });
    await waitFor('the change notification', () => changed.length === 1);
    expect(changed).toEqual([s.id]);
    expect(rejected).toBe(0);
  });

  it('a subscription whose handshake fails is refused by Graph', async () => {
    answerHandshake = false;
    await expect(subscribe(env.connection.http, env.connection.target, CAL, { ...request, now: Date.now() })).rejects.toThrow(
      /validation request failed/,
    );
    expect(sim.subscriptions.all.size).toBe(0);
  });

  it('notifications of unknown subscriptions or with a wrong clientState are ignored with 202', async () => {
    const s = await subscribe(env.connection.http, env.connection.target, CAL, { ...request, now: Date.now() });
    subs.set(s.id, { ...s, clientState: 'another-secret-entirely' });
    await env.connection.target.put(CAL, 'k1', body('k1', 13), { kind: 'absent' });
    await waitFor('the forged notification', () => rejected === 1);
    const forged = await fetch(`http://127.0.0.1:${portOf(server)}/microsoft/notifications`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ value: [{ subscriptionId: 'nobody', clientState: 'x', changeType: 'updated' }] }),
    });
    expect(forged.status).toBe(202);
    expect(changed).toEqual([]);
    expect(rejected).toBe(2);
    expect(sim.subscriptions.deliveries.filter((d) => d.kind === 'notification').map((d) => d.status)).toEqual([202]);
  });

  it('lifecycle notifications are passed on; subscriptionRemoved ends the subscription at Graph', async () => {
    const s = await subscribe(env.connection.http, env.connection.target, CAL, { ...request, now: Date.now() });
    subs.set(s.id, s);
    expect(await sim.lifecycle(s.id, 'missed')).toBe(202);
    expect(await sim.lifecycle(s.id, 'subscriptionRemoved')).toBe(202);
    expect(lifecycle).toEqual([
      [s.id, 'missed'],
      [s.id, 'subscriptionRemoved'],
    ]);
    expect(await renew(env.connection.http, MAILBOX, s, Date.now())).toBe('gone');
  });

  it('renewal is due at half-life, and PATCHes a new expiration; unsubscribe deletes it', async () => {
    const now = Date.now();
    const s = await subscribe(env.connection.http, env.connection.target, CAL, { ...request, now });
    const half = s.createdAt + (s.expiresAt - s.createdAt) / 2;
    expect(renewalDue(s, half - 60_000)).toBe(false);
    expect(renewalDue(s, half)).toBe(true);
    const later = now + 3_600_000;
    const renewed = await renew(env.connection.http, MAILBOX, s, later);
    expect(renewed).not.toBe('gone');
    expect((renewed as SubscriptionRecord).expiresAt).toBeGreaterThan(s.expiresAt);
    expect(sim.subscriptions.all.get(s.id)!.expiration).toBe((renewed as SubscriptionRecord).expiresAt);
    await unsubscribe(env.connection.http, MAILBOX, s.id);
    expect(sim.subscriptions.all.size).toBe(0);
  });
});
