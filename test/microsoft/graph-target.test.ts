// The calendar target port over Microsoft Graph, against the Graph simulator over HTTP: exactly one
// event per appointment however creates are retried, conditional writes in the port's words, and
// what a person does in Outlook read back by delta query.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KEY_PROPERTY } from '../../src/microsoft/graph-event.ts';
import { calendarRef } from '../../src/microsoft/graph-target.ts';
import { startGraphSimulator, type GraphSimulator } from '../../src/microsoft/simulator/index.ts';
import { at, body, CLIENT_ID, CLIENT_SECRET, connect, MAILBOX, type Env } from './env.ts';

const CAL = calendarRef(MAILBOX, 'Calendar');
let sim: GraphSimulator;
let env: Env;

beforeEach(async () => {
  sim = await startGraphSimulator({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    mailboxes: [MAILBOX, 'bruno@clinic.example'],
    retryAfterSeconds: 0,
  });
  env = await connect(sim);
});
afterEach(async () => {
  await sim.close();
});

const events = () => [...sim.mailbox().events.values()];
const written = (r: { kind: string; etag?: string | null }) => (r.kind === 'written' ? r.etag! : 'none');

describe('Microsoft Graph as a calendar target', () => {
  it('a create writes one event carrying the appointment key; a second create finds it (exists) instead of making another', async () => {
    const first = await env.connection.target.put(CAL, 'k1', body('k1', 13), { kind: 'absent' });
    expect(first).toMatchObject({ kind: 'written', etag: expect.stringMatching(/^W\//) });
    expect(events()).toHaveLength(1);
    expect(events()[0]!.extended).toContainEqual({ id: KEY_PROPERTY, value: 'k1' });
    expect(events()[0]!.start).toBe(at(13));
    // A writer that lost track of its write (a crash, a lost answer) and a fresh adapter: still one event.
    const other = connect(sim);
    expect(await other.connection.target.put(CAL, 'k1', body('k1', 13), { kind: 'absent' })).toEqual({ kind: 'exists' });
    expect(await other.connection.target.get(CAL, 'k1')).toEqual({
      kind: 'found',
      // What Outlook shows besides the times: the subject, and free/busy as the status.
      event: {
        id: 'k1',
        etag: written(first),
        deleted: false,
        start: at(13),
        end: at(14),
        ourHash: 'h1',
        title: 'Ana · k1',
        status: 'confirmed',
      },
    });
    expect(events()).toHaveLength(1);
  });

  it('with 30 % of answers failing after the write was applied, 40 appointments make exactly 40 events', async () => {
    sim.setFaults({ rate: 0.3, kinds: [429, 503, 500, 'network'], after: true });
    const keys = Array.from({ length: 40 }, (_, i) => `appt-${i}`);
    await Promise.all(keys.map((k, i) => env.connection.target.put(CAL, k, body(k, 10 + (i % 8)), { kind: 'absent' })));
    sim.setFaults(null);
    const byKey = new Map<string, number>();
    for (const e of events()) {
      const key = e.extended.find((p) => p.id === KEY_PROPERTY)!.value;
      byKey.set(key, (byKey.get(key) ?? 0) + 1);
    }
    expect([...byKey.keys()].sort()).toEqual([...keys].sort());
    expect([...byKey.values()].every((n) => n === 1)).toBe(true);
    expect(sim.log.some((r) => r.fault !== undefined && r.kind === 'create')).toBe(true);
  });

  it('an update on a stale etag answers changed, on the current one it writes; remove with a stale etag answers changed', async () => {
    const first = written(await env.connection.target.put(CAL, 'k1', body('k1', 13), { kind: 'absent' }));
    sim.mailbox().userEdit(events()[0]!.id, { subject: 'a person was here' });
    expect(await env.connection.target.put(CAL, 'k1', body('k1', 14), { kind: 'etag', etag: first })).toEqual({ kind: 'changed' });
    expect(sim.log.filter((r) => r.kind === 'patch').map((r) => r.ifMatch)).toEqual([first]);
    const now = await env.connection.target.get(CAL, 'k1');
    const current = now.kind === 'found' ? now.event.etag! : '';
    const second = await env.connection.target.put(CAL, 'k1', body('k1', 14), { kind: 'etag', etag: current });
    expect(second).toMatchObject({ kind: 'written' });
    expect(events()[0]!.start).toBe(at(14));
    expect(await env.connection.target.remove(CAL, 'k1', first)).toEqual({ kind: 'changed' });
    expect(await env.connection.target.remove(CAL, 'k1', written(second))).toEqual({ kind: 'removed' });
    expect(events()).toHaveLength(0);
    expect(await env.connection.target.remove(CAL, 'k1', null)).toEqual({ kind: 'missing' });
    expect(await env.connection.target.put(CAL, 'k1', body('k1', 14), { kind: 'none' })).toEqual({ kind: 'missing' });
    expect(await env.connection.target.get(CAL, 'k1')).toEqual({ kind: 'missing' });
  });

  it("changes: a delta over the window, then a person's move, a deletion and a move out of the window; our echo carries our hash", async () => {
    for (const [i, k] of ['a', 'b', 'c', 'd'].entries()) await env.connection.target.put(CAL, k, body(k, 10 + i), { kind: 'absent' });
    const first = await env.connection.target.changes(CAL, null);
    expect(first.mode).toBe('incremental');
    expect(first.events.map((e) => [e.id, e.ourHash])).toEqual([
      ['a', 'h1'],
      ['b', 'h1'],
      ['c', 'h1'],
      ['d', 'h1'],
    ]);

    const graphId = (k: string) => env.ids.get(CAL, k)!.graphId;
    sim.mailbox().userEdit(graphId('a'), { start: at(16), end: at(17) });
    sim.mailbox().userDelete(graphId('b'));
    sim.mailbox().userEdit(graphId('c'), { start: Date.UTC(2027, 0, 5, 12), end: Date.UTC(2027, 0, 5, 13) });
    const next = await env.connection.target.changes(CAL, first.cursor);
    const byId = Object.fromEntries(next.events.map((e) => [e.id, e]));
    expect(Object.keys(byId).sort()).toEqual(['a', 'b', 'c']);
    expect(byId.a).toMatchObject({ deleted: false, start: at(16), end: at(17), ourHash: null });
    expect(byId.b).toMatchObject({ deleted: true });
    // Graph lists an event that left the window as removed; a read shows it was moved, not deleted.
    expect(byId.c).toMatchObject({ deleted: false, start: Date.UTC(2027, 0, 5, 12) });

    const quiet = await env.connection.target.changes(CAL, next.cursor);
    expect(quiet.events).toEqual([]);
  });

  it('a delta cursor Graph forgot (410 syncStateNotFound) starts a new delta, and nothing is concluded from it', async () => {
    await env.connection.target.put(CAL, 'a', body('a', 10), { kind: 'absent' });
    const first = await env.connection.target.changes(CAL, null);
    sim.invalidateDeltaTokens();
    const again = await env.connection.target.changes(CAL, first.cursor);
    expect(sim.log.some((r) => r.kind === 'delta' && r.status === 410)).toBe(true);
    expect(again.mode).toBe('incremental');
    expect(again.events.map((e) => [e.id, e.deleted])).toEqual([['a', false]]);
  });

  it('pages of a long delta are followed to the deltaLink', async () => {
    const keys = Array.from({ length: 130 }, (_, i) => `p${i}`);
    for (const k of keys) await env.connection.target.put(CAL, k, body(k, 10), { kind: 'absent' });
    const all = await env.connection.target.changes(CAL, null);
    expect(all.events).toHaveLength(130);
    expect(sim.log.filter((r) => r.kind === 'delta')).toHaveLength(2);
  });

  it('a calendar named in the config that the mailbox lacks is an error naming what it has', async () => {
    await expect(env.connection.target.put(calendarRef(MAILBOX, 'Clinic'), 'k', body('k', 10), { kind: 'absent' })).rejects.toThrow(
      /no calendar "Clinic" \(it has "Calendar"\)/,
    );
    sim.mailbox().addCalendar('Clinic');
    expect(await env.connection.target.put(calendarRef(MAILBOX, 'clinic'), 'k', body('k', 10), { kind: 'absent' })).toMatchObject({
      kind: 'written',
    });
  });
});

describe('throttling, per mailbox', () => {
  it('never more than 4 requests in flight per mailbox; a 429 with Retry-After pauses that mailbox only', async () => {
    await sim.close();
    sim = await startGraphSimulator({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      mailboxes: [MAILBOX, 'bruno@clinic.example'],
      latencyMs: 15,
      retryAfterSeconds: 1,
    });
    // Waits of up to 2 s are waited out here rather than left to the next pass.
    env = connect(sim, { policy: { retries: 6, baseMs: 2, maxMs: 2000 } });
    const bruno = calendarRef('bruno@clinic.example', 'Calendar');
    await env.connection.target.put(CAL, 'warm', body('warm', 9), { kind: 'absent' });
    await env.connection.target.put(bruno, 'warm', body('warm', 9), { kind: 'absent' });
    sim.failNext(429);
    const started = Date.now();
    const ana = Promise.all(
      Array.from({ length: 20 }, (_, i) => env.connection.target.put(CAL, `a${i}`, body(`a${i}`, 10), { kind: 'absent' })),
    );
    await new Promise((r) => setTimeout(r, 50));
    const brunoStart = Date.now();
    await Promise.all(
      Array.from({ length: 4 }, (_, i) => env.connection.target.put(bruno, `b${i}`, body(`b${i}`, 10), { kind: 'absent' })),
    );
    const brunoTook = Date.now() - brunoStart;
    await ana;
    expect(sim.log.filter((r) => r.status === 429)).toHaveLength(1);
    expect(sim.log.some((r) => r.throttled === 'concurrency')).toBe(false);
    expect(sim.maxInFlight(MAILBOX)).toBeLessThanOrEqual(4);
    expect(sim.maxInFlight(MAILBOX)).toBe(4);
    // Ana's mailbox waited out the second Graph asked for; Bruno's went on meanwhile.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(brunoTook).toBeLessThan(900);
    expect(sim.mailbox().events.size).toBe(21);
  });
});
