// A real `serve` started over many stored appointments its feeds do not hold yet (a first start
// after an upgrade, a database a one-shot `sync` filled) brings what they hold up to date in slices:
// /api/status answers at once with the counts so far, /healthz is answered while the pass runs, and
// the counts are exact once it ends.
import { describe, expect, it } from 'vitest';
import { calbridgeProcesses } from '../helpers/calbridge-process.ts';
import { feedDaemonFolders } from '../helpers/feed-daemon-folder.ts';

// A pass of many slices on any machine: each row becomes a stored member.
const EVENTS = 20_000;
const calbridge = calbridgeProcesses();
const folder = feedDaemonFolders('calbridge-member-pass-');
const setup = (): string => folder({ token: 'member-pass-feed-token-0123456789', events: EVENTS, server: 'status_auth: loopback' });

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
