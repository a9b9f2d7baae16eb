import { describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ListFilters } from '../../src/booking/port.ts';
import type { Simulator } from '../../src/booking/simulator/index.ts';
import { clientFor, collect, keysOf, onCleanup, simulator } from './helpers.ts';

const at = (iso: string) => Date.parse(iso);
const S1 = 'aaaaaaaa-0000-4000-a000-000000000001';
const S2 = 'aaaaaaaa-0000-4000-a000-000000000002';
const T1 = 'bbbbbbbb-0000-4000-a000-000000000001';

/** Two appointments that differ in every filterable field; each filter must select `hit` only. */
function pair(sim: Simulator) {
  const hit = sim.create({
    start: at('2026-06-15T13:00:00Z'),
    status: 'PENDING',
    calendar: { calendar_key: 'cal-hit', name: 'Sala São João' },
    person: { person_key: 'person-hit', full_name: 'Sebastião Gonçalves', email: 'sebastiao@example.com', phone: '+55 11 98888-7777' },
    client_key: 'client-hit',
    identification_code: '11122233344',
    external_id: 'ext-hit',
    search_code: 'HIT01',
    service_keys: [S1],
    tag_keys: [T1],
    owner_user: 'owner-hit@example.com',
    created_at: at('2026-06-01T15:00:00Z'),
  });
  const miss = sim.create({
    start: at('2026-06-20T13:00:00Z'),
    status: 'CONFIRMED',
    calendar: { calendar_key: 'cal-miss', name: 'Outra' },
    person: { person_key: 'person-miss', full_name: 'Helena Ribeiro', email: 'helena@example.com', phone: '+55 21 97777-1111' },
    client_key: 'client-miss',
    identification_code: '99988877766',
    external_id: 'ext-miss',
    search_code: 'MISS1',
    service_keys: [S2],
    tag_keys: [],
    owner_user: 'owner-miss@example.com',
    created_at: at('2026-05-01T15:00:00Z'),
  });
  sim.cancel(miss.appointment_key);
  return { hit: hit.appointment_key, miss: miss.appointment_key };
}

describe('BookingClient.listPages: every list filter of the booking API', () => {
  const cases: { filter: ListFilters; sent: Record<string, string[]> }[] = [
    { filter: { calendar_key: 'cal-hit' }, sent: { calendar_key: ['cal-hit'] } },
    { filter: { client_key: 'client-hit' }, sent: { client_key: ['client-hit'] } },
    { filter: { person_key: 'person-hit' }, sent: { person_key: ['person-hit'] } },
    { filter: { status: 'PENDING' }, sent: { status: ['PENDING'] } },
    // 10:00 local (São Paulo, -03:00) is 13:00Z: offset-less in booking.timezone
    {
      filter: { start_date: at('2026-06-15T12:00:00Z'), end_date: at('2026-06-16T00:00:00Z') },
      sent: { start_date: ['2026-06-15T09:00:00'], end_date: ['2026-06-15T21:00:00'] },
    },
    { filter: { email: 'SEBASTIAO@' }, sent: { email: ['SEBASTIAO@'] } },
    { filter: { phone: '98888' }, sent: { phone: ['98888'] } },
    { filter: { name: 'gonçalves' }, sent: { name: ['gonçalves'] } },
    { filter: { identification_code: '11122233344' }, sent: { identification_code: ['11122233344'] } },
    { filter: { external_id: 'ext-hit' }, sent: { external_id: ['ext-hit'] } },
    { filter: { search_code: 'HIT01' }, sent: { search_code: ['HIT01'] } },
    { filter: { is_cancelled: false }, sent: { is_cancelled: ['false'] } },
    {
      filter: { service_keys: [S1, 'cccccccc-0000-4000-a000-000000000009'] },
      sent: { service_keys: [S1, 'cccccccc-0000-4000-a000-000000000009'] },
    },
    { filter: { tag_keys: [T1] }, sent: { tag_keys: [T1] } },
    { filter: { owner_user: 'owner-hit@example.com' }, sent: { owner_user: ['owner-hit@example.com'] } },
    { filter: { created_at: '2026-06-01' }, sent: { created_at: ['2026-06-01'] } },
  ];
  it.each(cases)('$sent', async ({ filter, sent }) => {
    const sim = await simulator();
    const { hit } = pair(sim);
    const { client } = clientFor(sim);
    expect(keysOf(await collect(client.listPages(filter)))).toEqual([hit]);
    expect(sim.requests.at(-1)?.query).toEqual(sent);
  });

  it('is_cancelled=true selects the cancelled one', async () => {
    const sim = await simulator();
    const { miss } = pair(sim);
    const { client } = clientFor(sim);
    expect(keysOf(await collect(client.listPages({ is_cancelled: true })))).toEqual([miss]);
  });

  it('combines filters in one request', async () => {
    const sim = await simulator();
    const { hit } = pair(sim);
    const { client } = clientFor(sim);
    const pages = await collect(client.listPages({ status: 'PENDING', calendar_key: 'cal-hit', start_date: at('2026-06-15T03:00:00Z') }));
    expect(keysOf(pages)).toEqual([hit]);
  });

  it('sends arrays comma-separated when configured', async () => {
    const sim = await simulator();
    const { hit } = pair(sim);
    const { client } = clientFor(sim, { arrayFormat: 'comma' });
    expect(keysOf(await collect(client.listPages({ service_keys: [S1, S2] })))).toHaveLength(2);
    expect(sim.requests.at(-1)?.query.service_keys).toEqual([`${S1},${S2}`]);
    expect(keysOf(await collect(client.listPages({ tag_keys: [T1] })))).toEqual([hit]);
  });

  it('a bad filter value surfaces the service detail', async () => {
    const sim = await simulator();
    const { client } = clientFor(sim);
    await expect(collect(client.listPages({ created_at: 'last week' }))).rejects.toMatchObject({
      kind: 'invalid',
      detail: expect.stringContaining('created_at'),
    });
  });
});

describe('BookingClient.listPages: pagination', () => {
  it('follows next through every page and sends page_size when configured', async () => {
    const sim = await simulator({ seed: 45 });
    const { client } = clientFor(sim, { pageSize: 10 });
    const pages = await collect(client.listPages({}));
    expect(pages.map((p) => p.length)).toEqual([10, 10, 10, 10, 5]);
    expect(keysOf(pages)).toEqual(
      sim
        .all()
        .map((a) => a.appointment_key)
        .sort(),
    );
    expect(sim.requests.map((r) => r.query.page?.[0] ?? '1')).toEqual(['1', '2', '3', '4', '5']);
    expect(sim.requests.every((r) => r.query.page_size?.[0] === '10')).toBe(true);
  });

  it('rebuilds a next link naming another origin on base_url, and never contacts that origin', async () => {
    let decoyHits = 0;
    const decoy = createServer((_req, res) => {
      decoyHits++;
      res.end('{"results": [], "next": null}');
    });
    await new Promise<void>((r) => decoy.listen(0, '127.0.0.1', r));
    onCleanup(() => new Promise<void>((r) => decoy.close(() => r())));
    const decoyOrigin = `http://127.0.0.1:${(decoy.address() as AddressInfo).port}`;

    const sim = await simulator({ seed: 25, linkOrigin: decoyOrigin });
    const { client } = clientFor(sim, { pageSize: 10 });
    const pages = await collect(client.listPages({}));
    expect(pages.map((p) => p.length)).toEqual([10, 10, 5]);
    expect(decoyHits).toBe(0);
    expect(sim.requests.every((r) => r.authorized)).toBe(true);
  });

  it('follows a relative next link, with base_url given with /api/v3/ too', async () => {
    const sim = await simulator({ seed: 15, linkOrigin: '' });
    const { client } = clientFor(sim, { pageSize: 10, baseUrl: `${sim.url}/api/v3/` });
    expect((await collect(client.listPages({}))).flat()).toHaveLength(15);
    expect(sim.requests.map((r) => r.path)).toEqual(['/api/v3/appointments/', '/api/v3/appointments/']);
  });

  it('stops at the page cap with an error naming booking.max_pages', async () => {
    const sim = await simulator({ seed: 30 });
    const { client } = clientFor(sim, { pageSize: 10, maxPages: 2 });
    await expect(collect(client.listPages({}))).rejects.toThrow(/more than 2 pages \(booking\.max_pages\)/);
    expect(sim.requests).toHaveLength(2);
  });
});

describe('BookingClient: retries', () => {
  it('honours Retry-After on 429 and then succeeds', async () => {
    const sim = await simulator({ seed: 3 });
    sim.failNext({ status: 429, retryAfterSeconds: 7, count: 2 });
    const { client, waits } = clientFor(sim);
    expect((await collect(client.listPages({}))).flat()).toHaveLength(3);
    expect(waits).toHaveLength(2);
    expect(waits.every((w) => w >= 7000)).toBe(true);
  });

  it('gives up at once as rate_limited when Retry-After is longer than it is willing to wait', async () => {
    const sim = await simulator();
    sim.failNext({ status: 429, retryAfterSeconds: 240 });
    const { client, waits } = clientFor(sim);
    await expect(client.getAppointment('x')).rejects.toMatchObject({ kind: 'rate_limited', retryAfterMs: 240_000 });
    expect(waits).toEqual([]);
  });

  it('retries 503 with growing backoff and reads the page in the end', async () => {
    const sim = await simulator();
    const a = sim.create();
    sim.failNext({ status: 503, count: 3 });
    const { client, waits } = clientFor(sim, { random: () => 0 });
    expect(((await client.getAppointment(a.appointment_key)) as Record<string, unknown>).appointment_key).toBe(a.appointment_key);
    expect(waits).toEqual([250, 500, 1000]);
    expect(sim.requests).toHaveLength(4);
  });

  it('a 503 that does not stop becomes transient after maxRetries', async () => {
    const sim = await simulator();
    sim.failNext({ status: 503, count: 10 });
    const { client } = clientFor(sim, { maxRetries: 2 });
    await expect(client.getAppointment('x')).rejects.toMatchObject({ kind: 'transient', status: 503 });
    expect(sim.requests).toHaveLength(3);
  });

  it('gets through a service that fails a third of its answers', async () => {
    const sim = await simulator({ seed: 60, faults: { rate429: 0.15, rate503: 0.15, retryAfterSeconds: 0 } });
    const { client } = clientFor(sim, { pageSize: 5, maxRetries: 8 });
    expect((await collect(client.listPages({}))).flat()).toHaveLength(60);
  });
});
