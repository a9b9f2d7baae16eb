import { describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BookingError } from '../../src/booking/errors.ts';
import { clientFor, collect, simulator } from './helpers.ts';

const at = (iso: string) => Date.parse(iso);

describe('BookingClient against the simulator: every endpoint', () => {
  it('retrieves one appointment with the bearer token on the request', async () => {
    const sim = await simulator();
    const a = sim.create({ start: at('2026-06-15T13:00:00Z'), person: { full_name: 'Inês Conceição' } });
    const { client } = clientFor(sim);
    const rec = (await client.getAppointment(a.appointment_key)) as Record<string, unknown>;
    expect(rec.appointment_key).toBe(a.appointment_key);
    expect(rec.start_date).toBe('2026-06-15T10:00:00-03:00');
    expect((rec.person as Record<string, unknown>).full_name).toBe('Inês Conceição');
    const req = sim.requests.at(-1);
    expect(req).toMatchObject({ method: 'GET', path: `/api/v3/appointments/${a.appointment_key}/`, authorized: true });
  });

  it('updates the status with a PATCH', async () => {
    const sim = await simulator();
    const a = sim.create({ status: 'PENDING' });
    const { client } = clientFor(sim);
    await client.updateStatus(a.appointment_key, 'ATTENDED');
    expect(sim.get(a.appointment_key)?.status).toBe('ATTENDED');
    expect(sim.requests.at(-1)).toMatchObject({ method: 'PATCH', body: { status: 'ATTENDED' } });
  });

  it('reschedules with start_date in ISO 8601 carrying the booking zone offset, keeping the length', async () => {
    const sim = await simulator();
    const a = sim.create({ start: at('2026-06-15T13:00:00Z'), end: at('2026-06-15T13:45:00Z') });
    const { client } = clientFor(sim);
    await client.reschedule(a.appointment_key, at('2026-06-16T17:30:00Z'));
    const req = sim.requests.at(-1);
    expect(req).toMatchObject({ method: 'PATCH', path: `/api/v3/appointments/${a.appointment_key}/reschedule/` });
    expect(req?.body).toEqual({ start_date: '2026-06-16T14:30:00-03:00' });
    expect(sim.get(a.appointment_key)).toMatchObject({ start: at('2026-06-16T17:30:00Z'), end: at('2026-06-16T18:15:00Z') });
  });

  it('cancels with DELETE and send_email', async () => {
    const sim = await simulator();
    const a = sim.create();
    const b = sim.create();
    const { client } = clientFor(sim);
    await client.cancel(a.appointment_key, { sendEmail: true });
    await client.cancel(b.appointment_key, { sendEmail: false });
    const deletes = sim.requests.filter((r) => r.method === 'DELETE');
    expect(deletes.map((r) => r.query.send_email)).toEqual([['true'], ['false']]);
    expect(sim.get(a.appointment_key)?.status).toBe('CANCELED');
    expect(sim.get(b.appointment_key)?.status).toBe('CANCELED');
  });

  it('lists, creates, updates and deletes webhooks', async () => {
    const sim = await simulator();
    const { client } = clientFor(sim);
    expect(await client.listWebhooks()).toEqual([]);
    const w = await client.createWebhook('https://cal.example.com/webhooks/s3cr3t-s3cr3t-s3cr3t/', ['appointment.created']);
    expect(w.webhook_key).not.toBe('');
    expect(await client.listWebhooks()).toEqual([w]);
    const u = await client.updateWebhook(w.webhook_key, w.url, ['appointment.created', 'appointment.canceled']);
    expect(u.events).toEqual(['appointment.created', 'appointment.canceled']);
    expect(sim.webhooks()[0]?.events).toEqual(['appointment.created', 'appointment.canceled']);
    await client.deleteWebhook(w.webhook_key);
    expect(sim.webhooks()).toEqual([]);
  });

  it('reads a webhook listing spread over several pages', async () => {
    const sim = await simulator({ pageSize: 2 });
    const { client } = clientFor(sim);
    for (let i = 0; i < 5; i++) await client.createWebhook(`https://h${i}.example.com/x/`, ['appointment.created']);
    expect((await client.listWebhooks()).map((w) => w.url)).toEqual([0, 1, 2, 3, 4].map((i) => `https://h${i}.example.com/x/`));
  });

  it('reads records in the practice shape from the list endpoint as well', async () => {
    const sim = await simulator({ recordShape: 'practice' });
    sim.create({ start: at('2026-06-15T13:00:00Z') });
    const { client } = clientFor(sim);
    const [page] = await collect(client.listPages({}));
    expect(page?.[0]?.start).toEqual({ dateTime: '2026-06-15T10:00:00-03:00', timeZone: 'America/Sao_Paulo' });
  });
});

describe('BookingClient: errors a user can act on', () => {
  it('404 on an unknown appointment is not_found with the service detail', async () => {
    const sim = await simulator();
    const { client } = clientFor(sim);
    const e = await client.getAppointment('no-such-key').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(BookingError);
    expect(e).toMatchObject({ kind: 'not_found', status: 404, detail: 'Not found.' });
  });

  it('a 404 that is not the API\'s JSON (a proxy page, a wrong base_url) is transient, never "gone"', async () => {
    const sim = await simulator();
    const proxy = createServer((_req, res) =>
      res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>404 Not Found</body></html>'),
    );
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    try {
      const { client } = clientFor(sim, { baseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` });
      const e = await client.getAppointment('733d9fee-c3ce-41f6-a941-122b7f72dc4c').catch((x: unknown) => x);
      expect(e).toMatchObject({ kind: 'transient', status: 404 });
      expect((e as Error).message).toMatch(/did not come from the booking API .*check booking\.base_url/);
    } finally {
      await new Promise((r) => proxy.close(r));
    }
  });

  it('401 with a wrong token is unauthorized, and the message never contains the token', async () => {
    const sim = await simulator();
    const token = 'wrong-token-0123456789abcdef';
    const { client, waits } = clientFor(sim, { token });
    const e = (await client.getAppointment('x').catch((x: unknown) => x)) as BookingError;
    expect(e).toMatchObject({ kind: 'unauthorized', status: 401, detail: 'Invalid token.' });
    expect(e.message).toMatch(/check booking\.token/);
    expect(e.message).not.toContain(token);
    expect(waits).toEqual([]); // no retry on 4xx
  });

  it('400 is invalid with the service detail: a refused reschedule', async () => {
    const sim = await simulator();
    const a = sim.create();
    sim.refuseReschedules('The new time slot is not available.');
    const { client } = clientFor(sim);
    const e = (await client.reschedule(a.appointment_key, Date.now()).catch((x: unknown) => x)) as BookingError;
    expect(e).toMatchObject({ kind: 'invalid', status: 400, detail: 'The new time slot is not available.' });
    expect(e.message).toContain('The new time slot is not available.');
    expect(sim.requests.filter((r) => r.path.endsWith('/reschedule/'))).toHaveLength(1);
  });

  it('400 for an unknown status names the status', async () => {
    const sim = await simulator();
    const a = sim.create();
    const { client } = clientFor(sim);
    await expect(client.updateStatus(a.appointment_key, 'DONE')).rejects.toMatchObject({
      kind: 'invalid',
      detail: expect.stringContaining('DONE'),
    });
  });

  it('a request that gets no answer in time is transient', async () => {
    const sim = await simulator({ faults: { delayMs: 400 } });
    const { client } = clientFor(sim, { timeoutMs: 100, maxRetries: 0 });
    await expect(client.getAppointment('x')).rejects.toMatchObject({
      kind: 'transient',
      message: expect.stringMatching(/no answer within 100 ms/),
    });
  });

  it('a closed port is transient after the retries, each retry waiting longer', async () => {
    const sim = await simulator();
    const { client, waits } = clientFor(sim, { maxRetries: 3, random: () => 1 });
    await sim.close();
    await expect(client.getAppointment('x')).rejects.toMatchObject({ kind: 'transient', message: expect.stringMatching(/unreachable/) });
    expect(waits).toEqual([500, 1000, 2000]);
  });
});
