// The status page read by a receptionist or an admin: Google refusing the credentials comes first,
// in a sentence with the command that fixes it; recent activity in words, with its direction; today's
// and tomorrow's appointments as Google and each feed show them, in the business's time zone.
import { afterEach, describe, expect, it } from 'vitest';
import { startGoogleSimulator, type GoogleSimulator } from '../../src/google/simulator/index.ts';
import { createActivityPart } from '../../src/wiring/activity-part.ts';
import type { ManualClock } from '../../src/core/clock.ts';
import type { Config } from '../../src/config/schema.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { testAppointment } from '../helpers/appointment.ts';
import { CLIENT, googleSection } from '../google/google-env.ts';
import { ADMIN_TOKEN, pageConfig, statusApp } from './setup.ts';

const H = 3_600_000;
// The test clock's now: 2026-06-15 09:00 in São Paulo (12:00 UTC).
const NINE = Date.UTC(2026, 5, 15, 12, 0);

let sim: GoogleSimulator | undefined;
const contexts: TestContext[] = [];
afterEach(async () => {
  for (const t of contexts.splice(0)) await t.close();
  await sim?.close();
  sim = undefined;
});

/** The runtime `serve` builds, serving, against the Google simulator; Google calls fail at once. */
function runtime(config: Config): TestContext {
  const t = createTestContext({ config, tuning: { googleRetry: { retries: 0, baseMs: 1, maxMs: 1 } } });
  contexts.push(t);
  t.runtime.lifecycle.set('serving'); // as serve does once it listens
  return t;
}

async function page(t: TestContext): Promise<string> {
  const res = await t.runtime.app.request('/status', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(res.status).toBe(200);
  return res.text();
}

const writeGoogle = (t: TestContext) => t.runtime.scheduler.runNow('google-writer');
const problems = (body: string) => [...body.matchAll(/<li><p class="what">(.*?)<\/p>/g)].map((m) => m[1] ?? '');

describe('the status page for people', () => {
  it('with Google refusing the credentials, says so first, naming `calbridge google auth`', async () => {
    sim = await startGoogleSimulator({ clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret });
    sim.revoke();
    const t = runtime(pageConfig({ google: googleSection(sim) }));
    t.ctx.appointments.upsert(testAppointment());
    expect((await writeGoogle(t)).status).toBe('failed');

    const body = await page(t);
    const [first, ...rest] = problems(body);
    expect(first).toBe('Google refused calbridge’s credentials, so no change reaches Google Calendar.');
    expect(body).toMatch(/<p class="todo">Run <code>calbridge google auth<\/code> on the server to sign in again/);
    expect(body).toContain('<p class="detail">Google said: invalid_grant: Token has been expired or revoked.</p>');
    // The other problems of this runtime follow; the writer's own warning about the same refusal is not repeated.
    expect(rest).toContain('The booking API has not answered successfully yet.');
    expect(rest.filter((p) => p.includes('google auth') || p.includes('refused'))).toEqual([]);
    expect(body).toContain(`<h2>${rest.length + 1} problems need attention</h2>`);
  });

  it('shows recent activity newest first, each with its direction, in the business’s time zone, and the reason', async () => {
    const { app, t } = statusApp((t) => {
      t.ctx.appointments.upsert(testAppointment({ key: 'k1', searchCode: 'AG00012', start: NINE + H }));
      (t.clock as ManualClock).advance(1000);
      t.ctx.activity.record({
        kind: 'settled',
        key: 'k1',
        action: 'reschedule',
        state: 'reverted',
        reason: 'conflict',
        detail: 'the new time overlaps AG00031',
        to: NINE + 3 * H,
        taken: ['AG00031'],
      });
      return [createActivityPart(t.ctx)];
    });
    contexts.push(t);
    const body = await (await app.request('/status', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
    const activity = body.slice(body.indexOf('id="activity"'), body.indexOf('id="agenda"'));
    const entries = [
      ...activity.matchAll(
        /<li class="entry dir-([\w-]+)"><time[^>]*>([^<]*)<\/time><span class="badge">([^<]*)<\/span><span class="what"><b>([^<]*)<\/b> ([^<]*)/g,
      ),
    ].map((m) => m.slice(1));
    expect(entries).toEqual([
      ['reverted', '09:00:01', 'reverted', 'AG00012', 'moved onto AG00031&#39;s slot (Mon 15 Jun 12:00) → moved back'],
      ['booking-to-targets', '09:00:00', 'booking → Google/feeds', 'AG00012', 'booked for Mon 15 Jun 10:00'],
    ]);
    expect(activity).toContain('<span class="why">the slot is taken at the booking service; on_conflict: revert</span>');
  });

  it('lists today’s and tomorrow’s appointments as Google and each feed show them', async () => {
    sim = await startGoogleSimulator({ clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret });
    const t = runtime(
      pageConfig({
        google: googleSection(sim),
        feeds: [
          { name: 'Clinic', token: 'feed-token-clinic-0123456789' },
          { name: 'Dr. Silva', token: 'feed-token-silva-0123456789', filters: { calendar_key: 'cal-silva' } },
        ],
      }),
    );
    const person = { ...testAppointment().person, fullName: 'Ana Souza' };
    const put = (key: string, start: number, over = {}) =>
      t.ctx.appointments.upsert(testAppointment({ key, searchCode: key.toUpperCase(), start, end: start + H / 2, person, ...over }));
    put('ag1', NINE + H);
    put('ag2', NINE + 26 * H, { calendar: { calendarKey: 'cal-silva', name: 'Dr. Silva' } });
    put('ag3', NINE + 2 * H, { status: 'CANCELED' });
    put('ag4', NINE + 3 * 24 * H); // in three days: not on the page
    await writeGoogle(t);
    put('ag1', NINE + 4 * H); // moved at the booking service, not yet written

    const body = await page(t);
    const agenda = body.slice(body.indexOf('id="agenda"'), body.indexOf('id="subscribe"'));
    expect(agenda).toContain('<h3>Today, Monday 15 June</h3>');
    expect(agenda).toContain('<h3>Tomorrow, Tuesday 16 June</h3>');
    expect(agenda).toContain('<th>Google</th><th>Clinic</th><th>Dr. Silva</th>');
    const rows = [
      ...agenda.matchAll(
        /<tr(?: class="cancelled")?><td data-label="Time" class="time">([^<]*)<\/td><td data-label="Appointment"><b>([^<]*)<\/b>.*?<\/td>((?:<td[^>]*>[^<]*<\/td>)*)<\/tr>/g,
      ),
    ].map((m) => [m[1], m[2], ...[...(m[3] ?? '').matchAll(/class="shown (\w+)">([^<]*)</g)].map((c) => `${c[1]}: ${c[2]}`)]);
    expect(rows).toEqual([
      ['11:00–11:30', 'AG3', 'none: not shown', 'none: not shown', 'none: not shown'],
      ['13:00–13:30', 'AG1', 'differs: at 10:00', 'ok: ✓ shown', 'none: not shown'],
      ['11:00–11:30', 'AG2', 'ok: ✓ 11:00', 'ok: ✓ shown', 'ok: ✓ shown'],
    ]);
    expect(agenda).not.toContain('AG4');
  });
});
