// `calbridge sync` (in process, through the real CLI and composition root) runs a reverse-sync round
// and sends what it found.
import { afterEach, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { runCli } from '../../src/cli.ts';
import { eventIdFor } from '../../src/core/event-id.ts';
import { startTestSimulator } from '../helpers/simulator.ts';
import { startGoogleSimulator } from '../../src/google/simulator/index.ts';
import { CLIENT } from '../google/google-env.ts';
import { CAL, googleStart, slot } from './harness.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

it('sync runs one reverse-sync round: a move made in Google is rescheduled', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-reverse-sync-cmd-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const sim = await startTestSimulator();
  cleanups.push(() => sim.close());
  const fake = await startGoogleSimulator({ clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret });
  cleanups.push(() => fake.close());
  const file = join(dir, 'config.yaml');
  writeFileSync(
    file,
    `server: { host: 127.0.0.1, port: 0, public_url: "http://127.0.0.1:1" }
database: { path: calbridge.db }
booking: { base_url: "${sim.url}", token: "${sim.token}", timezone: America/Sao_Paulo }
webhook: { secret: reverse-sync-cmd-secret-0123456789, register: false }
google:
  credentials: { client_id: ${CLIENT.client_id}, client_secret: ${CLIENT.client_secret}, refresh_token: ${CLIENT.refresh_token} }
  api_root: "${fake.rootUrl}"
  token_url: "${fake.tokenUrl}"
`,
  );
  const out: string[] = [];
  const io = { out: (l: string) => void out.push(l), err: () => undefined, isTty: false };
  const a = sim.create({ start: slot(1) });

  expect(await runCli(['sync', '--config', file], io)).toBe(0);
  const id = eventIdFor(a.appointment_key);
  expect(googleStart(fake.events(CAL).find((e) => e.id === id))).toBe(slot(1));
  expect(out.some((l) => /^reverse-sync\s+success/.test(l))).toBe(true);

  const at = (ms: number) => ({ dateTime: DateTime.fromMillis(ms, { zone: 'America/Sao_Paulo' }).toISO()!, timeZone: 'America/Sao_Paulo' });
  fake.state.userEdit(CAL, id, { start: at(slot(5)), end: at(slot(6)) });
  out.length = 0;
  expect(await runCli(['sync', '--config', file], io)).toBe(0);
  expect(out.find((l) => l.startsWith('reverse-sync'))).toMatch(/1 moves found/);
  expect(out.find((l) => l.startsWith('reschedules'))).toMatch(/1 done/);
  expect(sim.get(a.appointment_key)?.start).toBe(slot(5));
  expect(sim.requests.filter((r) => r.method === 'PATCH' && r.path.endsWith('/reschedule/'))).toHaveLength(1);

  out.length = 0;
  expect(await runCli(['status', '--config', file, '--json'], io)).toBe(0);
  const status = JSON.parse(out.join('\n')) as { reverse_sync: { moves_detected: number; last_round_at: string | null } };
  expect(status.reverse_sync).toMatchObject({ moves_detected: 1 });
  expect(status.reverse_sync.last_round_at).not.toBeNull();
});
