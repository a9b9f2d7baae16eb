// The booking client against answers meant to hurt it, from the simulator over HTTP: rate-limit
// headers that would park it for ages, bodies of many megabytes, a gateway's 404, keys that would
// step out of the API path. Every one of them is bounded, transient or refused.
import { describe, expect, it } from 'vitest';
import { ResponseTooLargeError } from '../../src/booking/errors.ts';
import { MAX_RATE_LIMIT_WAIT_MS } from '../../src/net/rate-limit.ts';
import { clientFor, collect, simulator } from './helpers.ts';

const MIB = 1024 * 1024;

/** A client whose clock moves only when it sleeps: waits are exact and nothing really sleeps. */
function timedClient(sim: Awaited<ReturnType<typeof simulator>>) {
  let now = Date.now();
  const waits: number[] = [];
  const { client } = clientFor(sim, {
    now: () => now,
    sleep: async (ms) => {
      waits.push(ms);
      now += ms;
    },
  });
  return { client, waits, now: () => now };
}

describe('rate-limit headers cannot park the daemon', () => {
  it('X-RateLimit-Reset in epoch milliseconds does not park later requests', async () => {
    const sim = await simulator();
    const a = sim.create();
    const { client, waits, now } = timedClient(sim);
    sim.setFaults({ rateLimitReset: String(now() + 2_000) }); // the window resets in 2 s, said in milliseconds
    await client.getAppointment(a.appointment_key);
    sim.setFaults({});
    for (let i = 0; i < 5; i++) await client.getAppointment(a.appointment_key);
    expect(waits).toEqual([2_000]);
  });

  it('X-RateLimit-Reset a year ahead parks later requests for at most 5 minutes in all', async () => {
    const sim = await simulator();
    const a = sim.create();
    const { client, waits, now } = timedClient(sim);
    sim.setFaults({ rateLimitReset: String(Math.floor(now() / 1000) + 365 * 86_400) });
    await client.getAppointment(a.appointment_key);
    sim.setFaults({});
    for (let i = 0; i < 10; i++) await client.getAppointment(a.appointment_key);
    expect(waits.reduce((sum, w) => sum + w, 0)).toBe(MAX_RATE_LIMIT_WAIT_MS);
    expect(waits.every((w) => w <= 60_000)).toBe(true); // no single wait beyond the client's longest
  });

  it.each([
    ['in seconds', { retryAfterSeconds: 31_536_000_000 }],
    ['as an HTTP date', { headers: { 'retry-after': 'Fri, 01 Jan 3000 00:00:00 GMT' } }],
  ])('a 429 with a huge Retry-After %s fails at once, asking for at most 5 minutes', async (_how, failure) => {
    const sim = await simulator();
    sim.failNext({ status: 429, ...failure });
    const { client, waits } = timedClient(sim);
    await expect(client.getAppointment('k1')).rejects.toMatchObject({ kind: 'rate_limited', retryAfterMs: MAX_RATE_LIMIT_WAIT_MS });
    expect(waits).toEqual([]);
  });
});

describe('answers are read with a size limit', () => {
  it('a record over 8 MiB is a transient error naming the path, never the token', async () => {
    const sim = await simulator();
    const a = sim.create();
    sim.failNext({ status: 200, pathIncludes: a.appointment_key, body: sim.record(a.appointment_key), bodyBytes: 9 * MIB });
    const { client } = clientFor(sim, { maxRetries: 0 });
    const error = await client.getAppointment(a.appointment_key).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ kind: 'transient' });
    expect((error as Error).message).toContain(`GET /api/v3/appointments/${a.appointment_key}/`);
    expect((error as Error).message).toContain('8 MiB');
    expect((error as Error).message).not.toContain(sim.token);
    expect(sim.requests).toHaveLength(1); // not repeated: the same request would bring the same flood
  });

  it('a 404 over the limit is transient, never "gone"', async () => {
    const sim = await simulator();
    sim.failNext({ status: 404, bodyBytes: 9 * MIB });
    const { client } = clientFor(sim, { maxRetries: 0 });
    await expect(client.getAppointment('k1')).rejects.toMatchObject({ kind: 'transient' });
  });

  it('a listing page over the limit fails the listing', async () => {
    const sim = await simulator({ seed: 3 });
    sim.failNext({ status: 200, body: { count: 0, next: null, previous: null, results: [] }, bodyBytes: 9 * MIB });
    const { client } = clientFor(sim);
    await expect(collect(client.listPages({}))).rejects.toBeInstanceOf(ResponseTooLargeError);
  });

  it('an answer just under the limit is read', async () => {
    const sim = await simulator();
    const a = sim.create();
    sim.failNext({ status: 200, pathIncludes: a.appointment_key, body: sim.record(a.appointment_key), bodyBytes: 64 * 1024 });
    const { client } = clientFor(sim, { maxBodyBytes: 65 * 1024 });
    expect(await client.getAppointment(a.appointment_key)).toMatchObject({ appointment_key: a.appointment_key });
  });
});

describe('"gone" only for the service\'s own 404', () => {
  it.each([
    ['a gateway\'s {"message": ...}', { message: 'no Route matched with those values' }],
    ['{"detail": ...} with a gateway\'s extra member', { detail: 'Not Found', message: 'upstream' }],
    ['an empty JSON object', {}],
  ])('a 404 with %s is transient, not gone', async (_what, body) => {
    const sim = await simulator();
    sim.failNext({ status: 404, body });
    const { client } = clientFor(sim, { maxRetries: 0 });
    await expect(client.getAppointment('k1')).rejects.toMatchObject({ kind: 'transient', status: 404 });
  });

  it('the service\'s own {"detail": "Not found."} is gone, for 404 and 410', async () => {
    const sim = await simulator();
    const { client } = clientFor(sim);
    await expect(client.getAppointment('k1')).rejects.toMatchObject({ kind: 'not_found', status: 404, detail: 'Not found.' });
    sim.failNext({ status: 410, detail: 'Gone.' });
    await expect(client.getAppointment('k1')).rejects.toMatchObject({ kind: 'not_found', status: 410 });
  });
});

describe('keys never step out of the API path', () => {
  it.each(['.', '..', 'a/b', '%2e%2e', 'k\r\nX: 1', ''])('refuses to send a request for the key %j', async (key) => {
    const sim = await simulator();
    const { client } = clientFor(sim);
    await expect(client.cancel(key, { sendEmail: false })).rejects.toMatchObject({ kind: 'invalid' });
    await expect(client.getAppointment(key)).rejects.toMatchObject({ kind: 'invalid' });
    await expect(client.deleteWebhook(key)).rejects.toMatchObject({ kind: 'invalid' });
    expect(sim.requests).toEqual([]);
  });

  it('a webhook listed with the key ".." is left out, so no update or delete can reach /api/v3/', async () => {
    const sim = await simulator();
    const good = sim.addWebhook('https://cal.example.com/webhooks/s/', ['appointment.created']);
    sim.failNext({
      status: 200,
      pathIncludes: '/webhooks/',
      body: {
        count: 2,
        next: null,
        previous: null,
        results: [{ webhook_key: '..', url: 'https://cal.example.com/webhooks/s/', events: [] }, good],
      },
    });
    const { client } = clientFor(sim);
    expect((await client.listWebhooks()).map((w) => w.webhook_key)).toEqual([good.webhook_key]);
  });
});
