// The calendar target port over Google, through the real googleapis client against the fake: the
// answers the mirror core decides on come back as typed results, failures stay errors.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startGoogleSimulator, type GoogleSimulator } from '../../src/google/simulator/index.ts';
import { createCalendarAdapter } from '../../src/google/calendar-adapter.ts';
import { createGoogleTarget } from '../../src/google/google-target.ts';
import { oauthClient } from '../../src/google/auth.ts';
import { Pacer } from '../../src/net/pacer.ts';
import { systemClock } from '../../src/core/clock.ts';
import { PROP_HASH, type EventBody } from '../../src/core/mirror/desired-event.ts';
import { TargetError, type CalendarTarget } from '../../src/core/mirror/target.ts';
import { testGoogleConfig } from './google-env.ts';

let fake: GoogleSimulator;
let target: CalendarTarget<EventBody>;

const body = (hour: number, hash = 'h1'): EventBody => ({
  summary: 'Ana',
  description: '',
  status: 'confirmed',
  start: { dateTime: `2026-06-15T${hour}:00:00-03:00`, timeZone: 'America/Sao_Paulo' },
  end: { dateTime: `2026-06-15T${hour + 1}:00:00-03:00`, timeZone: 'America/Sao_Paulo' },
  privateProperties: { appointment_key: 'k1', [PROP_HASH]: hash },
});
const ID = 'abcdef0123';
const etagOf = (r: { kind: string; etag?: string | null }) => (r.kind === 'written' ? r.etag! : '');

beforeEach(async () => {
  fake = await startGoogleSimulator({ clientId: 'client-1', clientSecret: 'client-secret-1' });
  const auth = oauthClient(testGoogleConfig(fake));
  auth.setCredentials({ refresh_token: 'refresh-1' });
  const api = createCalendarAdapter({
    auth,
    apiRoot: fake.rootUrl,
    pacer: new Pacer(100_000, systemClock),
    clock: systemClock,
    policy: { retries: 0, baseMs: 1, maxMs: 1 },
  });
  target = createGoogleTarget(api);
});
afterEach(async () => {
  await fake.close();
});

describe('Google as a calendar target', () => {
  it('a create of an existing id answers exists; the event reads back in our words, with our hash', async () => {
    const first = await target.put('primary', ID, body(10), { kind: 'absent' });
    expect(first).toMatchObject({ kind: 'written', etag: expect.any(String) });
    expect(await target.put('primary', ID, body(10), { kind: 'absent' })).toEqual({ kind: 'exists' });
    expect(await target.get('primary', ID)).toEqual({
      kind: 'found',
      event: {
        id: ID,
        etag: etagOf(first),
        deleted: false,
        start: Date.parse('2026-06-15T13:00:00Z'),
        end: Date.parse('2026-06-15T14:00:00Z'),
        ourHash: 'h1',
        title: 'Ana',
        description: '',
        status: 'confirmed',
      },
    });
  });

  it('an event a person made repeat has no single time to reschedule to (put back, as on CalDAV); what it shows is read', async () => {
    await target.put('primary', ID, body(10), { kind: 'absent' });
    fake.state.userEdit('primary', ID, { recurrence: ['RRULE:FREQ=WEEKLY'], summary: 'Ana (weekly)' });
    expect(await target.get('primary', ID)).toMatchObject({
      kind: 'found',
      event: { start: null, end: null, title: 'Ana (weekly)', status: 'confirmed' },
    });
  });

  it('an update on a stale etag answers changed; on the current etag it writes', async () => {
    const first = etagOf(await target.put('primary', ID, body(10), { kind: 'absent' }));
    fake.state.userEdit('primary', ID, { summary: 'a person was here' });
    expect(await target.put('primary', ID, body(11), { kind: 'etag', etag: first })).toEqual({ kind: 'changed' });
    const now = await target.get('primary', ID);
    const current = now.kind === 'found' ? now.event.etag! : '';
    expect(await target.put('primary', ID, body(11), { kind: 'etag', etag: current })).toMatchObject({ kind: 'written' });
  });

  it('a deleted event reads as a tombstone; an update of an unknown id answers missing; a refused revival answers refused', async () => {
    await target.put('primary', ID, body(10), { kind: 'absent' });
    expect(await target.remove('primary', ID, null)).toEqual({ kind: 'removed' });
    expect(await target.remove('primary', ID, null)).toEqual({ kind: 'missing' });
    expect(await target.get('primary', ID)).toMatchObject({ kind: 'found', event: { deleted: true } });
    expect(await target.put('primary', 'nosuchevent', body(10), { kind: 'none' })).toEqual({ kind: 'missing' });
    expect(await target.get('primary', 'nosuchevent')).toEqual({ kind: 'missing' });
    fake.state.refuseRevival = true;
    expect(await target.put('primary', ID, body(10), { kind: 'none' })).toMatchObject({
      kind: 'refused',
      message: expect.stringMatching(/403/),
    });
  });

  it('changes: a full listing first, then only what changed since the cursor, deletions included', async () => {
    await target.put('primary', ID, body(10), { kind: 'absent' });
    const full = await target.changes('primary', null);
    expect(full.mode).toBe('full');
    expect(full.events.map((e) => e.id)).toEqual([ID]);
    fake.state.userDelete('primary', ID);
    const next = await target.changes('primary', full.cursor);
    expect(next.mode).toBe('incremental');
    expect(next.events).toMatchObject([{ id: ID, deleted: true }]);
  });

  it('a failure that is not an answer to decide on stays an error of the port', async () => {
    fake.failNext(500, 1);
    await expect(target.get('primary', ID)).rejects.toBeInstanceOf(TargetError);
    await expect(target.put('primary', 'xyz-bad', body(10), { kind: 'absent' })).rejects.toMatchObject({ kind: 'invalid' });
  });

  it('a 404 on a create is about the calendar (a wrong id, not shared), never a missing event: an error saying so', async () => {
    await fake.close();
    fake = await startGoogleSimulator({ clientId: 'client-1', clientSecret: 'client-secret-1', calendars: { primary: 'owner' } });
    const auth = oauthClient(testGoogleConfig(fake));
    auth.setCredentials({ refresh_token: 'refresh-1' });
    target = createGoogleTarget(
      createCalendarAdapter({
        auth,
        apiRoot: fake.rootUrl,
        pacer: new Pacer(100_000, systemClock),
        clock: systemClock,
        policy: { retries: 0, baseMs: 1, maxMs: 1 },
      }),
    );
    await expect(target.put('not-shared@group.calendar.google.com', ID, body(10), { kind: 'absent' })).rejects.toMatchObject({
      kind: 'not_found',
      message: expect.stringMatching(/was not found/),
    });
  });
});
