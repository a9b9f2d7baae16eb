// What every CalDAV test needs: the adapter pointed at a server with test-speed retries, and
// calendar objects rendered the way the writer will render them.
import { expect } from 'vitest';
import { createCalDavClient, type CalDavClientOptions } from '../../src/caldav/client.ts';
import { CalDavError } from '../../src/caldav/errors.ts';
import { renderCalendarObject } from '../../src/caldav/event-body.ts';
import type { CalDavApi } from '../../src/caldav/port.ts';
import { systemClock } from '../../src/core/clock.ts';
import type { Appointment } from '../../src/core/appointment.ts';
import { Pacer } from '../../src/net/pacer.ts';
import { testAppointment } from '../helpers/appointment.ts';

export const USER = 'alice';
export const PASSWORD = 'alice-app-password';
export const TEMPLATES = { title: '{person.full_name} · {search_code}', description: '{calendar.name}\n{person.email}' };

export function adapter(url: string, over: Partial<CalDavClientOptions> = {}): CalDavApi {
  return createCalDavClient({
    url,
    username: USER,
    password: PASSWORD,
    pacer: new Pacer(60_000, systemClock),
    policy: { retries: 0, baseMs: 1, maxMs: 50 },
    sleep: async () => undefined,
    timeoutMs: 10_000,
    ...over,
  });
}

/** An appointment `key` starting `start` (epoch ms), an hour long, as a calendar object. */
export function objectFor(
  key: string,
  start: number,
  over: Partial<Appointment> = {},
  revision = 1,
): { appointment: Appointment; ics: string } {
  const appointment = testAppointment({ key, start, end: start + 3_600_000, ...over });
  return { appointment, ics: renderCalendarObject({ appointment, revision, changedAt: start - 86_400_000 }, TEMPLATES) };
}

/** The CalDavError a call fails with (the test fails if it succeeds or throws anything else). */
export async function failure(p: Promise<unknown>): Promise<CalDavError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(CalDavError);
  return e as CalDavError;
}
