// A crash between detecting a move and sending the reschedule: `serve` is SIGKILLed while its PATCH
// is on the way (a proxy in front of the simulator holds it back); after a restart the move is
// carried out exactly once.
import { afterEach, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Simulator } from '../../src/booking/simulator/index.ts';
import { startTestSimulator } from '../helpers/simulator.ts';
import { startGoogleSimulator, type GoogleSimulator } from '../../src/google/simulator/index.ts';
import { CLIENT } from '../google/google-env.ts';
import { CAL, googleStart, slot } from '../reverse/harness.ts';
import { systemClock } from '../../src/core/clock.ts';
import { eventIdFor } from '../../src/core/event-id.ts';
import { RescheduleStore } from '../../src/store/reschedule-store.ts';
import { DateTime } from 'luxon';
import { calbridgeProcesses, type CalbridgeProcess } from '../helpers/calbridge-process.ts';
import { waitFor } from '../helpers/wait-for.ts';

const calbridge = calbridgeProcesses();

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Forwards to the simulator; while `holding`, a reschedule PATCH is swallowed and reported. */
async function startProxy(target: string): Promise<{ url: string; holding: boolean; held: Promise<void>; server: Server }> {
  let arrived!: () => void;
  const state = { url: '', holding: true, held: new Promise<void>((r) => (arrived = r)), server: undefined as unknown as Server };
  state.server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (state.holding && req.method === 'PATCH' && req.url?.endsWith('/reschedule/')) {
        arrived();
        return; // never answered: the process dies waiting
      }
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'connection')) as Record<
        string,
        string
      >;
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      fetch(target + req.url, { method: req.method, headers, ...(body ? { body } : {}) })
        .then(async (r) => {
          res.writeHead(
            r.status,
            Object.fromEntries([...r.headers.entries()].filter(([k]) => k !== 'content-encoding' && k !== 'content-length')),
          );
          res.end(Buffer.from(await r.arrayBuffer()));
        })
        .catch(() => res.destroy());
    });
  });
  await new Promise<void>((r) => state.server.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}`;
  return state;
}

function serve(configFile: string): CalbridgeProcess {
  return calbridge.spawn(['serve', '--config', configFile]);
}

const patches = (sim: Simulator) => sim.requests.filter((r) => r.method === 'PATCH' && r.path.endsWith('/reschedule/')).length;

it('SIGKILL between detecting a move and the PATCH: after a restart it is rescheduled exactly once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-reverse-kill-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const sim = await startTestSimulator();
  cleanups.push(() => sim.close());
  const fake: GoogleSimulator = await startGoogleSimulator({ clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret });
  cleanups.push(() => fake.close());
  const proxy = await startProxy(sim.url);
  cleanups.push(() => new Promise<void>((r) => proxy.server.close(() => r())).then(() => proxy.server.closeAllConnections()));

  const configFile = join(dir, 'config.yaml');
  writeFileSync(
    configFile,
    `server: { host: 127.0.0.1, port: 0, public_url: "http://127.0.0.1:1" }
database: { path: calbridge.db }
booking: { base_url: "${proxy.url}", token: "${sim.token}", timezone: America/Sao_Paulo, timeout_seconds: 120 }
webhook: { secret: reverse-kill-secret-0123456789, register: false }
google:
  credentials: { client_id: ${CLIENT.client_id}, client_secret: ${CLIENT.client_secret}, refresh_token: ${CLIENT.refresh_token} }
  api_root: "${fake.rootUrl}"
  token_url: "${fake.tokenUrl}"
  requests_per_minute: 6000
  reverse_sync: { schedule: "* * * * * *", push_notifications: false }
`,
  );
  const a = sim.create({ start: slot(0) });
  const eventId = eventIdFor(a.appointment_key);

  const first = serve(configFile);
  await waitFor('the event in Google', () => googleStart(fake.events(CAL).find((e) => e.id === eventId)) === slot(0));
  // Let a reverse round see the event as ours before the person moves it.
  await waitFor('a reverse round after the write', () => fake.log.filter((r) => r.kind === 'list').length >= 2);
  const at = (ms: number) => ({ dateTime: DateTime.fromMillis(ms, { zone: 'America/Sao_Paulo' }).toISO()!, timeZone: 'America/Sao_Paulo' });
  fake.state.userEdit(CAL, eventId, { start: at(slot(2)), end: at(slot(3)) });

  let patchSeen = false;
  void proxy.held.then(() => (patchSeen = true));
  await waitFor('the PATCH to reach the proxy', () => patchSeen);
  first.child.kill('SIGKILL');
  await first.exited;
  expect(patches(sim)).toBe(0);
  const db = new Database(join(dir, 'calbridge.db'), { readonly: true });
  const actions = new RescheduleStore(db, systemClock, 'google.default');
  const [latest, pending] = [actions.latest(a.appointment_key), actions.pendingTargets(a.appointment_key)];
  db.close();
  expect(latest).toMatchObject({ state: 'pending', newStart: slot(2) });
  expect(pending).toEqual([slot(2)]);

  proxy.holding = false;
  const second = serve(configFile);
  await waitFor('the reschedule', () => sim.get(a.appointment_key)?.start === slot(2), { process: second });
  // Several more reverse rounds (each lists the calendar) and writer passes: still exactly one PATCH.
  const rounds = () => fake.log.filter((r) => r.kind === 'list').length;
  const seen = rounds();
  await waitFor('three more reverse rounds', () => rounds() >= seen + 3, { process: second });
  expect(patches(sim)).toBe(1);
  expect(googleStart(fake.events(CAL).find((e) => e.id === eventId))).toBe(slot(2));
  expect(fake.events(CAL)).toHaveLength(1);
  second.child.kill('SIGTERM');
  await second.exited;
}, 90_000);
