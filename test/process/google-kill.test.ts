// A daemon killed while Google holds its insert's answer leaves no duplicate after a restart: the
// write was recorded as started, so the restarted daemon reads the event first and adopts it (and
// were it to insert again, the derived id would make that a 409, adopted the same way). And it leaves
// no orphan: the write was recorded as started before it was sent, so when the appointment is gone
// by the restart, the event that may have landed is deleted.
import { afterEach, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { startGoogleSimulator, type GoogleSimulator } from '../../src/google/simulator/index.ts';
import { openDatabase } from '../../src/store/db.ts';
import { AppointmentStore } from '../../src/store/appointment-store.ts';
import { LinkStore } from '../../src/store/link-store.ts';
import { systemClock } from '../../src/core/clock.ts';
import { eventIdFor } from '../../src/core/event-id.ts';
import { appointment, CLIENT } from '../google/google-env.ts';
import { daemonFolder } from '../helpers/daemon-folder.ts';
import { calbridgeProcesses, type CalbridgeProcess } from '../helpers/calbridge-process.ts';
import { waitFor } from '../helpers/wait-for.ts';

const calbridge = calbridgeProcesses();
let dir = '';
let fake: GoogleSimulator | undefined;
afterEach(async () => {
  await fake?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function serve(config: string): CalbridgeProcess {
  return calbridge.spawn(['serve', '--config', config], { env: { CALBRIDGE_LOG_LEVEL: 'warn' } });
}

/** One appointment stored, not yet in Google, and a daemon's folder that mirrors it into the fake; the first life killed while Google holds its insert's answer. */
async function killedWhileInserting(): Promise<{
  google: GoogleSimulator;
  a: ReturnType<typeof appointment>;
  dbPath: string;
  config: string;
}> {
  const google = await startGoogleSimulator({ clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret });
  fake = google;
  const a = appointment(1);
  const folder = daemonFolder(
    'calbridge-gkill-',
    a,
    `google:
  credentials: {client_id: ${CLIENT.client_id}, client_secret: ${CLIENT.client_secret}, refresh_token: ${CLIENT.refresh_token}}
  api_root: ${google.rootUrl}
  token_url: ${google.tokenUrl}
`,
  );
  dir = folder.dir;
  const { dbPath, config } = folder;

  const hold = google.holdNext({ kind: 'insert' });
  const first = serve(config);
  await hold.arrived; // Google has the event; the daemon has not heard back
  first.child.kill('SIGKILL');
  await first.exited;
  hold.release();
  expect(google.events('primary')).toHaveLength(1);
  return { google, a, dbPath, config };
}

it('SIGKILL while the insert answer is held, restart: still exactly one event', async () => {
  const { google, a, dbPath, config } = await killedWhileInserting();
  const second = serve(config);
  const linked = () => {
    const d = openDatabase(dbPath);
    try {
      return new LinkStore(d, systemClock, 'google.default').get(a.key)?.present === true;
    } finally {
      d.close();
    }
  };
  await waitFor('the restarted writer to record the event', linked, { process: second });
  second.child.kill('SIGTERM');
  await second.exited;

  const events = google.events('primary', { includeDeleted: true });
  expect(events.map((e) => e.id)).toEqual([eventIdFor(a.key)]);
  // The restarted writer reads the event its killed life may have made, and adopts it: no second insert.
  expect(google.log.filter((r) => r.kind === 'insert').map((r) => r.status)).toEqual([200]);
});

it('SIGKILL while the insert answer is held, then the appointment removed at the booking service: the restart deletes the event', async () => {
  const { google, a, dbPath, config } = await killedWhileInserting();
  const db = openDatabase(dbPath);
  new AppointmentStore(db, systemClock).markGone(a.key, 'not found at the booking service'); // what the next poll would find
  db.close();

  const second = serve(config);
  await waitFor('the restarted writer to delete the event that landed', () => google.events('primary').length === 0, { process: second });
  second.child.kill('SIGTERM');
  await second.exited;
  expect(google.events('primary'), 'the event of a removed appointment is left in Google').toEqual([]);
});
