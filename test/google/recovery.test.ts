// The writer converges on the stored state after a lost link, and forgets failures that no longer matter.
import { afterEach, expect, it } from 'vitest';
import { appointment, createGoogleEnv, type GoogleEnv } from './google-env.ts';

let env: GoogleEnv | undefined;
afterEach(async () => {
  await env?.closeAll();
  env = undefined;
});

it('adopts an existing event after a 409 only when it shows our times, not on our hash property alone', async () => {
  env = await createGoogleEnv();
  const a = appointment(1);
  env.put(a);
  await env.runWriter();
  const ev = env.fake.events('primary')[0]!;
  const later = (s: string) => new Date(Date.parse(s) + 7_200_000).toISOString();
  env.fake.state.userEdit('primary', ev.id, {
    start: { dateTime: later(ev.start!.dateTime!), timeZone: 'UTC' },
    end: { dateTime: later(ev.end!.dateTime!), timeZone: 'UTC' },
  });
  env.ctx.db.prepare('DELETE FROM links').run(); // a database restored from before the first write
  await env.runWriter();
  expect(Date.parse(env.fake.events('primary')[0]!.start!.dateTime!)).toBe(a.start);
});

it('drops a failed write from status once the appointment no longer needs it', async () => {
  env = await createGoogleEnv();
  const a = appointment(1);
  env.put(a);
  env.fake.failNext('quota', 50);
  await env.runWriter();
  expect(env.section().failed).toBe(1);
  env.put({ ...a, status: 'CANCELED' });
  await env.runWriter();
  expect(env.section().failed).toBe(0);
});
