// `calbridge sync` (in process, through the real CLI and composition root) runs a reverse-sync round
// and sends what it found.
import { afterEach, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { eventIdFor } from '../../src/core/event-id.ts';
import { startCliEnv } from '../helpers/cli-env.ts';
import { statusDocument } from '../../src/status/status-document.ts';
import { CAL, googleStart, slot } from './harness.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

it('sync runs one reverse-sync round: a move made in Google is rescheduled', async () => {
  const { sim, fake, run } = await startCliEnv(cleanups);
  const a = sim.create({ start: slot(1) });

  const first = await run('sync');
  expect(first.code).toBe(0);
  const id = eventIdFor(a.appointment_key);
  expect(googleStart(fake.events(CAL).find((e) => e.id === id))).toBe(slot(1));
  expect(first.out.some((l) => /^google-reverse-sync\s+success/.test(l))).toBe(true);

  const at = (ms: number) => ({ dateTime: DateTime.fromMillis(ms, { zone: 'America/Sao_Paulo' }).toISO()!, timeZone: 'America/Sao_Paulo' });
  fake.state.userEdit(CAL, id, { start: at(slot(5)), end: at(slot(6)) });
  const second = await run('sync');
  expect(second.code).toBe(0);
  expect(second.out.find((l) => l.startsWith('google-reverse-sync'))).toMatch(/1 moves found/);
  expect(second.out.find((l) => l.startsWith('google-reschedules'))).toMatch(/1 done/);
  expect(sim.get(a.appointment_key)?.start).toBe(slot(5));
  expect(sim.requests.filter((r) => r.method === 'PATCH' && r.path.endsWith('/reschedule/'))).toHaveLength(1);

  const status = await run('status', '--json');
  expect(status.code).toBe(0);
  const doc = statusDocument.parse(JSON.parse(status.out.join('\n')));
  const reverse = doc.targets['google.default']!.reverse_sync;
  expect(reverse).toMatchObject({ moves_detected: 1 });
  expect(reverse.enabled && reverse.last_round_at).not.toBeNull();
});
