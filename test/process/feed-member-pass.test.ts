// A real `serve` started over many stored appointments its feeds do not hold yet (a first start
// after an upgrade, a database a one-shot `sync` filled) brings what they hold up to date in slices:
// /api/status answers at once with the counts so far, /healthz is answered while the pass runs, and
// the counts are exact once it ends.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/store/db.ts';
import { AppointmentStore } from '../../src/store/appointment-store.ts';
import { systemClock } from '../../src/core/clock.ts';
import { appointment } from '../feeds/appointments.ts';
import { calbridgeProcesses } from '../helpers/calbridge-process.ts';

// A pass of many slices on any machine: each row becomes a stored member.
const EVENTS = 20_000;
const calbridge = calbridgeProcesses();
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup(): string {
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-member-pass-'));
  dirs.push(dir);
  const config = join(dir, 'config.yaml');
  writeFileSync(
    config,
    [
      'server: {host: 127.0.0.1, port: 0, public_url: "https://cal.example.com", status_auth: loopback}',
      'database: {path: calbridge.db}',
      'booking: {base_url: "http://127.0.0.1:9", token: booking-token-0123456789abcdef}',
      'webhook: {secret: member-pass-webhook-secret-0123, register: false}',
      'poll: {schedule: "0 0 1 1 *"}',
      'feeds: [{name: Clinic, token: member-pass-feed-token-0123456789}]',
    ].join('\n'),
  );
  const db = openDatabase(join(dir, 'calbridge.db'));
  const store = new AppointmentStore(db, systemClock);
  db.transaction(() => {
    for (let n = 0; n < EVENTS; n++) store.upsert(appointment(n));
  })();
  db.close();
  return config;
}

async function feedEvents(base: string): Promise<number> {
  const res = await fetch(`${base}/api/status`);
  expect(res.status).toBe(200);
  const status = (await res.json()) as { feeds: { feeds: { events: number }[] } };
  return status.feeds.feeds[0]!.events;
}

describe('serve over appointments its feeds do not hold yet', () => {
  it('answers status at once and /healthz while it brings them up to date, then counts them all', async () => {
    const serve = calbridge.spawn(['serve', '--config', setup()]);
    const base = await serve.listening();
    // The first status call starts the pass and answers with what the feed holds so far.
    expect(await feedEvents(base)).toBeLessThan(EVENTS);
    let answeredDuring = 0;
    for (;;) {
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      const events = await feedEvents(base);
      if (events === EVENTS) break;
      expect(events).toBeLessThan(EVENTS);
      answeredDuring++;
    }
    expect(answeredDuring).toBeGreaterThan(0);
    expect(serve.hasExited()).toBe(false);
  });
});
