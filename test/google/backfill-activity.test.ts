// What a Google backfill leaves in the recent activity (/api/status, the status page's list): more
// than 50 new events written until the writer caught up are one entry with their count, not one
// "added to Google" line each; fewer, later single ones, and changes keep their own entries.
import { afterEach, describe, expect, it } from 'vitest';
import { appointment, createGoogleEnv, type GoogleEnv } from './google-env.ts';

let env: GoogleEnv | undefined;
afterEach(async () => {
  await env?.closeAll();
  env = undefined;
});

/** `appointment`: its search code. */
type Entry = { appointment: string | null; kind: string; direction: string; summary: string };
/** The status document's recent activity (what /api/status gives), newest first. */
const recent = (e: GoogleEnv) => (e.runtime.status().activity as { recent: Entry[] }).recent;
/** Every stored entry of a kind (the store keeps the latest 1,000), not only the 50 shown; oldest first. */
const stored = (e: GoogleEnv, kind: string) =>
  e.ctx.activity
    .recent(1_000)
    .filter((r) => r.kind === kind)
    .reverse()
    .map((r) => r.summary);

/** Writer passes until it has caught up (a pass that leaves nothing for at once). */
async function writeAll(e: GoogleEnv): Promise<void> {
  for (let i = 0; i < 20; i++) if (!(await e.runWriter()).more) return;
  throw new Error('the writer did not catch up');
}

const mirrored = (e: GoogleEnv) => e.section().mirrored;

describe('the activity of a Google backfill', () => {
  it('120 new events are one entry with their count; a later new appointment and a change get their own', async () => {
    env = await createGoogleEnv();
    for (let i = 1; i <= 120; i++) env.put(appointment(i));
    await writeAll(env);
    expect(env.fake.events('primary')).toHaveLength(120);

    const shown = recent(env);
    expect(shown[0]).toMatchObject({
      appointment: null,
      kind: 'backfill',
      direction: 'booking-to-targets',
      summary: 'added 120 appointments to Google Calendar (primary)',
    });
    expect(shown.filter((x) => x.kind === 'backfill')).toHaveLength(1);
    // None of the events has a line of its own, not even the first 50 written before it was a backfill.
    expect(stored(env, 'google-write')).toEqual([]);

    env.put(appointment(121));
    await writeAll(env);
    env.put({ ...appointment(5), start: appointment(5).start + 1_800_000, end: appointment(5).end + 1_800_000 });
    await writeAll(env);
    const after = recent(env);
    expect(after.slice(0, 4).map((x) => [x.appointment, x.kind, x.summary])).toEqual([
      ['SC5', 'google-write', expect.stringMatching(/^updated in Google, /)],
      ['SC5', 'moved', expect.stringMatching(/^moved at the booking service to /)],
      ['SC121', 'google-write', expect.stringMatching(/^added to Google, /)],
      ['SC121', 'booked', expect.stringMatching(/^booked for /)],
    ]);
    expect(stored(env, 'backfill')).toEqual(['added 120 appointments to Google Calendar (primary)']);
  });

  it('50 new events keep one entry each, as ever; 51 are one entry', async () => {
    env = await createGoogleEnv();
    for (let i = 1; i <= 50; i++) env.put(appointment(i));
    await writeAll(env);
    expect(stored(env, 'google-write')).toHaveLength(50);
    expect(stored(env, 'google-write').every((s) => s.startsWith('added to Google, '))).toBe(true);
    expect(stored(env, 'backfill')).toEqual([]);

    for (let i = 51; i <= 101; i++) env.put(appointment(i));
    await writeAll(env);
    expect(stored(env, 'google-write')).toHaveLength(50); // the earlier ones stay
    expect(stored(env, 'backfill')).toEqual(['added 51 appointments to Google Calendar (primary)']);
  });

  it("a backfill cut short by Google's quota says how many it added", async () => {
    env = await createGoogleEnv();
    for (let i = 1; i <= 150; i++) env.put(appointment(i));
    env.fake.setQuota(90);
    await writeAll(env);
    const added = mirrored(env);
    expect(added).toBeGreaterThan(50);
    expect(added).toBeLessThan(150);
    expect(stored(env, 'backfill')).toEqual([`added ${added} appointments to Google Calendar (primary)`]);
    expect(stored(env, 'google-write')).toEqual([]);
  });
});
