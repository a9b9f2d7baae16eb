import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    // Child-process and browser tests start real servers; two cores do not like many at once.
    maxWorkers: 2,
  },
});
