// Refused credentials stay visible until Google accepts them again: a writer pass that has nothing
// due (every item waiting for its retry) calls no one, so it proves nothing and clears nothing.
import { afterEach, expect, it } from 'vitest';
import { startGoogleSimulator, type GoogleSimulator } from '../../src/google/simulator/index.ts';
import { createTestContext, testConfig, type TestContext } from '../helpers/context.ts';
import type { Part } from '../../src/wiring/part.ts';
import { appointment, CLIENT, googleSection } from './google-env.ts';

let fake: GoogleSimulator | undefined;
let t: TestContext | undefined;
let part: Part | undefined;
afterEach(async () => {
  await t?.close();
  await fake?.close();
  fake = t = part = undefined;
});

it('keeps invalid_grant in status and readiness through passes that have nothing due', async () => {
  fake = await startGoogleSimulator({ clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret });
  // A failed item waits a minute before its next try, as in production (30 s and up).
  t = createTestContext({
    config: testConfig({ google: googleSection(fake) }),
    tuning: { googleRetry: { retries: 0, baseMs: 1, maxMs: 1 }, googleItemBackoff: { baseMs: 60_000, maxMs: 60_000 } },
  });
  part = t.runtime.parts.find((p) => p.name === 'google.default')!;
  const writer = part.jobs!.find((j) => j.name === 'google-writer')!;
  const auth = () => part!.status!().targets!['google.default']!.auth;

  fake.revoke();
  t.ctx.appointments.upsert(appointment(1));
  expect((await writer.run()).status).toBe('failed');
  expect(auth()).toMatchObject({ ok: false, error: 'invalid_grant: Token has been expired or revoked.' });

  const calls = fake.log.length;
  await writer.run(); // the item waits for its retry: no call to Google
  expect(fake.log.length).toBe(calls);
  expect(auth()).toMatchObject({ ok: false, error: 'invalid_grant: Token has been expired or revoked.' });
  const readiness = part.readiness!();
  expect([...readiness.reasons, ...readiness.warnings.map((w) => w.text)].join(' ')).toContain('calbridge google auth');
});
