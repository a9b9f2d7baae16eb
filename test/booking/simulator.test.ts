import { describe, expect, it, vi } from 'vitest';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readAppointment } from '../../src/core/reader.ts';
import type { NotifyOptions } from '../../src/booking/simulator/index.ts';
import { clientFor, onCleanup, simulator } from './helpers.ts';

interface Received {
  path: string;
  auth: string | undefined;
  body: Record<string, unknown>;
}

/** A local receiver standing in for the daemon's webhook route. */
async function receiver(status = 200): Promise<{ origin: string; got: Received[] }> {
  const got: Received[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      got.push({ path: req.url ?? '', auth: req.headers.authorization, body: JSON.parse(text) as Record<string, unknown> });
      res.statusCode = status;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  onCleanup(() => new Promise<void>((r) => server.close(() => r())));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, got };
}

const CALLBACK = 'https://calendar.example.com/webhooks/0123456789abcdef0123/';
const ALL = ['appointment.created', 'appointment.updated', 'appointment.canceled'];

async function wired(notify: Partial<NotifyOptions> = {}, status = 200) {
  const r = await receiver(status);
  const sim = await simulator({
    notify: { rewriteCallback: (u) => new URL(new URL(u).pathname, r.origin).href, retryDelayMs: 10, ...notify },
  });
  const { client } = clientFor(sim);
  await client.createWebhook(CALLBACK, ALL);
  return { sim, client, got: r.got };
}

const options = { timezone: 'America/Sao_Paulo', defaultDurationMinutes: 60, serviceDurations: {} };

describe('simulator notifications', () => {
  it('POSTs the seed envelope to the registered callback on create, HTTP PATCH, reschedule and DELETE', async () => {
    const { sim, client, got } = await wired();
    const a = sim.create({ status: 'PENDING' });
    await client.updateStatus(a.appointment_key, 'CONFIRMED');
    await client.reschedule(a.appointment_key, a.start + 3_600_000);
    await client.cancel(a.appointment_key, { sendEmail: false });
    await sim.idle();
    expect(got.map((g) => g.body.event)).toEqual([
      'appointment.created',
      'appointment.updated',
      'appointment.updated',
      'appointment.canceled',
    ]);
    expect(got.every((g) => g.path === '/webhooks/0123456789abcdef0123/')).toBe(true);
    const last = got.at(-1)?.body;
    expect(typeof last?.timestamp).toBe('string');
    const read = readAppointment(last?.data, options);
    expect(read.ok && read.appointment.status).toBe('CANCELED');
  });

  it('sends bare records when asked', async () => {
    const { sim, got } = await wired({ shape: 'bare' });
    const a = sim.create();
    await sim.idle();
    expect(got[0]?.body.appointment_key).toBe(a.appointment_key);
    expect(got[0]?.body.event).toBeUndefined();
  });

  it('sends upper-case events when asked, DELETED for a removal', async () => {
    const { sim, got } = await wired({ shape: 'upper' });
    const a = sim.create();
    sim.update(a.appointment_key, { person: { full_name: 'Zoë Peña' } });
    sim.cancel(a.appointment_key);
    sim.remove(a.appointment_key);
    await sim.idle();
    expect(got.map((g) => g.body.event)).toEqual(['CREATED', 'UPDATED', 'CANCELED', 'DELETED']);
  });

  it('carries the optional auth token', async () => {
    const { sim, got } = await wired({ authToken: 'dashboard-token-123' });
    sim.create();
    await sim.idle();
    expect(got[0]?.auth).toBe('Bearer dashboard-token-123');
  });

  it('sends nothing while suppressed (a broken webhook), but records the change', async () => {
    const { sim, got } = await wired();
    sim.suppressNotifications(true);
    sim.create();
    await sim.idle();
    expect(got).toEqual([]);
    expect(sim.notifications.at(-1)).toMatchObject({ event: 'appointment.created', suppressed: true });
  });

  it('tries again when the receiver answers outside 2xx', async () => {
    const { sim, got } = await wired({ retries: 2 }, 503);
    sim.create();
    await sim.idle();
    expect(got).toHaveLength(3);
    expect(sim.notifications[0]).toMatchObject({ status: 503, attempts: 3 });
  });

  it('delivers to a webhook added in code to a plain http:// URL (the demo)', async () => {
    const r = await receiver();
    const sim = await simulator();
    sim.addWebhook(`${r.origin}/webhooks/demo-secret-0000000000/`, ALL);
    sim.create();
    await sim.idle();
    expect(r.got.map((g) => g.path)).toEqual(['/webhooks/demo-secret-0000000000/']);
  });

  it('only sends the events a webhook subscribed to', async () => {
    const r = await receiver();
    const sim = await simulator({ notify: { rewriteCallback: (u) => new URL(new URL(u).pathname, r.origin).href } });
    await clientFor(sim).client.createWebhook(CALLBACK, ['appointment.canceled']);
    const a = sim.create();
    sim.cancel(a.appointment_key);
    await sim.idle();
    expect(r.got.map((g) => g.body.event)).toEqual(['appointment.canceled']);
  });
});

describe('simulator HTTP interface', () => {
  it('requires the bearer token', async () => {
    const sim = await simulator();
    const res = await fetch(`${sim.url}/api/v3/appointments/`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
  });

  it('answers paths without the trailing slash with 404, as the seed has every path end with one', async () => {
    const sim = await simulator();
    const res = await fetch(`${sim.url}/api/v3/appointments`, { headers: { authorization: `Bearer ${sim.token}` } });
    expect(res.status).toBe(404);
  });

  it('refuses a webhook whose URL is not https', async () => {
    const sim = await simulator();
    const { client } = clientFor(sim);
    await expect(client.createWebhook('http://calendar.example.com/webhooks/x/', ALL)).rejects.toMatchObject({
      kind: 'invalid',
      detail: expect.stringMatching(/HTTPS/),
    });
    expect(sim.webhooks()).toEqual([]);
  });

  it('refuses a reschedule without a UTC offset, and one of a cancelled appointment', async () => {
    const sim = await simulator();
    const a = sim.create();
    const patch = (body: unknown) =>
      fetch(`${sim.url}/api/v3/appointments/${a.appointment_key}/reschedule/`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${sim.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const noOffset = await patch({ start_date: '2026-06-15T10:00:00' });
    expect(noOffset.status).toBe(400);
    expect(((await noOffset.json()) as { detail: string }).detail).toMatch(/UTC offset/);
    sim.cancel(a.appointment_key);
    expect((await patch({ start_date: '2026-06-15T10:00:00-03:00' })).status).toBe(400);
    expect(sim.get(a.appointment_key)?.start).toBe(a.start);
  });

  it('answers 404 for a removed appointment', async () => {
    const sim = await simulator();
    const a = sim.create();
    sim.remove(a.appointment_key);
    await expect(clientFor(sim).client.getAppointment(a.appointment_key)).rejects.toMatchObject({ kind: 'not_found' });
  });
});

describe('simulator data', () => {
  it('seeds realistic appointments the reader accepts, identical for the same seed number', async () => {
    const a = await simulator({ seed: { count: 30, random: 7 } });
    const b = await simulator({ seed: { count: 30, random: 7 } });
    const strip = (list: ReturnType<typeof a.all>) =>
      list.map(({ created_at: _c, ...rest }) => ({ ...rest, start: 0, end: rest.end - rest.start }));
    expect(strip(a.all())).toEqual(strip(b.all()));
    expect(new Set(a.all().map((x) => x.calendar.calendar_key)).size).toBeGreaterThan(1);
    expect(a.all().some((x) => /[À-ÿ]/.test(x.person.full_name))).toBe(true);
    for (const shape of ['seed', 'practice'] as const) {
      a.setRecordShape(shape);
      for (const x of a.all()) expect(readAppointment(a.record(x.appointment_key), options).ok).toBe(true);
    }
  });

  it('keeps changing in living mode, and each change is announced', async () => {
    const { sim, got } = await wired();
    sim.create({ start: Date.now() + 86_400_000, status: 'PENDING' });
    const steps = Array.from({ length: 25 }, () => sim.liveStep());
    await sim.idle();
    expect(steps.some((s) => s.startsWith('booked'))).toBe(true);
    expect(steps.some((s) => /^(rescheduled|cancelled|confirmed)/.test(s))).toBe(true);
    expect(got.length).toBeGreaterThanOrEqual(steps.filter((s) => s !== 'nothing happened').length + 1);
  });

  it('runs the living mode on a timer until stopped', async () => {
    const sim = await simulator({ seed: 5 });
    const seen: string[] = [];
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      sim.startLiving({ intervalMs: 10, onStep: (s) => seen.push(s) });
      vi.advanceTimersByTime(120);
      sim.stopLiving();
      expect(seen).toHaveLength(12);
      vi.advanceTimersByTime(50);
      expect(seen).toHaveLength(12);
    } finally {
      vi.useRealTimers();
    }
  });
});
