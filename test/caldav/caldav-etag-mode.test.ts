// A CalDAV server without sync-collection (RFC 6578), played by a proxy in front of Radicale, through
// the runtime `serve` builds (writer, reverse sync and reschedules jobs as wired): changes are read by
// comparing ETag listings, and a person's move, a deletion and a quiet round come out exactly as with
// sync-collection. Two such servers: one that hides sync-collection in discovery, and one that
// advertises it yet refuses the REPORT, which calbridge asks once and then stops asking.
import { afterEach, describe, expect, it } from 'vitest';
import { reverseSyncOn } from '../helpers/reverse-sync-section.ts';
import type { NoSyncServer } from './failing-proxy.ts';
import { slot, startMirrorEnv, type MirrorEnv } from './mirror-env.ts';

let env: MirrorEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const writes = async (e: MirrorEnv) => (await e.calls('PUT')) + (await e.calls('DELETE'));
const requestsTo = (e: MirrorEnv, method: string) => e.proxy!.log.filter((r) => r.method === method).length;

const servers: [string, NoSyncServer][] = [
  ['hides sync-collection and answers its REPORT with 403 supported-report', { discovery: 'hidden', refusal: 403 }],
  ['advertises sync-collection but answers its REPORT with 501', { discovery: 'advertised', refusal: 501 }],
  ['advertises sync-collection but answers its REPORT with 403 supported-report', { discovery: 'advertised', refusal: 403 }],
];

describe.each(servers)('a CalDAV server that %s', (_, noSync) => {
  it('turns a person’s move into one reschedule, recreates a deleted event, and writes nothing on a repeat round', async () => {
    env = await startMirrorEnv({ proxy: { share: 0, seed: 1, noSync } });
    const moved = env.sim.create({ start: slot(0) }).appointment_key;
    const deleted = env.sim.create({ start: slot(2) }).appointment_key;
    await env.settle(1);
    expect(env.files()).toEqual([`${deleted}.ics`, `${moved}.ics`].sort());
    expect(reverseSyncOn(env.status()).last_error).toBeNull();

    expect(await env.moveInApp(moved, slot(4))).toBeOneOf([200, 201, 204]);
    await env.settle(1);
    expect(env.reschedulePatches(moved)).toBe(1);
    expect(env.sim.get(moved)?.start).toBe(slot(4));
    expect(env.objects().get(`${moved}.ics`)?.start).toBe(slot(4));

    expect(await env.deleteInApp(deleted)).toBeOneOf([200, 204]);
    await env.settle(2);
    expect(env.files()).toContain(`${deleted}.ics`);
    expect(env.objects().get(`${deleted}.ics`)?.start).toBe(slot(2));
    expect(env.sim.get(deleted)?.status).toBe('CONFIRMED');
    expect(env.status().reverse_sync).toMatchObject({ moves_detected: 1, deletions: { recreated: 1, cancelled: 0 }, last_error: null });

    // Quiet rounds: no write, no reschedule, and no REPORT at all (the CTag says nothing changed).
    const [writesBefore, reportsBefore] = [await writes(env), requestsTo(env, 'REPORT')];
    await env.settle(3);
    expect((await writes(env)) - writesBefore).toBe(0);
    expect(requestsTo(env, 'REPORT') - reportsBefore).toBe(0);
    expect(env.reschedulePatches()).toBe(1);
    expect(env.sim.get(moved)?.start).toBe(slot(4));

    // A server that hides it is never asked; one that advertises it is asked once, then remembered.
    expect(env.proxy!.stats.refusedSyncReports).toBe(noSync.discovery === 'hidden' ? 0 : 1);
  });
});
