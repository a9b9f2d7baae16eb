// A first import and the passes after it, at a size where batching shows: every listed appointment
// stored by the one pass that listed it; a pass over unchanged appointments changes no row and
// renders nothing again; a pass that fails inside a batch leaves whole batches only, and the next
// pass completes the import.
import { afterEach, describe, expect, it } from 'vitest';
import { countRequests } from '../helpers/simulator.ts';
import { envelopeFor, ingestHarness, type Harness } from './harness.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const DAY = 86_400_000;
const LIST = '/api/v3/appointments/';
const FEED_TOKEN = 'import-feed-token-0123456789abcdef';
const COUNT = 1_234; // more than two batches of the poll's 500

async function importing(count = COUNT): Promise<{ harness: Harness; keys: string[] }> {
  const harness = await ingestHarness({
    sim: { pageSize: 100 },
    config: { poll: { past_days: 7, future_days: 30 }, feeds: [{ name: 'All', token: FEED_TOKEN }] },
  });
  const now = Date.now();
  const keys = Array.from({ length: count }, (_, i) => harness.sim.create({ start: now + (i % 30) * DAY + i * 60_000 }).appointment_key);
  return { harness, keys };
}

const rows = (x: Harness) => x.t.ctx.appointments.listAll({ includeGone: true });

const rendered = async (x: Harness) =>
  (await x.t.ctx.metrics.registry.getSingleMetric('calbridge_feed_events_rendered_total')?.get())?.values[0]?.value ?? 0;

describe('first import by the poll', () => {
  it('stores every appointment of a listing in the pass that listed it, from one listing', async () => {
    const { harness, keys } = await importing();
    h = harness;
    const result = await h.poll.run();
    expect(result.summary).toMatch(new RegExp(`^listed ${COUNT} \\(.*\\): ${COUNT} new, 0 changed, 0 gone, 0 unchanged$`));
    expect(h.t.ctx.appointments.counts().total).toBe(COUNT);
    expect(
      h.t.ctx.appointments
        .listAll()
        .map((s) => s.appointment.key)
        .sort(),
    ).toEqual([...keys].sort());
    expect(countRequests(h.sim, 'GET', LIST)).toBe(Math.ceil(COUNT / 100));
  });

  it('a pass over unchanged appointments changes no row and renders no feed event again; a changed one among them is stored', async () => {
    const { harness, keys } = await importing();
    h = harness;
    await h.poll.run();
    const feed = await h.app.request(`/feeds/${FEED_TOKEN}.ics`);
    expect(feed.status).toBe(200);
    const etag = feed.headers.get('etag');
    const renderedBefore = await rendered(h);
    expect(renderedBefore).toBe(COUNT);
    const before = rows(h);

    await new Promise((r) => setTimeout(r, 5)); // a later clock reading than the import's
    const again = await h.poll.run();
    expect(again.summary).toMatch(new RegExp(`: 0 new, 0 changed, 0 gone, ${COUNT} unchanged$`));
    // Not even when each was last seen: an unchanged pass writes nothing to them.
    expect(rows(h)).toEqual(before);
    const same = await h.app.request(`/feeds/${FEED_TOKEN}.ics`, { headers: { 'if-none-match': etag! } });
    expect(same.status).toBe(304);
    expect(await rendered(h)).toBe(renderedBefore);

    // One record changes in a field no feed shows and one is rescheduled, no webhook sent: both stored.
    const [quiet, moved] = [keys[10]!, keys[700]!];
    h.sim.update(quiet, { person: { nickname: 'Ceição' } as never });
    const newStart = h.sim.record(moved)!.start_date as string;
    h.sim.reschedule(moved, Date.parse(newStart) + 2 * 3_600_000);
    const third = await h.poll.run();
    expect(third.summary).toMatch(new RegExp(`: 0 new, 1 changed, 0 gone, ${COUNT - 1} unchanged`));
    const after = new Map(rows(h).map((r) => [r.appointment.key, r]));
    expect((after.get(quiet)!.appointment.raw as { person: { nickname: string } }).person.nickname).toBe('Ceição');
    expect(after.get(quiet)!.revision).toBe(1);
    expect(after.get(moved)!.revision).toBe(2);
    expect(before.filter((r) => r.appointment.key !== quiet && r.appointment.key !== moved)).toEqual(
      [...after.values()].filter((r) => r.appointment.key !== quiet && r.appointment.key !== moved),
    );
    expect(await rendered(h)).toBe(renderedBefore); // nothing rendered until a feed is asked for
    await h.app.request(`/feeds/${FEED_TOKEN}.ics`);
    expect(await rendered(h)).toBe(renderedBefore + 1); // the moved one only
  });

  it('a pass that fails inside a batch keeps whole batches only, and the next pass completes the import', async () => {
    const { harness, keys } = await importing();
    h = harness;
    // The 700th appointment of the listing (in its second batch) cannot be stored: as if the process died there.
    const listed = h.sim.all().map((a) => a.appointment_key);
    const doomed = listed[699]!;
    h.t.ctx.db.exec(
      `CREATE TEMP TRIGGER fail_one BEFORE INSERT ON main.appointments WHEN new.appointment_key = '${doomed}' BEGIN SELECT RAISE(ABORT, 'disk gone'); END`,
    );
    await expect(h.poll.run()).rejects.toThrow(/disk gone/);
    // Whole batches before the failing one: the listing's first ones, in order, none after a gap;
    // nothing of the failing one's batch (batches are 500 records at most, fewer when slow).
    const stored = h.t.ctx.appointments.listAll().map((s) => s.appointment.key);
    expect(stored.length).toBeGreaterThanOrEqual(700 - 500);
    expect(stored.length).toBeLessThan(700);
    expect(stored.sort()).toEqual(listed.slice(0, stored.length).sort());

    h.t.ctx.db.exec('DROP TRIGGER temp.fail_one');
    const result = await h.poll.run();
    expect(result.status).toBe('success');
    expect(result.summary).toMatch(new RegExp(`: ${COUNT - stored.length} new, 0 changed, 0 gone, ${stored.length} unchanged$`));
    expect(
      h.t.ctx.appointments
        .listAll()
        .map((s) => s.appointment.key)
        .sort(),
    ).toEqual([...keys].sort());
    // The activity tells each part of the import as it was stored, the cut one included.
    const count = (n: number) => new RegExp(`^imported ${n.toLocaleString('en')} new appointments from the booking service`);
    expect(activity(h).map((e) => [e.kind, e.summary])).toEqual([
      ['imported', expect.stringMatching(count(COUNT - stored.length))],
      ['imported', expect.stringMatching(count(stored.length))],
    ]);
  });
});

type Entry = { appointment: string | null; kind: string; direction: string; summary: string };
/** The status document's recent activity (/api/status, the status page's list), newest first. */
const activity = (x: Harness) => (x.t.runtime.status().activity as { recent: Entry[] }).recent;
const activityRows = (x: Harness) => x.t.ctx.activity.recent(1_000).length; // the store keeps the latest 1,000

describe('the activity of a first import', () => {
  it('tells a first import in one entry, not one a booking; a later new booking, polled or announced, in its own', async () => {
    const { harness } = await importing();
    h = harness;
    await h.poll.run();
    expect(activity(h)).toEqual([
      expect.objectContaining({
        appointment: null,
        kind: 'imported',
        direction: 'booking-to-targets',
        summary: expect.stringMatching(
          /^imported 1,234 new appointments from the booking service in one poll, between \w{3} \d+ \w{3} \d{4} and /,
        ),
      }),
    ]);
    expect(activityRows(h)).toBe(1);

    // A booking made later, found by the next poll: told on its own, as before.
    const later = h.sim.create({ start: Date.now() + 2 * DAY });
    await h.poll.run();
    expect(activity(h)[0]).toMatchObject({
      appointment: later.search_code,
      kind: 'booked',
      summary: expect.stringMatching(/^booked for /),
    });
    // One announced by a webhook: the same.
    const announced = h.sim.create({ start: Date.now() + 3 * DAY });
    expect((await h.post(envelopeFor(h.sim, announced.appointment_key, 'appointment.created'))).status).toBe(200);
    await h.deliveries.run();
    expect(
      activity(h)
        .slice(0, 3)
        .map((e) => [e.appointment, e.kind]),
    ).toEqual([
      [announced.search_code, 'booked'],
      [later.search_code, 'booked'],
      [null, 'imported'],
    ]);
    expect(activityRows(h)).toBe(3);
  });

  it('tells each of 50 new appointments found by one pass on its own, as ever', async () => {
    const { harness, keys } = await importing(50);
    h = harness;
    await h.poll.run();
    const entries = activity(h);
    expect(entries).toHaveLength(50);
    expect(entries.every((e) => e.kind === 'booked' && e.summary.startsWith('booked for '))).toBe(true);
    expect(new Set(entries.map((e) => e.appointment))).toEqual(new Set(keys.map((k) => h!.sim.record(k)!.search_code)));
  });
});
