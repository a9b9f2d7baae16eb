// A person's move met on a 412 is left to the reverse sync for a grace period that is stored with
// the link: a restart (or a one-shot `sync` beside `serve`) neither starts it over nor forgets it.
import { afterEach, expect, it } from 'vitest';
import { appointment, createGoogleEnv, type GoogleEnv } from './google-env.ts';
import { ManualClock } from '../../src/core/clock.ts';
import { eventIdFor } from '../../src/core/event-id.ts';
import { GRACE_MS } from '../../src/core/mirror/write-decide.ts';
import { silentLogger } from '../../src/log.ts';
import { buildRuntime } from '../../src/wiring/runtime.ts';

let env: GoogleEnv | undefined;
afterEach(async () => {
  await env?.closeAll();
  env = undefined;
});

const H = 3_600_000;

it("a person's move left to the reverse sync is written over one grace period after it was first met, across a restart", async () => {
  const clock = new ManualClock();
  env = await createGoogleEnv({ clock });
  const e = env;
  const a = appointment(1);
  e.put(a);
  await e.runWriter();
  const id = eventIdFor(a.key);
  const at = (ms: number) => ({ dateTime: new Date(ms).toISOString(), timeZone: 'UTC' });
  e.fake.state.userEdit('primary', id, { start: at(a.start + 2 * H), end: at(a.end + 2 * H) }); // a person moves it
  e.put({ ...a, searchCode: 'RENAMED' }); // and the booking service renames it before any reverse-sync round
  const googleStart = () => Date.parse(e.fake.events('primary')[0]!.start!.dateTime!);

  await e.runWriter(); // 412: the move is the reverse sync's, left alone
  expect(googleStart()).toBe(a.start + 2 * H);
  expect(e.woken).toContain('google-reverse-sync');

  // A restart: a new runtime (writer, Google connection, database connection) on the same file, half a grace period later.
  const restarted = buildRuntime(e.ctx.config, {
    log: silentLogger(),
    clock,
    booking: e.ctx.booking,
    wake: () => {},
    processMetrics: false,
    tuning: { googleRetry: { retries: 0, baseMs: 1, maxMs: 1 }, googleItemBackoff: { baseMs: 0, maxMs: 0 } },
  });
  const run = () => restarted.scheduler.runNow('google-writer');
  clock.advance(GRACE_MS / 2);
  await run();
  expect(googleStart(), 'still within the grace period: left alone').toBe(a.start + 2 * H);

  clock.advance(GRACE_MS / 2);
  await run();
  expect(googleStart(), 'a grace period after it was first met, not after the restart: the booking state is written').toBe(a.start);
  expect(e.fake.events('primary')[0]!.summary).toContain('RENAMED');
  await restarted.close();
});
