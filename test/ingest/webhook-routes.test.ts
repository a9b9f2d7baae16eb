// POST /webhooks/{secret}/: every status code of docs/reference/http.md, "Webhooks", in its order, and that nothing a
// rejected request carried is stored as a delivery.
import { afterEach, describe, expect, it } from 'vitest';
import { createTestContext, testConfig, TEST_WEBHOOK_SECRET, type TestContext } from '../helpers/context.ts';
import { callbackUrl } from '../../src/booking/webhook-registration.ts';
import { maskUrlSecret } from '../../src/log.ts';

const PATH = `/webhooks/${TEST_WEBHOOK_SECRET}/`;
const envelope = (key = 'appt-1', extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    event: 'appointment.created',
    timestamp: '2026-06-15T10:00:00-03:00',
    data: { appointment_key: key, status: 'CONFIRMED' },
    ...extra,
  });

let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

function setup(webhook: Record<string, unknown> = {}) {
  t = createTestContext({ config: testConfig({ webhook: { secret: TEST_WEBHOOK_SECRET, register: false, ...webhook } }) });
  const app = t.runtime.app;
  const { db, rejections } = t.ctx;
  return {
    app,
    t,
    post: async (body: string | Uint8Array | null, headers: Record<string, string> = { 'content-type': 'application/json' }, path = PATH) =>
      app.request(path, { method: 'POST', body, headers }),
    deliveries: () =>
      db.prepare('SELECT appointment_key, event, body FROM deliveries ORDER BY id').all() as {
        appointment_key: string;
        event: string;
        body: string;
      }[],
    rejectionCounts: () => rejections.counts(),
  };
}

describe('webhook receiver', () => {
  it('accepts the previous secret during a rotation, and still nothing else', async () => {
    const s = setup({ previous_secret: 'old-secret-0123456789abcdef' });
    expect((await s.post(envelope(), undefined, '/webhooks/old-secret-0123456789abcdef/')).status).toBe(200);
    expect((await s.post(envelope(), undefined, PATH)).status).toBe(200);
    expect((await s.post(envelope(), undefined, '/webhooks/old-secret-0123456789abcdeX/')).status).toBe(404);
  });

  it('takes a secret with URL characters (a base64 one) at the callback URL calbridge registers', async () => {
    const secret = 'Yq3/x+Zk9Lm2Pq8/Rt5Vw==';
    const s = setup({ secret });
    const url = new URL(callbackUrl('https://cal.example.com', secret));
    const res = await s.post(envelope(), undefined, url.pathname);
    expect(res.status).toBe(200);
    expect(s.deliveries()).toHaveLength(1);
    expect(maskUrlSecret(url.href, secret)).toBe('https://cal.example.com/webhooks/****/');
  });

  it('stores a seed envelope and answers 200 only after it is committed', async () => {
    const s = setup();
    const res = await s.post(envelope());
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'stored' });
    expect(s.deliveries()).toEqual([{ appointment_key: 'appt-1', event: 'appointment.created', body: envelope() }]);
    expect(s.t.woken).toContain('deliveries');
  });

  it('accepts the path without its trailing slash, a bare record, an upper-case event and */*+json', async () => {
    const s = setup();
    expect((await s.post(envelope('a'), undefined, `/webhooks/${TEST_WEBHOOK_SECRET}`)).status).toBe(200);
    expect(
      (await s.post(JSON.stringify({ appointment_key: 'b', status: 'CONFIRMED', start: { dateTime: '2026-06-15T10:00:00-03:00' } })))
        .status,
    ).toBe(200);
    expect((await s.post(JSON.stringify({ event: 'CANCELED', data: { appointment_key: 'c' } }))).status).toBe(200);
    expect((await s.post(envelope('d'), { 'content-type': 'application/vnd.eagenda.webhook+json; charset=utf-8' })).status).toBe(200);
    // bytes, so no content type is added: read as JSON
    expect((await s.post(new TextEncoder().encode(envelope('e')), {})).status).toBe(200);
    expect(s.deliveries().map((d) => [d.appointment_key, d.event])).toEqual([
      ['a', 'appointment.created'],
      ['b', null],
      ['c', 'appointment.canceled'],
      ['d', 'appointment.created'],
      ['e', 'appointment.created'],
    ]);
  });

  it('answers a repeat 200 and stores it once', async () => {
    const s = setup();
    expect(await (await s.post(envelope())).json()).toEqual({ status: 'stored' });
    const again = await s.post(envelope());
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ status: 'duplicate' });
    expect(s.deliveries()).toHaveLength(1);
  });

  it.each([
    [
      '404 for a wrong secret',
      (s: ReturnType<typeof setup>) => s.post(envelope(), undefined, '/webhooks/wrong-secret-0123456789/'),
      404,
      {},
    ],
    [
      '404 for a secret that is a prefix of the right one',
      (s: ReturnType<typeof setup>) => s.post(envelope(), undefined, `/webhooks/${TEST_WEBHOOK_SECRET.slice(0, -1)}/`),
      404,
      {},
    ],
    [
      '415 for text/plain',
      (s: ReturnType<typeof setup>) => s.post(envelope(), { 'content-type': 'text/plain' }),
      415,
      { unsupported_media_type: 1 },
    ],
    [
      '415 for form data',
      (s: ReturnType<typeof setup>) => s.post('a=1', { 'content-type': 'application/x-www-form-urlencoded' }),
      415,
      { unsupported_media_type: 1 },
    ],
    [
      '415 for any Content-Encoding',
      (s: ReturnType<typeof setup>) => s.post(envelope(), { 'content-type': 'application/json', 'content-encoding': 'gzip' }),
      415,
      { unsupported_media_type: 1 },
    ],
    [
      '413 for a declared length over 1 MiB',
      (s: ReturnType<typeof setup>) =>
        s.post(envelope(), { 'content-type': 'application/json', 'content-length': String(1024 * 1024 + 1) }),
      413,
      { too_large: 1 },
    ],
    [
      '413 for a streamed body over 1 MiB',
      (s: ReturnType<typeof setup>) => s.post(JSON.stringify({ appointment_key: 'x', pad: 'y'.repeat(1024 * 1024) })),
      413,
      { too_large: 1 },
    ],
    ['400 for a body that is not JSON', (s: ReturnType<typeof setup>) => s.post('{"event": '), 400, { not_json: 1 }],
    [
      '400 for bytes that are not UTF-8',
      (s: ReturnType<typeof setup>) => s.post(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])),
      400,
      { not_json: 1 },
    ],
    [
      '422 for a JSON array',
      (s: ReturnType<typeof setup>) => s.post(JSON.stringify([{ appointment_key: 'a' }])),
      422,
      { not_a_notification: 1 },
    ],
    [
      '422 for an object without a key',
      (s: ReturnType<typeof setup>) => s.post(JSON.stringify({ hello: 'world' })),
      422,
      { not_a_notification: 1 },
    ],
    [
      '422 for an envelope without data',
      (s: ReturnType<typeof setup>) => s.post(JSON.stringify({ event: 'appointment.created' })),
      422,
      { not_a_notification: 1 },
    ],
    [
      '422 for a key that would leave the API path',
      (s: ReturnType<typeof setup>) => s.post(JSON.stringify({ appointment_key: '../webhooks' })),
      422,
      { not_a_notification: 1 },
    ],
  ] as const)('%s, storing nothing', async (_name, send, status, counts) => {
    const s = setup();
    const res = await send(s);
    expect(res.status).toBe(status);
    expect(s.deliveries()).toEqual([]);
    expect(s.t.ctx.appointments.counts().total).toBe(0);
    expect(s.rejectionCounts()).toEqual(counts);
    expect(s.t.woken).toEqual([]);
  });

  it('exactly 1 MiB is accepted; one byte more is not', async () => {
    const s = setup();
    const make = (size: number) => {
      const head = '{"appointment_key":"big","pad":"';
      return `${head}${'x'.repeat(size - head.length - 2)}"}`;
    };
    expect((await s.post(make(1024 * 1024))).status).toBe(200);
    expect((await s.post(make(1024 * 1024 + 1))).status).toBe(413);
    expect(s.deliveries()).toHaveLength(1);
  });

  describe('with webhook.auth_token', () => {
    const token = 'sender-auth-token-123456';
    it.each([
      ['no Authorization', {}, 401],
      ['a wrong token', { authorization: 'Bearer nope' }, 401],
      ['Bearer <token>', { authorization: `Bearer ${token}` }, 200],
      ['the bare token', { authorization: token }, 200],
    ] as const)('%s → %s', async (_n, headers, status) => {
      const s = setup({ auth_token: token });
      const res = await s.post(envelope(), { 'content-type': 'application/json', ...headers });
      expect(res.status).toBe(status);
      expect(s.deliveries()).toHaveLength(status === 200 ? 1 : 0);
    });

    it('checks the secret before the token (404 first), and the token before the content type (401 before 415)', async () => {
      const s = setup({ auth_token: token });
      expect((await s.post('x', { 'content-type': 'text/plain' }, '/webhooks/wrong-secret-0123456789/')).status).toBe(404);
      expect((await s.post('x', { 'content-type': 'text/plain' })).status).toBe(401);
      expect(s.rejectionCounts()).toEqual({}); // unauthenticated callers never cause a write
    });
  });

  it('checks 415 before 413 before 400 before 422', async () => {
    const s = setup();
    const huge = 'not json'.repeat(200_000);
    expect((await s.post(huge, { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await s.post(huge)).status).toBe(413);
    expect((await s.post('[not json')).status).toBe(400);
  });

  it('answers 503 with Retry-After when the delivery cannot be stored, and keeps stored state intact', async () => {
    const s = setup();
    expect((await s.post(envelope('before'))).status).toBe(200);
    s.t.ctx.db.exec("CREATE TRIGGER full_disk BEFORE INSERT ON deliveries BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END");
    const res = await s.post(envelope('during'));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    s.t.ctx.db.exec('DROP TRIGGER full_disk');
    expect(s.deliveries().map((d) => d.appointment_key)).toEqual(['before']);
    expect((await s.post(envelope('during'))).status).toBe(200); // the sender's retry is then stored
    expect(s.deliveries().map((d) => d.appointment_key)).toEqual(['before', 'during']);
  });

  it('keeps a capped, truncated sample of rejected bodies for diagnosis', async () => {
    const s = setup();
    for (let i = 0; i < 30; i++) await s.post(JSON.stringify({ n: i, pad: 'z'.repeat(5000) }));
    const samples = s.t.ctx.rejections.recent(100); // newest first
    expect(samples.length).toBe(20);
    expect(samples.every((x) => x.sample !== null && x.sample.length <= 2048)).toBe(true);
    expect(samples[0]?.sample).toContain('"n":29');
    expect(s.rejectionCounts()).toEqual({ not_a_notification: 30 });
  });
});
