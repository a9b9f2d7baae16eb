// A toy target end to end: the port's contract (one line), then through the one builder with a
// real runtime's stores: the writer mirrors appointments into it, a person's move there comes back
// as a reschedule to send, and it has a status section and readiness like Google and CalDAV.
import { afterEach, expect, it } from 'vitest';
import { createMetrics } from '../../src/metrics.ts';
import { statusDocument, targetSection } from '../../src/status/status-document.ts';
import type { TargetAccount, TargetAdapter } from '../../src/sync/target/adapter.ts';
import { applyDepsOf } from '../../src/wiring/parts.ts';
import { targetPart } from '../../src/wiring/target-part.ts';
import { testAppointment } from '../helpers/appointment.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { targetContract } from './target-contract.ts';
import { ToyCalendar, toyTarget, type ToyBody } from './toy-calendar.ts';

targetContract(toyTarget);

const H = 3_600_000;
let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** The toy as the builder takes it: the adapter, then the account (what the config's section would give). */
function toyAdapter(toy: ToyCalendar): TargetAdapter<ToyBody> {
  return {
    kind: 'toy',
    words: {
      name: 'Toy',
      server: 'the toy calendar',
      item: 'toy event',
      place: 'the toy calendar',
      reverseMetricsPrefix: 'toy_',
      reverseMetricsName: 'the toy calendar',
    },
    target: () => toy,
    desire: (a, _revision, gone) =>
      gone
        ? { none: 'gone' }
        : {
            calendarId: 'clinic',
            body: { key: a.key, start: a.start, end: a.end, hash: `${a.start}-${a.end}` },
            hash: `${a.start}-${a.end}`,
            start: a.start,
            end: a.end,
            looks: { title: a.key, description: '', status: 'confirmed' },
          },
    idOf: (key) => `e-${key}`,
    lastSuccessAt: () => null,
    probe: () => undefined,
    authWarning: 'Toy: refused our credentials',
    bodyFacts: (b) => ({ appointmentKey: b.key, title: b.key, start: b.start, end: b.end, ourHash: b.hash }),
  };
}
const account: TargetAccount = {
  kind: 'toy',
  name: 'default',
  calendars: ['clinic'],
  requests_per_minute: 600,
  breaker_share: 0.3,
  reverse_sync: { enabled: true, schedule: '*/1 * * * *', on_conflict: 'revert', on_delete: 'recreate' },
};

it('is built by the one builder: writes, reads a person’s move back, and reports like every target', async () => {
  t = createTestContext();
  const toy = new ToyCalendar();
  toy.calendars.set('clinic', new Map());
  // Its own metrics registry: the test runtime's already holds the ingest breaker's metrics.
  const s = { ...t.ctx, metrics: createMetrics({ processMetrics: false }) };
  const part = targetPart(s, toyAdapter(toy), account, applyDepsOf(s));
  const job = (name: string) => part.jobs!.find((j) => j.name === name)!;
  expect(part.name).toBe('toy.default');
  expect(part.jobs!.map((j) => j.name)).toEqual(['toy-writer', 'toy-reverse-sync', 'toy-reschedules']);

  const a = testAppointment({ key: 'apt-1' });
  t.ctx.appointments.upsert(a);
  expect((await job('toy-writer').run()).status).toBe('success');
  expect(toy.calendars.get('clinic')!.get('e-apt-1')?.body).toMatchObject({ key: 'apt-1', start: a.start });

  // A person moves it in the toy calendar: the round records one reschedule for the booking service.
  await job('toy-reverse-sync').run(); // the first round lists everything
  toy.write('clinic', 'e-apt-1', { key: 'apt-1', start: a.start + H, end: a.end + H, hash: `${a.start}-${a.end}` });
  expect((await job('toy-reverse-sync').run()).summary).toMatch(/1 moves found/);
  expect(t.ctx.targetStores('toy.default').actions.due()).toMatchObject([
    { appointmentKey: 'apt-1', kind: 'reschedule', newStart: a.start + H },
  ]);

  const section = part.status!().targets!['toy.default']!;
  expect(targetSection.parse(section)).toMatchObject({
    kind: 'toy',
    account: 'toy.default',
    mirrored: 1,
    reverse_sync: { enabled: true, moves_detected: 1 },
  });
  expect(statusDocument.safeParse({ version: '1', now: new Date().toISOString(), targets: { 'toy.default': section } }).success).toBe(true);
  expect(part.readiness!().warnings).toEqual([]);
});
