// A CalDAV server as the contract drives it: the product's CalDAV adapter against a real Radicale,
// a person's edits made over plain WebDAV as a calendar app makes them.
import type { CalendarObject } from '../../src/caldav/caldav-target.ts';
import { createCalDavTarget } from '../../src/caldav/caldav-target.ts';
import { renderCalendarObject } from '../../src/caldav/event-body.ts';
import { testAppointment } from '../helpers/appointment.ts';
import { CalendarApp } from '../caldav/calendar-app.ts';
import { movedObject } from '../caldav/mirror-env.ts';
import { startRadicale } from '../caldav/radicale.ts';
import { adapter, PASSWORD, TEMPLATES, USER } from '../caldav/setup.ts';
import { T0, type TargetFixture } from './target-contract.ts';

export const radicaleTarget: TargetFixture<CalendarObject> = {
  name: 'CalDAV (Radicale)',
  async start() {
    const server = await startRadicale();
    const app = new CalendarApp(server.url, USER, PASSWORD);
    const objectUrl = (cal: string, id: string) => new URL(`${USER}/${cal.toLowerCase()}/${id}.ics`, server.url).href;
    let calendars = 0;
    return {
      target: createCalDavTarget({ api: adapter(server.url), zone: 'America/Sao_Paulo' }),
      async calendar() {
        const name = `Contract${++calendars}`;
        await app.makeCalendar(`/${USER}/${name.toLowerCase()}/`, name);
        return name;
      },
      id: (n) => `k${n}`,
      body: (key, start, end, hash) =>
        renderCalendarObject(
          { appointment: testAppointment({ key, start, end }), revision: 1, changedAt: T0 - 86_400_000 },
          TEMPLATES,
          hash,
        ),
      async personMoves(cal, id, start, end) {
        const current = await app.get(objectUrl(cal, id));
        await app.save(objectUrl(cal, id), movedObject(current.body, start, end), current.etag!);
      },
      async personDeletes(cal, id) {
        await app.delete(objectUrl(cal, id));
      },
      keepsTombstones: false,
      stop: () => server.stop(),
    };
  },
};
