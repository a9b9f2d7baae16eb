// The model test is only worth its seeds if it fails when a rule it covers breaks: each bug of
// test/model/plants.ts is planted in a copy of the project, and the CI histories played on that copy
// must break a promise (npm run plants does the same from the command line).
import { describe, expect, it } from 'vitest';
import { PLANTS, tryPlant } from '../model/plants.ts';
import { CI_RUNS } from '../model/history.ts';

describe('a bug planted in a copy of calbridge breaks a promise of the model test within the CI histories', () => {
  for (const plant of PLANTS) {
    it(`${plant.name} (${plant.why})`, async () => {
      const verdict = await tryPlant(plant, CI_RUNS);
      expect(verdict.caught, `the model test did not notice "${plant.name}" in ${CI_RUNS} histories:\n${verdict.output.slice(-2000)}`).toBe(
        true,
      );
    }, 600_000);
  }
});
