// The Google Calendar simulator behaves like Google where calbridge depends on it, through the real
// googleapis client (our adapter) and the real OAuth2Client refresh flow.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startGoogleSimulator, type GoogleSimulator } from '../../src/google/simulator/index.ts';
import { createCalendarAdapter } from '../../src/google/calendar-adapter.ts';
import { oauthClient } from '../../src/google/auth.ts';
import { Pacer } from '../../src/net/pacer.ts';
import { systemClock } from '../../src/core/clock.ts';
import type { CalendarApi } from '../../src/google/port.ts';
import type { EventBody } from '../../src/core/mirror/desired-event.ts';
import { testGoogleConfig } from './google-env.ts';

let fake: GoogleSimulator;
let api: CalendarApi;

const body = (hour: number): EventBody => ({
  summary: 'Ana',
  description: '',
  status: 'confirmed',
  start: { dateTime: `2026-06-15T${hour}:00:00-03:00`, timeZone: 'America/Sao_Paulo' },
  end: { dateTime: `2026-06-15T${hour + 1}:00:00-03:00`, timeZone: 'America/Sao_Paulo' },
  privateProperties: { appointment_key: 'k1' },
});

beforeEach(async () => {
  fake = await startGoogleSimulator({ clientId: 'client-1', clientSecret: 'client-secret-1' });
  const auth = oauthClient(testGoogleConfig(fake));
  auth.setCredentials({ refresh_token: 'refresh-1' });
  api = createCalendarAdapter({
    auth,
    apiRoot: fake.rootUrl,
    pacer: new Pacer(100_000, systemClock),
    clock: systemClock,
    policy: { retries: 0, baseMs: 1, maxMs: 1 },
  });
});
afterEach(async () => {
  await fake.close();
});

describe('fake Google Calendar', () => {
  it('inserts with a client id, answers 409 on the same id, 400 on an id outside base32hex', async () => {
    const e = await api.insert('primary', 'abcdef0123', body(10));
    expect(e.start).toBe(Date.parse('2026-06-15T13:00:00Z'));
    expect(e.privateProperties.appointment_key).toBe('k1');
    await expect(api.insert('primary', 'abcdef0123', body(10))).rejects.toMatchObject({ kind: 'conflict', status: 409 });
    await expect(api.insert('primary', 'xyz-bad', body(10))).rejects.toMatchObject({ kind: 'invalid', status: 400 });
    expect(fake.events('primary')).toHaveLength(1);
  });

  it('If-Match with a stale etag answers 412; the current etag updates', async () => {
    const e = await api.insert('primary', 'abcdef0123', body(10));
    const moved = await api.update('primary', e.id, body(11), e.etag);
    expect(moved.etag).not.toBe(e.etag);
    await expect(api.update('primary', e.id, body(12), e.etag)).rejects.toMatchObject({ kind: 'precondition_failed' });
    expect(fake.events('primary')[0]?.start?.dateTime).toBe('2026-06-15T11:00:00-03:00');
  });

  it('keeps a tombstone on delete: 410 on a second delete, 409 on insert, revived by update unless refused', async () => {
    await api.insert('primary', 'abcdef0123', body(10));
    await api.delete('primary', 'abcdef0123');
    await expect(api.delete('primary', 'abcdef0123')).rejects.toMatchObject({ kind: 'gone' });
    await expect(api.insert('primary', 'abcdef0123', body(10))).rejects.toMatchObject({ kind: 'conflict' });
    expect((await api.get('primary', 'abcdef0123')).status).toBe('cancelled');
    fake.state.refuseRevival = true;
    await expect(api.update('primary', 'abcdef0123', body(10))).rejects.toMatchObject({ kind: 'forbidden', status: 403 });
    fake.state.refuseRevival = false;
    expect((await api.update('primary', 'abcdef0123', body(10))).status).toBe('confirmed');
    await expect(api.delete('primary', 'nosuchevent')).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('lists in pages with a sync token at the end, then only changes (tombstones included); 410 once invalidated', async () => {
    for (let i = 0; i < 5; i++) await api.insert('primary', `event0000${i}`, body(10));
    const first = await api.list('primary', { maxResults: 2 });
    expect(first.events).toHaveLength(2);
    expect(first.nextSyncToken).toBeUndefined();
    let page = first;
    const seen = [...first.events];
    while (page.nextPageToken) {
      page = await api.list('primary', { maxResults: 2, pageToken: page.nextPageToken });
      seen.push(...page.events);
    }
    expect(seen).toHaveLength(5);
    expect(page.nextSyncToken).toBeTruthy();
    await api.delete('primary', 'event00001');
    fake.state.userEdit('primary', 'event00002', { summary: 'moved' });
    const changes = await api.list('primary', { syncToken: page.nextSyncToken! });
    expect(changes.events.map((e) => [e.id, e.status])).toEqual([
      ['event00001', 'cancelled'],
      ['event00002', 'confirmed'],
    ]);
    fake.state.invalidateSyncTokens('primary');
    await expect(api.list('primary', { syncToken: changes.nextSyncToken! })).rejects.toMatchObject({ kind: 'gone', status: 410 });
  });

  it('refreshes an expired access token, and answers invalid_grant once revoked', async () => {
    await api.insert('primary', 'abcdef0123', body(10));
    expect(fake.tokens.refreshed).toBe(1);
    fake.expireAccessTokens();
    await api.get('primary', 'abcdef0123');
    expect(fake.tokens.refreshed).toBe(2);
    fake.revoke();
    await expect(api.get('primary', 'abcdef0123')).rejects.toMatchObject({ kind: 'auth' });
  });

  it('injects faults: 429, 403 rate limit, quota, 500', async () => {
    fake.failNext(429);
    await expect(api.list('primary', {})).rejects.toMatchObject({ kind: 'rate_limited', status: 429 });
    fake.failNext('403rate');
    await expect(api.list('primary', {})).rejects.toMatchObject({ kind: 'rate_limited', status: 403 });
    fake.failNext('quota');
    await expect(api.list('primary', {})).rejects.toMatchObject({ kind: 'quota_exceeded' });
    fake.failNext(500);
    await expect(api.get('primary', 'abcdef0123')).rejects.toMatchObject({ kind: 'transient' });
    fake.failNext('network');
    await expect(api.get('primary', 'abcdef0123')).rejects.toMatchObject({ kind: 'transient' });
    // the library's own retry is off: one call per failure, as counted
    expect(fake.counts().get).toBe(2);
  });

  it('records watch channels, delivers notifications with the channel headers, stops channels', async () => {
    const received: Record<string, string>[] = [];
    const { createServer } = await import('node:http');
    const sink = createServer((req, res) => {
      received.push(Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])));
      res.end();
    });
    await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
    const port = (sink.address() as { port: number }).port;
    const f2 = await startGoogleSimulator({ pushAddress: () => `http://127.0.0.1:${port}/google/notifications` });
    try {
      const auth = oauthClient(testGoogleConfig(f2));
      auth.setCredentials({ refresh_token: 'refresh-1' });
      const api2 = createCalendarAdapter({
        auth,
        apiRoot: f2.rootUrl,
        pacer: new Pacer(100_000, systemClock),
        clock: systemClock,
        policy: { retries: 0, baseMs: 1, maxMs: 1 },
      });
      const ch = await api2.watch('primary', {
        channelId: 'chan-1',
        address: 'https://cal.example.com/google/notifications',
        token: 'tok-1',
      });
      expect(await f2.notify('chan-1', 'exists')).toBe(200);
      expect(received.at(-1)).toMatchObject({
        'x-goog-channel-id': 'chan-1',
        'x-goog-channel-token': 'tok-1',
        'x-goog-resource-state': 'exists',
      });
      await api2.stopChannel('chan-1', ch.resourceId);
      await expect(api2.stopChannel('chan-1', ch.resourceId)).rejects.toMatchObject({ kind: 'not_found' });
    } finally {
      await f2.close();
      await new Promise((r) => sink.close(r));
    }
  });
});
