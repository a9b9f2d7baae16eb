// The Google mirror end to end through the real googleapis client against the fake.
import { afterEach, describe, expect, it } from 'vitest';
import { appointment, createGoogleEnv, type GoogleEnv } from './google-env.ts';
import { eventIdFor } from '../../src/core/event-id.ts';

let env: GoogleEnv;
afterEach(async () => {
  await env?.closeAll();
});

const writes = (e: GoogleEnv) => {
  const c = e.fake.counts();
  return c.insert + c.update + c.patch + c.delete;
};

describe('Google writer', () => {
  it('creates one event per appointment with the derived id, templates, zone and our key', async () => {
    env = await createGoogleEnv({ google: { title: '{person.full_name} ({services})', description: 'Code {search_code}' } });
    const a = appointment(1, { services: [{ serviceKey: 's1', name: 'Cleaning' }] });
    env.put(a);
    await env.runWriter();
    const [ev, ...rest] = env.fake.events('primary');
    expect(rest).toHaveLength(0);
    expect(ev).toMatchObject({
      id: eventIdFor(a.key),
      summary: 'Person 1 (Cleaning)',
      description: 'Code SC1',
      status: 'confirmed',
      start: { dateTime: '2026-06-20T11:00:00-03:00', timeZone: 'America/Sao_Paulo' },
      end: { dateTime: '2026-06-20T11:30:00-03:00', timeZone: 'America/Sao_Paulo' },
    });
    expect(ev?.extendedProperties?.private).toMatchObject({ appointment_key: a.key, calbridge_revision: '1' });
  });

  it('writes once per material change and never for a repeat or an invisible change', async () => {
    env = await createGoogleEnv();
    const a = appointment(1);
    env.put(a);
    await env.runWriter();
    expect(writes(env)).toBe(1);
    env.put(a); // repeated delivery
    env.put({ ...a, person: { ...a.person, phone: '+55 11 9999' } }); // not shown in Google
    await env.runWriter();
    await env.runWriter();
    expect(writes(env)).toBe(1);
    env.put({ ...a, start: a.start + 3_600_000, end: a.end + 3_600_000 });
    await env.runWriter();
    expect(writes(env)).toBe(2);
    expect(env.fake.counts().get).toBe(0); // update with If-Match from the stored etag: no read first
    expect(env.fake.log.filter((r) => r.kind === 'update').every((r) => r.ifMatch)).toBe(true);
    expect(env.fake.events('primary')[0]?.start?.dateTime).toBe('2026-06-20T12:00:00-03:00');
  });

  it('deletes the event when the appointment is cancelled, gone, or leaves google.statuses', async () => {
    env = await createGoogleEnv({ google: { statuses: ['CONFIRMED', 'PENDING'] } });
    const [a, b, c] = [appointment(1), appointment(2), appointment(3)];
    for (const x of [a, b, c]) env.put(x);
    await env.runWriter();
    expect(env.fake.events('primary')).toHaveLength(3);
    env.put({ ...a, status: 'CANCELED' });
    env.ctx.appointments.markGone(b.key, 'not found');
    env.put({ ...c, status: 'ATTENDED' });
    await env.runWriter();
    expect(env.fake.events('primary')).toHaveLength(0);
    expect(env.fake.events('primary', { includeDeleted: true })).toHaveLength(3);
    const status = env.section();
    expect(status).toMatchObject({ mirrored: 0, pending: 0, failed: 0 });
  });

  it('a revived appointment brings its event back under the same id (tombstone revived)', async () => {
    env = await createGoogleEnv();
    const a = appointment(1);
    env.put(a);
    await env.runWriter();
    env.put({ ...a, status: 'CANCELED' });
    await env.runWriter();
    env.put(a);
    await env.runWriter();
    const all = env.fake.events('primary', { includeDeleted: true });
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ id: eventIdFor(a.key), status: 'confirmed' });
  });

  it('uses a next id generation when Google refuses to revive, and remembers it', async () => {
    env = await createGoogleEnv({ fake: { refuseRevival: true } });
    const a = appointment(1);
    env.put(a);
    await env.runWriter();
    env.put({ ...a, status: 'CANCELED' });
    await env.runWriter();
    env.put(a);
    await env.runWriter();
    const live = env.fake.events('primary');
    expect(live.map((e) => e.id)).toEqual([eventIdFor(a.key, 1)]);
    env.put({ ...a, searchCode: 'NEW' });
    await env.runWriter();
    expect(env.fake.events('primary').map((e) => [e.id, e.summary])).toEqual([[eventIdFor(a.key, 1), 'Person 1 · NEW']]);
  });

  it('moves the event when the mapped calendar changes', async () => {
    env = await createGoogleEnv({
      google: {
        calendars: [
          { calendar_key: 'cal-b', calendar_id: 'b@group' },
          { calendar_key: '*', calendar_id: 'primary' },
        ],
      },
    });
    const a = appointment(1);
    env.put(a);
    await env.runWriter();
    env.put({ ...a, calendar: { calendarKey: 'cal-b', name: 'B' } });
    await env.runWriter();
    expect(env.fake.events('primary')).toHaveLength(0);
    expect(env.fake.events('b@group').map((e) => e.id)).toEqual([eventIdFor(a.key)]);
  });

  it('adopts an event our lost insert created (409) without writing it again', async () => {
    env = await createGoogleEnv();
    const a = appointment(1);
    env.fake.setFaults({ rate: 1, kinds: [500], after: true });
    env.put(a);
    await env.runWriter(); // insert applied, answer lost, every retry meets 409... then 500s
    env.fake.setFaults(null);
    await env.runWriter();
    expect(env.fake.events('primary')).toHaveLength(1);
    expect(env.fake.counts().update).toBe(0);
    expect(env.section()).toMatchObject({ mirrored: 1, failed: 0 });
  });

  it('re-applies after 412 when someone edited the event in Google', async () => {
    env = await createGoogleEnv();
    const a = appointment(1);
    env.put(a);
    await env.runWriter();
    env.fake.state.userEdit('primary', eventIdFor(a.key), { summary: 'edited by a person' });
    env.put({ ...a, searchCode: 'X2' });
    await env.runWriter();
    expect(env.fake.events('primary')[0]?.summary).toBe('Person 1 · X2');
  });

  it('refreshes an expired access token on its own', async () => {
    env = await createGoogleEnv();
    env.put(appointment(1));
    await env.runWriter();
    env.fake.expireAccessTokens();
    env.put(appointment(2));
    await env.runWriter();
    expect(env.fake.events('primary')).toHaveLength(2);
    expect(env.fake.tokens.refreshed).toBe(2);
  });

  it('invalid_grant is a readiness warning with how to fix it (never a 503), and nothing is lost', async () => {
    env = await createGoogleEnv();
    env.fake.revoke();
    env.put(appointment(1));
    const result = await env.runWriter();
    expect(result.status).toBe('failed');
    const r = env.part.readiness!();
    expect(r.reasons).toEqual([]);
    const warning = r.warnings.map((w) => w.text).join(' ');
    expect(warning).toMatch(/invalid_grant/);
    expect(warning).toMatch(/calbridge google auth/);
    expect(warning).toMatch(/7 days/);
    expect(env.section()).toMatchObject({ auth: { ok: false } });
    expect(env.fake.events('primary')).toHaveLength(0);
  });

  it('keeps failures per item with error and next attempt; one bad appointment does not block the others', async () => {
    env = await createGoogleEnv();
    env.put(appointment(1));
    env.put(appointment(2, { end: appointment(2).start - 60_000 })); // Google refuses an empty range
    env.put(appointment(3));
    const result = await env.runWriter();
    expect(result.failed).toBe(1);
    expect(env.fake.events('primary')).toHaveLength(2);
    const status = env.section();
    expect(status.failed).toBe(1);
    expect(status.failures[0]).toMatchObject({ appointment_key: appointment(2).key });
    expect(status.failures[0]?.last_error).toMatch(/400/);
  });

  it('the breaker holds a pass that would delete more than its share of the mirrored events', async () => {
    env = await createGoogleEnv({ google: { breaker_share: 0.3 } });
    for (let i = 1; i <= 20; i++) env.put(appointment(i));
    await env.runWriter();
    for (let i = 1; i <= 12; i++) env.put({ ...appointment(i), status: 'CANCELED' });
    await env.runWriter();
    expect(env.fake.events('primary')).toHaveLength(20);
    expect(
      env.part.readiness!()
        .warnings.map((w) => w.text)
        .join(' '),
    ).toMatch(/breaker/);
  });

  it('with 30% of calls failing (429, 403 rate limit, 500), 200 appointments are mirrored exactly once at the right times', async () => {
    env = await createGoogleEnv({ fake: { seed: 7 } });
    env.fake.setFaults({ rate: 0.3, kinds: [429, '403rate', 500], after: false });
    const all = Array.from({ length: 200 }, (_, i) => appointment(i + 1));
    for (const a of all) env.put(a);
    for (let i = 0; i < 10 && env.section().mirrored < 200; i++) await env.runWriter();
    const events = env.fake.events('primary');
    expect(events).toHaveLength(200);
    const byKey = new Map(events.map((e) => [e.extendedProperties?.private?.appointment_key, e]));
    for (const a of all) {
      const e = byKey.get(a.key);
      expect(e?.id).toBe(eventIdFor(a.key));
      expect(Date.parse(e?.start?.dateTime ?? '')).toBe(a.start);
      expect(Date.parse(e?.end?.dateTime ?? '')).toBe(a.end);
    }
    expect(env.fake.log.some((r) => r.fault)).toBe(true);
  });
});
