// The CalDAV mirror end to end in one process: the booking simulator over HTTP, a real Radicale
// (optionally behind the failing proxy), a real database, and the runtime `serve` builds, with its
// CalDAV writer, reverse sync and reschedules jobs run explicitly. A CalendarApp plays the person
// editing the calendar on a phone.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import type { Simulator } from '../../src/booking/simulator/index.ts';
import { readEvent, type ReadEvent } from '../../src/caldav/event-reader.ts';
import { systemClock, type Clock } from '../../src/core/clock.ts';
import type { JobName, JobResult } from '../../src/jobs/job.ts';
import type { TargetSection } from '../../src/status/status-document.ts';
import { createTestContext, testConfig, type TestContext } from '../helpers/context.ts';
import { simulatorClient, startTestSimulator, TEST_ZONE } from '../helpers/simulator.ts';
import { CalendarApp } from './calendar-app.ts';
import { startFailingProxy, type FailingProxy, type FailingProxyOptions } from './failing-proxy.ts';
import { startRadicale, type Radicale } from './radicale.ts';
import { PASSWORD, USER } from './setup.ts';

const CALENDAR = 'Clinic';

export { slot } from '../helpers/slot.ts';

export interface MirrorEnvOptions {
  /** A failing proxy between calbridge and Radicale (the CalendarApp talks to Radicale directly). */
  proxy?: Omit<FailingProxyOptions, 'target'>;
  caldav?: Record<string, unknown>;
  reverse?: Record<string, unknown>;
  server?: Record<string, unknown>;
  /** false: a stored change does not run the writer at once (jobs run only when a test runs them). */
  wakeJobs?: boolean;
  /** Default: the system's. */
  clock?: Clock;
  /** Backoff of an appointment whose write failed (default: none, retried on the next pass). */
  itemBackoff?: { baseMs: number; maxMs: number };
}

export interface MirrorEnv {
  sim: Simulator;
  radicale: Radicale;
  proxy: FailingProxy | undefined;
  app: CalendarApp;
  /** The calendar's collection URL on Radicale. */
  calendarUrl: string;
  t: TestContext;
  run(job: JobName): Promise<JobResult>;
  /** Polls the booking service, then writer, reverse sync, reschedules and writer again, `rounds` times. */
  settle(rounds?: number): Promise<void>;
  /** Writes until nothing is pending (failures back off 0 ms); throws after `maxPasses`. */
  writeAll(maxPasses?: number): Promise<void>;
  /** The resource names (files) Radicale stores in the calendar. */
  files(): string[];
  /** Every object in the calendar as read from Radicale's storage, by file name. */
  objects(): Map<string, ReadEvent>;
  objectUrl(key: string): string;
  /** A person moves the event in a calendar app: a PUT of the edited object with the ETag it had. */
  moveInApp(key: string, start: number): Promise<number>;
  deleteInApp(key: string): Promise<number>;
  reschedulePatches(key?: string): number;
  /** Successful CalDAV requests calbridge made, by method (PUT, DELETE, GET, REPORT, PROPFIND). */
  calls(method?: string): Promise<number>;
  status(): TargetSection;
  close(): Promise<void>;
}

/** An object's DTSTART/DTEND replaced by UTC times, as an app writes an edit (it may drop our TZID). */
export function movedObject(ics: string, start: number, end: number): string {
  const utc = (ms: number) => DateTime.fromMillis(ms, { zone: 'utc' }).toFormat("yyyyMMdd'T'HHmmss'Z'");
  // Only the VEVENT's: the VTIMEZONE has DTSTART lines of its own.
  const at = ics.indexOf('BEGIN:VEVENT');
  return (
    ics.slice(0, at) +
    ics
      .slice(at)
      .replace(/^DTSTART[;:].*$/m, `DTSTART:${utc(start)}`)
      .replace(/^DTEND[;:].*$/m, `DTEND:${utc(end)}`)
      .replace(/^SEQUENCE:(\d+)$/m, (_, n: string) => `SEQUENCE:${Number(n) + 1}`)
  );
}

export async function startMirrorEnv(options: MirrorEnvOptions = {}): Promise<MirrorEnv> {
  const radicale = await startRadicale();
  const app = new CalendarApp(radicale.url, USER, PASSWORD);
  const calendarUrl = await app.makeCalendar(`/${USER}/clinic/`, CALENDAR);
  const proxy = options.proxy ? await startFailingProxy({ target: radicale.url, ...options.proxy }) : undefined;
  const sim = await startTestSimulator();
  const config = testConfig({
    ...(options.server ? { server: options.server } : {}),
    booking: { base_url: sim.url, token: sim.token, timezone: TEST_ZONE },
    caldav: {
      url: proxy?.url ?? radicale.url,
      username: USER,
      password: PASSWORD,
      calendars: [{ calendar_key: '*', calendar: CALENDAR }],
      requests_per_minute: 10_000,
      ...options.caldav,
      reverse_sync: { schedule: '0 0 1 1 *', ...options.reverse },
    },
  });
  const t = createTestContext({
    config,
    booking: simulatorClient(sim),
    clock: options.clock ?? systemClock,
    runJobs: options.wakeJobs ?? true,
    tuning: { caldavRetry: { retries: 3, baseMs: 1, maxMs: 5 }, caldavItemBackoff: options.itemBackoff ?? { baseMs: 0, maxMs: 0 } },
  });
  const { scheduler } = t.runtime;
  const run = (job: JobName) => scheduler.runNow(job);
  const folder = join(radicale.storage, 'collection-root', USER, 'clinic');
  const section = () => t.runtime.status().targets['caldav.default']!;

  const env: MirrorEnv = {
    sim,
    radicale,
    proxy,
    app,
    calendarUrl,
    t,
    run,
    async settle(rounds = 3) {
      await run('poll');
      for (let i = 0; i < rounds; i++) {
        await run('caldav-writer');
        await run('caldav-reverse-sync');
        await run('caldav-reschedules');
        await run('caldav-writer');
      }
    },
    async writeAll(maxPasses = 50) {
      for (let i = 0; i < maxPasses; i++) {
        await run('caldav-writer');
        if (section().pending === 0) return;
      }
      throw new Error(`still ${section().pending} to write after ${maxPasses} passes: ${JSON.stringify(section().failures?.[0])}`);
    },
    files: () =>
      readdirSync(folder)
        .filter((f) => f.endsWith('.ics'))
        .sort(),
    objects() {
      return new Map(env.files().map((f) => [f, readEvent(readFileSync(join(folder, f), 'utf8'), TEST_ZONE)]));
    },
    objectUrl: (key) => new URL(`${encodeURIComponent(key)}.ics`, calendarUrl).href,
    async moveInApp(key, start) {
      const url = env.objectUrl(key);
      const current = await app.get(url);
      if (current.status !== 200 || !current.etag) throw new Error(`no object for ${key}: ${current.status}`);
      const e = readEvent(current.body, TEST_ZONE);
      return (await app.save(url, movedObject(current.body, start, start + (e.end - e.start)), current.etag)).status;
    },
    async deleteInApp(key) {
      const url = env.objectUrl(key);
      const current = await app.get(url);
      return app.delete(url, current.etag ?? undefined);
    },
    reschedulePatches: (key) =>
      sim.requests.filter((r) => r.method === 'PATCH' && r.path.endsWith('/reschedule/') && (!key || r.path.includes(key))).length,
    async calls(method) {
      const metric = await t.runtime.services.metrics.registry.getSingleMetric('calbridge_caldav_calls_total')?.get();
      return (metric?.values ?? [])
        .filter((v) => v.labels.outcome === 'ok' && (!method || v.labels.op === method))
        .reduce((n, v) => n + v.value, 0);
    },
    status: section,
    async close() {
      await scheduler.stop();
      await t.close();
      await sim.close();
      await proxy?.stop();
      await radicale.stop();
    },
  };
  return env;
}
