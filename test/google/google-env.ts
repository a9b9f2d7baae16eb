// The runtime (temp SQLite file, the same builder as serve) wired to the fake Google: the Google
// part and its writer job, with fast retries.
import type { Appointment } from '../../src/core/appointment.ts';
import { createTestContext, testConfig, type TestContext } from '../helpers/context.ts';
import { startGoogleSimulator, type GoogleSimulator, type GoogleSimulatorOptions } from '../../src/google/simulator/index.ts';
import type { Part } from '../../src/wiring/part.ts';
import type { JobResult } from '../../src/jobs/job.ts';
import type { Clock } from '../../src/core/clock.ts';
import { testAppointment } from '../helpers/appointment.ts';
import type { TargetSection } from '../../src/status/status-document.ts';
import type { GoogleConfig } from '../../src/config/schema.ts';

export const CLIENT = { client_id: 'client-1', client_secret: 'client-secret-1', refresh_token: 'refresh-1' };

export interface GoogleEnv extends TestContext {
  fake: GoogleSimulator;
  part: Part;
  /** Its section of the status document. */
  section(): TargetSection;
  runWriter(): Promise<JobResult>;
  put(a: Appointment): void;
  closeAll(): Promise<void>;
}

export function googleSection(fake: GoogleSimulator, over: Record<string, unknown> = {}): Record<string, unknown> {
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
  options: { google?: Record<string, unknown>; fake?: GoogleSimulatorOptions; clock?: Clock } = {},
): Promise<GoogleEnv> {
  const fake = await startGoogleSimulator({ clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret, ...options.fake });
  const t = createTestContext({
    config: testConfig({ google: googleSection(fake, options.google) }),
    ...(options.clock ? { clock: options.clock } : {}),
    tuning: { googleRetry: { retries: 8, baseMs: 2, maxMs: 20 }, googleItemBackoff: { baseMs: 0, maxMs: 0 } },
  });
  const part = t.runtime.parts.find((p) => p.name === 'google.default')!;
  const job = part.jobs!.find((j) => j.name === 'google-writer')!;
  return {
    ...t,
    fake,
    part,
    section: () => t.runtime.status().targets['google.default']!,
    runWriter: () => job.run(),
    put: (a) => void t.ctx.appointments.upsert(a),
    async closeAll() {
      await t.close();
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

/** A whole google section on the fake, for tests that build the adapter without a part. */
export function testGoogleConfig(fake: GoogleSimulator, over: Partial<GoogleConfig> = {}): GoogleConfig {
  return {
    enabled: true,
    credentials: { client_id: 'client-1', client_secret: 'client-secret-1', refresh_token: 'refresh-1' },
    api_root: fake.rootUrl,
    token_url: fake.tokenUrl,
    calendars: [{ calendar_key: '*', calendar_id: 'primary' }],
    statuses: ['CONFIRMED', 'PENDING'],
    title: '{person.full_name}',
    description: '',
    reverse_sync: {
      enabled: false,
      schedule: '*/2 * * * *',
      push_notifications: false,
      on_conflict: 'revert',
      on_delete: 'recreate',
      send_email: false,
    },
    requests_per_minute: 100_000,
    breaker_share: 0.3,
    ...over,
  };
}
