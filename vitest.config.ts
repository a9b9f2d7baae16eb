// Three tiers (CONTRIBUTING.md, "Tests"): `npm test` runs them all, `npm run test:<tier>` one alone.
//   unit         pure, milliseconds: `*.test.ts` beside the code it tests, under src/
//   integration  real SQLite files and HTTP fakes (the booking and Google Calendar simulators, Radicale): test/
//   process      calbridge itself as a process, a browser, or a command over a copy of the repo: test/process/
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Processes started by tests run dist/, compiled from the sources here first.
    globalSetup: ['test/helpers/build-once.ts'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    // Child-process and browser tests start real servers; two cores do not like many at once.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'] } },
      {
        extends: true,
        test: { name: 'integration', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, 'test/process/**'] },
      },
      { extends: true, test: { name: 'process', include: ['test/process/**/*.test.ts'] } },
    ],
  },
});
