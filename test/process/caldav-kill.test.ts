// A daemon killed between the CalDAV server applying its PUT and recording it leaves one resource
// after a restart: the write was recorded as started, so the restarted daemon reads the object
// first, finds its own write (hash and times) and adopts it, with no second PUT (a repeated create
// would be If-None-Match: *, answered 412).
import { afterEach, expect, it } from 'vitest';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../../src/store/db.ts';
import { LinkStore } from '../../src/store/link-store.ts';
import { systemClock } from '../../src/core/clock.ts';
import { appointment } from '../google/google-env.ts';
import { CalendarApp } from '../caldav/calendar-app.ts';
import { startFailingProxy, type FailingProxy } from '../caldav/failing-proxy.ts';
import { startRadicale, type Radicale } from '../caldav/radicale.ts';
import { PASSWORD, USER } from '../caldav/setup.ts';
import { daemonFolder } from '../helpers/daemon-folder.ts';
import { calbridgeProcesses, type CalbridgeProcess } from '../helpers/calbridge-process.ts';

const calbridge = calbridgeProcesses();
let dir = '';
let radicale: Radicale | undefined;
let proxy: FailingProxy | undefined;
afterEach(async () => {
  await proxy?.stop();
  await radicale?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function serve(config: string): CalbridgeProcess {
  return calbridge.spawn(['serve', '--config', config], { env: { CALBRIDGE_LOG_LEVEL: 'warn', CALDAV_PASSWORD: PASSWORD } });
}

it('SIGKILL between the PUT and its record, restart: still exactly one resource, adopted', async () => {
  radicale = await startRadicale();
  await new CalendarApp(radicale.url, USER, PASSWORD).makeCalendar(`/${USER}/clinic/`, 'Clinic');
  proxy = await startFailingProxy({ target: radicale.url, share: 0, seed: 1, hold: { method: 'PUT', path: /\.ics$/ } });
  const a = appointment(1);
  const folder = daemonFolder(
    'calbridge-ckill-',
    a,
    `caldav:
  url: ${proxy.url}
  username: ${USER}
  password: \${CALDAV_PASSWORD}
  calendars: [{calendar_key: "*", calendar: Clinic}]
`,
  );
  dir = folder.dir;
  const { dbPath, config } = folder;
  const stored = join(radicale.storage, 'collection-root', USER, 'clinic');
  const files = () => readdirSync(stored).filter((f) => f.endsWith('.ics'));

  const first = serve(config);
  await proxy.held; // Radicale stored the object; the daemon has not heard back
  first.child.kill('SIGKILL');
  await first.exited;
  expect(files()).toEqual([`${a.key}.ics`]);

  const second = serve(config);
  const linked = () => {
    const d = openDatabase(dbPath);
    try {
      return new LinkStore(d, systemClock, 'caldav.default').get(a.key);
    } finally {
      d.close();
    }
  };
  for (let i = 0; i < 150 && linked()?.present !== true; i++) await new Promise((r) => setTimeout(r, 100));
  second.child.kill('SIGTERM');
  await second.exited;

  expect(linked()).toMatchObject({ present: true, eventId: a.key, lastError: null });
  expect(files()).toEqual([`${a.key}.ics`]);
  // The held create, and no other write: the restarted daemon reads the resource and adopts it.
  expect(proxy.log.filter((r) => r.method === 'PUT' || r.method === 'DELETE').map((r) => `${r.method} ${r.status}`)).toEqual(['PUT 201']);
});
