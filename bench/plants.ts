// `npm run plants`: plants each bug of test/model/plants.ts in a copy of the project and plays the
// CI histories (seeds 1 to CI_RUNS) on it; every plant must break a promise. Prints which seed caught each
// and the promise it broke. `--runs N` plays more or fewer histories, `--only TEXT` the plants whose
// name contains TEXT.
import { PLANTS, tryPlant } from '../test/model/plants.ts';
import { CI_RUNS } from '../test/model/history.ts';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : (process.argv[i + 1] ?? '');
};
const runs = Number(arg('runs') ?? CI_RUNS);
const only = arg('only');
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs takes a whole number from 1, got "${arg('runs') ?? ''}"`);
let missed = 0;
for (const plant of PLANTS.filter((p) => only === undefined || p.name.includes(only))) {
  const v = await tryPlant(plant, runs);
  if (!v.caught) missed++;
  const found = v.caught ? `caught by seed ${v.seed}: ${v.promise}` : `NOT CAUGHT in ${runs} histories`;
  process.stdout.write(`${plant.name}: ${found} (${(v.ms / 1000).toFixed(0)} s)\n`);
  if (!v.caught) process.stdout.write(`${v.output.split('\n').slice(-15).join('\n')}\n`);
}
process.exit(missed ? 1 : 0);
