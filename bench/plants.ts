// `npm run plants`: plants each bug of test/model/plants.ts in a copy of the project and plays the
// CI histories (seeds 1 to 25) on it; every plant must break a promise. Prints which seed caught each
// and the promise it broke. `--runs N` plays more or fewer histories.
import { PLANTS, tryPlant } from '../test/model/plants.ts';

const i = process.argv.indexOf('--runs');
const runs = i < 0 ? 25 : Number(process.argv[i + 1]);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs takes a whole number from 1, got "${process.argv[i + 1] ?? ''}"`);
let missed = 0;
for (const plant of PLANTS) {
  const v = await tryPlant(plant, runs);
  if (!v.caught) missed++;
  const found = v.caught ? `caught by seed ${v.seed}: ${v.promise}` : `NOT CAUGHT in ${runs} histories`;
  process.stdout.write(`${plant.name}: ${found} (${(v.ms / 1000).toFixed(0)} s)\n`);
  if (!v.caught) process.stdout.write(`${v.output.split('\n').slice(-15).join('\n')}\n`);
}
process.exit(missed ? 1 : 0);
