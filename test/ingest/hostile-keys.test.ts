// Keys from the poll listing are checked like webhook keys (core/reader.ts keyProblem): a record with
// an unusable key is skipped and reported, never stored, so it can neither collapse an API path nor
// put lines into a feed. The simulator over HTTP lists the hostile records.
import { afterEach, describe, expect, it } from 'vitest';
import { ingestHarness, type Harness } from './harness.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const DAY = 86_400_000;
const FEED_TOKEN = 'feed-token-0123456789-abcdef';

type PollStatus = { poll: { last: { failed: number; skipped?: string[] } } };

describe('keys from the listing', () => {
  it("a listed key '..' cannot turn a cancel into DELETE /api/v3/appointments/", async () => {
    h = await ingestHarness();
    const good = h.sim.create({ start: Date.now() + DAY });
    h.sim.create({ appointment_key: '.', start: Date.now() + 2 * DAY });
    h.sim.create({ appointment_key: '..', start: Date.now() + 3 * DAY });
    const result = await h.poll.run();
    expect(result.summary).toMatch(/1 new, .*, 2 failed/);
    expect(h.t.ctx.appointments.listAll({ includeGone: true }).map((s) => s.appointment.key)).toEqual([good.appointment_key]);
    const last = (h.part.status!().ingest as PollStatus).poll.last;
    expect(last.skipped).toEqual([
      'the record has an unusable appointment_key ".": it is a dot path segment',
      'the record has an unusable appointment_key "..": it is a dot path segment',
    ]);

    // What an on_delete: cancel does for every stored appointment; and the client refuses the dots anyway.
    for (const s of h.t.ctx.appointments.listAll()) await h.t.ctx.booking.cancel(s.appointment.key, { sendEmail: false });
    for (const key of ['.', '..'])
      await expect(h.t.ctx.booking.cancel(key, { sendEmail: false })).rejects.toMatchObject({ kind: 'invalid' });
    const deletes = h.sim.requests.filter((r) => r.method === 'DELETE').map((r) => r.path);
    expect(deletes).toEqual([`/api/v3/appointments/${good.appointment_key}/`]);
    expect(
      h.sim
        .all()
        .filter((a) => a.status === 'CONFIRMED')
        .map((a) => a.appointment_key)
        .sort(),
    ).toEqual(['.', '..']);
  });

  it('CR/LF in a key cannot inject lines into a feed', async () => {
    h = await ingestHarness({
      config: { server: { public_url: 'https://cal.example.com/' }, feeds: [{ name: 'Clinic', token: FEED_TOKEN }] },
    });
    const good = h.sim.create({ start: Date.now() + DAY });
    h.sim.create({ appointment_key: 'k1\r\nX-INJECTED:evil\r\nBEGIN:VALARM', start: Date.now() + 2 * DAY });
    h.sim.create({ appointment_key: 'k2\nATTENDEE:mailto:x@evil.example', start: Date.now() + 3 * DAY });
    const result = await h.poll.run();
    expect(result.summary).toMatch(/1 new, .*, 2 failed/);

    // The harness's runtime serves the configured feed.
    const res = await h.app.request(`/feeds/${FEED_TOKEN}.ics`);
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).toContain(`UID:${good.appointment_key}@calbridge`);
    expect(body.split('\r\n').filter((line) => /^(X-INJECTED|BEGIN:VALARM|ATTENDEE)/.test(line))).toEqual([]);
    expect(body.match(/^BEGIN:VEVENT$/gm)).toHaveLength(1);
  });

  it('a webhook with such a key keeps its 422, and nothing is stored for it', async () => {
    h = await ingestHarness();
    for (const key of ['..', 'k1\r\nX-INJECTED:evil']) {
      const res = await h.post({ event: 'appointment.created', data: { appointment_key: key } });
      expect(res.status).toBe(422);
    }
    expect(h.t.ctx.deliveries.counts()).toMatchObject({ pending: 0, failed: 0, done: 0 });
  });
});
