// Bugs planted on purpose, to show the model test catches each (issue: "planting any one of these
// makes the model test fail within CI's histories"). Each plant is one text replacement in one file
// of a temporary copy of the project; the project itself never carries a switch for them. A plant
// whose text is no longer found fails loudly, so a refactoring cannot silently retire it.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface Plant {
  name: string;
  /** What the rule protects, in a person's words. */
  why: string;
  file: string;
  find: string;
  replace: string;
}

export const PLANTS: Plant[] = [
  {
    name: 'skip the re-read of a webhook',
    why: 'a notification is a hint, never the state: its body may be old by the time it arrives',
    file: 'src/sync/delivery-worker.ts',
    find: 'const answer = deps.booking.getAppointment(key);',
    // The newest pending delivery's own body, taken as the appointment's state.
    replace:
      'const answer = Promise.resolve((JSON.parse((deps.deliveries as unknown as { db: { prepare(q: string): { get(k: string): { body: string } } } }).db' +
      '.prepare("SELECT body FROM deliveries WHERE appointment_key = ? AND state = \'pending\' ORDER BY id DESC LIMIT 1").get(key).body) as { data: unknown }).data);',
  },
  {
    name: 'drop the 409 adoption',
    why: 'a create that meets our own event (its answer lost, a crash) adopts it instead of writing it again',
    file: 'src/core/mirror/write-decide.ts',
    find: "  if (showsOurWrite(event, f.wanted) || (event.ourHash !== null && showsWhatWeWant(event, f.wanted)))\n    return { kind: 'adopt', etag: event.etag };\n  const movedOurs",
    replace: '  const movedOurs',
  },
  {
    name: 'write Google on a no-op',
    why: 'an appointment whose event already shows what it should is not written',
    file: 'src/core/mirror/write-plan.ts',
    find: "generation } : { kind: 'none' };",
    replace: "generation } : { kind: 'update', calendarId: link.calendarId, eventId: link.eventId, etag: link.etag };",
  },
  {
    name: "take our own echo for a person's move",
    why: 'what a reverse-sync round listed before our latest write is our own earlier write, not news',
    file: 'src/core/mirror/reverse-decide.ts',
    find: 'return (link?.updatedAt ?? 0) > since;',
    replace: 'return false;',
  },
];

const REPO = resolve(import.meta.dirname, '../..');
const COPIED = ['src', 'test', 'bench', 'bin', 'package.json', 'tsconfig.json'];

/** A copy of the project with `plant` applied, and node_modules linked; remove it with rmSync. */
function plantedCopy(plant: Plant): string {
  const dir = mkdtempSync(join(tmpdir(), 'calbridge-plant-'));
  for (const entry of COPIED) cpSync(join(REPO, entry), join(dir, entry), { recursive: true });
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const file = join(dir, plant.file);
  const text = readFileSync(file, 'utf8');
  const at = text.indexOf(plant.find);
  if (at < 0 || text.indexOf(plant.find, at + 1) >= 0)
    throw new Error(`plant "${plant.name}": its text is not found exactly once in ${plant.file}; update test/model/plants.ts`);
  writeFileSync(file, text.replace(plant.find, plant.replace));
  return dir;
}

export interface PlantVerdict {
  plant: Plant;
  caught: boolean;
  /** The first seed that broke a promise, and which promise. */
  seed?: number;
  promise?: string;
  ms: number;
  output: string;
}

/** Plays the CI histories (seeds 1 to `runs`) on a copy with the plant, up to the first broken promise. */
export async function tryPlant(plant: Plant, runs = 25): Promise<PlantVerdict> {
  const started = Date.now();
  const dir = plantedCopy(plant);
  try {
    const output = await new Promise<string>((done, fail) => {
      const args = [join(dir, 'bin/run-ts.js'), 'bench/soak.ts', '--runs', String(runs), '--seed', '1', '--shrink-seconds', '0', '--bail'];
      const child = spawn(process.execPath, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      let text = '';
      child.stdout.on('data', (d: Buffer) => (text += d.toString()));
      child.stderr.on('data', (d: Buffer) => (text += d.toString()));
      child.once('error', fail);
      child.once('close', () => done(text));
    });
    const seed = /history seed (\d+) broke a promise/.exec(output)?.[1];
    const promise = /broken promise: (.*)/.exec(output)?.[1];
    return {
      plant,
      caught: seed !== undefined,
      ...(seed ? { seed: Number(seed) } : {}),
      ...(promise ? { promise } : {}),
      ms: Date.now() - started,
      output,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
