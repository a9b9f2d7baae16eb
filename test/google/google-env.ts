// A real Context (temp SQLite file) wired to the fake Google, with the Google part built on it.
import type { Appointment } from '../../src/core/appointment.ts';
import { createTestContext, testConfig, type TestContext } from '../helpers/context.ts';
import { startFakeGoogle, type FakeGoogle, type FakeGoogleOptions } from '../fakes/fake-google.ts';
import { createGooglePart, WRITER_JOB } from '../../src/google/google-part.ts';
import type { Part } from '../../src/part.ts';
import type { JobResult } from '../../src/jobs/job.ts';
import type { Clock } from '../../src/core/clock.ts';
import { testAppointment } from '../helpers/appointment.ts';

export const CLIENT = { client_id: 'client-1', client_secret: 'client-secret-1', refresh_token: 'refresh-1' };

export interface GoogleEnv extends TestContext {
  fake: FakeGoogle;
  part: Part;
  runWriter(): Promise<JobResult>;
  put(a: Appointment): void;
  closeAll(): Promise<void>;
}

export function googleSection(fake: FakeGoogle, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    credentials: CLIENT,
    api_root: fake.rootUrl,
    token_url: fake.tokenUrl,
    requests_per_minute: 10_000,
    calendars: [{ calendar_key: '*', calendar_id: 'primary' }],
    ...over,
  };
}

export async function createGoogleEnv(
  options: { google?: Record<string, unknown>; fake?: FakeGoogleOptions; clock?: Clock } = {},
): Promise<GoogleEnv> {
  const fake = await startFakeGoogle({ clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret, ...options.fake });
  const t = createTestContext({ config: testConfig({ google: googleSection(fake, options.google) }), ...(options.clock ? { clock: options.clock } : {}) });
  const part = createGooglePart(t.ctx, { retry: { retries: 8, baseMs: 2, maxMs: 20 }, itemBackoff: { baseMs: 0, maxMs: 0 } })!;
  const job = part.jobs!.find((j) => j.name === WRITER_JOB)!;
  return {
    ...t,
    fake,
    part,
    runWriter: () => job.run(),
    put: (a) => void t.ctx.appointments.upsert(a),
    async closeAll() {
      await part.stop?.();
      t.close();
      await fake.close();
    },
  };
}

const T0 = Date.UTC(2026, 5, 20, 13, 0, 0); // 10:00 in Sao Paulo

export function appointment(n: number, over: Partial<Appointment> = {}): Appointment {
  const hex = n.toString(16).padStart(12, '0');
  return testAppointment({
    key: `5b1c2d3e-0000-4000-8000-${hex}`,
    searchCode: `SC${n}`,
    start: T0 + n * 3_600_000,
    end: T0 + n * 3_600_000 + 1_800_000,
    person: { personKey: `p${n}`, fullName: `Person ${n}`, email: `p${n}@example.com`, phone: null, documentNumber: null },
    ...over,
  });
}
