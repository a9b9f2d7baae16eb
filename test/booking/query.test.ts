import { describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiRoot, apiUrl, filterParams, localFilterTime, offsetTime, sameOriginNext } from '../../src/booking/query.ts';
import { detailOf, isServiceErrorBody } from '../../src/booking/http.ts';
import { MAX_RATE_LIMIT_WAIT_MS, rateLimitResetAt, retryAfterMs } from '../../src/net/rate-limit.ts';
import { BookingClient } from '../../src/booking/client.ts';
import { silentLogger } from '../../src/log.ts';
import { onCleanup } from './helpers.ts';

describe('URLs and times for the booking API', () => {
  const root = apiRoot('https://eagenda.com.br');
  it.each([
    [
      'absolute, same origin',
      'https://eagenda.com.br/api/v3/appointments/?page=2',
      'https://eagenda.com.br/api/v3/appointments/?page=2',
      false,
    ],
    ['relative', '/api/v3/appointments/?page=3', 'https://eagenda.com.br/api/v3/appointments/?page=3', false],
    [
      'http instead of https (a proxy)',
      'http://eagenda.com.br/api/v3/appointments/?page=2',
      'https://eagenda.com.br/api/v3/appointments/?page=2',
      true,
    ],
    [
      'another host',
      'https://internal-node-7:8000/api/v3/appointments/?page=2&status=PENDING',
      'https://eagenda.com.br/api/v3/appointments/?page=2&status=PENDING',
      true,
    ],
  ])('next link %s', (_name, next, expected, rebuilt) => {
    const r = sameOriginNext(next, apiUrl(root, 'appointments/'), root);
    expect(r.url.href).toBe(expected);
    expect(r.rebuilt).toBe(rebuilt);
  });

  it.each([
    ['https://eagenda.com.br', 'https://eagenda.com.br/api/v3/webhooks/'],
    ['https://eagenda.com.br/', 'https://eagenda.com.br/api/v3/webhooks/'],
    ['https://eagenda.com.br/api/v3', 'https://eagenda.com.br/api/v3/webhooks/'],
    ['https://proxy.example/booking/', 'https://proxy.example/booking/api/v3/webhooks/'],
  ])('base_url %s', (base, expected) => {
    expect(apiUrl(apiRoot(base), 'webhooks/').href).toBe(expected);
  });

  it('formats filter times offset-less in the booking zone, across a DST change', () => {
    expect(localFilterTime(Date.parse('2026-06-15T13:00:00Z'), 'America/Sao_Paulo')).toBe('2026-06-15T10:00:00');
    // Lisbon moves from +00:00 to +01:00 at 01:00Z that day
    expect(localFilterTime(Date.parse('2026-03-29T00:30:00Z'), 'Europe/Lisbon')).toBe('2026-03-29T00:30:00');
    expect(localFilterTime(Date.parse('2026-03-29T01:30:00Z'), 'Europe/Lisbon')).toBe('2026-03-29T02:30:00');
    expect(offsetTime(Date.parse('2026-07-01T09:00:00Z'), 'Europe/Lisbon')).toBe('2026-07-01T10:00:00+01:00');
  });

  it('leaves out empty filters', () => {
    expect(filterParams({ status: '', service_keys: [], name: undefined, is_cancelled: false }, 'UTC', 'repeat').toString()).toBe(
      'is_cancelled=false',
    );
  });

  it.each([
    [{ detail: 'Not found.' }, 'Not found.'],
    [{ start_date: ['Enter a valid date/time.'] }, 'start_date: Enter a valid date/time.'],
    ['<html>Bad Gateway</html>', '<html>Bad Gateway</html>'],
    [undefined, undefined],
  ])('detail of %j', (body, detail) => {
    expect(detailOf(body)).toBe(detail);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-06-15T12:00:00Z');
    expect(retryAfterMs('30', now)).toBe(30_000);
    expect(retryAfterMs('Mon, 15 Jun 2026 12:00:10 GMT', now)).toBe(10_000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs('-5', now)).toBeUndefined();
    expect(retryAfterMs('2024', now)).toBe(300_000); // seconds (clamped), never the year 2024
  });

  it('clamps a Retry-After of any size to 5 minutes, and a past date to 0', () => {
    const now = Date.parse('2026-06-15T12:00:00Z');
    expect(retryAfterMs('31536000000', now)).toBe(MAX_RATE_LIMIT_WAIT_MS);
    expect(retryAfterMs('1e400', now)).toBeUndefined();
    expect(retryAfterMs('Fri, 01 Jan 3000 00:00:00 GMT', now)).toBe(MAX_RATE_LIMIT_WAIT_MS);
    expect(retryAfterMs('Mon, 15 Jun 2026 11:00:00 GMT', now)).toBe(0);
  });

  it.each([
    ['seconds to wait', '20', 20_000],
    ['epoch seconds', String((Date.parse('2026-06-15T12:00:00Z') + 45_000) / 1000), 45_000],
    ['epoch milliseconds', String(Date.parse('2026-06-15T12:00:00Z') + 45_000), 45_000],
    ['epoch seconds a year ahead', String((Date.parse('2026-06-15T12:00:00Z') + 365 * 86_400_000) / 1000), MAX_RATE_LIMIT_WAIT_MS],
    ['epoch milliseconds read as seconds would be', String(Date.parse('2026-06-15T12:00:00Z') * 1000), MAX_RATE_LIMIT_WAIT_MS],
    ['a huge wait', '99999999', MAX_RATE_LIMIT_WAIT_MS],
  ])('reads X-RateLimit-Reset given as %s, at most 5 minutes ahead', (_kind, header, wait) => {
    const now = Date.parse('2026-06-15T12:00:00Z');
    expect(rateLimitResetAt(header, now)! - now).toBe(wait);
  });

  it.each([
    ['a reset in the past', String(Date.parse('2026-06-15T11:00:00Z') / 1000)],
    ['zero', '0'],
    ['text', 'soon'],
    ['nothing', null],
  ])('ignores X-RateLimit-Reset when it is %s', (_kind, header) => {
    expect(rateLimitResetAt(header, Date.parse('2026-06-15T12:00:00Z'))).toBeUndefined();
  });

  it.each([
    [{ detail: 'Not found.' }, true],
    [{ detail: 'Not found.', code: 'not_found' }, true],
    [{ message: 'no Route matched with those values' }, false],
    [{ detail: 'Not found.', message: 'from the gateway' }, false],
    [{ detail: '' }, false],
    [{ detail: ['Not found.'] }, false],
    [[{ detail: 'Not found.' }], false],
    ['<html>Not Found</html>', false],
    [undefined, false],
  ])('the service error body %j: %s', (body, ours) => {
    expect(isServiceErrorBody(body)).toBe(ours);
  });
});

describe('X-RateLimit-Remaining', () => {
  it('pauses before the next request when the allowance is used up', async () => {
    const server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-ratelimit-remaining', '0');
      res.setHeader('x-ratelimit-reset', '20');
      res.end('{"appointment_key": "k"}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    onCleanup(() => new Promise<void>((r) => server.close(() => r())));
    const waits: number[] = [];
    let now = 1_000_000;
    const client = new BookingClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      token: 't',
      timezone: 'UTC',
      timeoutMs: 2000,
      arrayFormat: 'repeat',
      maxPages: 5,
      log: silentLogger(),
      now: () => now,
      sleep: async (ms) => {
        waits.push(ms);
        now += ms;
      },
    });
    await client.getAppointment('k');
    expect(waits).toEqual([]);
    await client.getAppointment('k');
    expect(waits).toEqual([20_000]);
  });
});
