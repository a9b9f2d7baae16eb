// Convergence, as a model-based test: seeded random histories of both sides (see README.md beside
// this file) end with the booking service, Google and every feed agreeing, and then quiet.
// CI plays a fixed set of seeds; CALBRIDGE_MODEL_SEED and CALBRIDGE_MODEL_RUNS choose others.
import { describe, it } from 'vitest';
import { CI_RUNS, runHistory } from './history.ts';

const FIRST = Number(process.env.CALBRIDGE_MODEL_SEED ?? 1);
const RUNS = Number(process.env.CALBRIDGE_MODEL_RUNS ?? CI_RUNS);

describe('a random history of both sides ends with everything agreeing, then quiet', () => {
  for (let seed = FIRST; seed < FIRST + RUNS; seed++) {
    it(`history seed ${seed}`, async () => {
      const outcome = await runHistory(seed, { shrinkMs: 90_000 });
      if (!outcome.ok) throw new Error(outcome.report);
    }, 240_000);
  }
});
