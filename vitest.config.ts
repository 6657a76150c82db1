import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    pool: 'forks',
    // At least two files at a time: most of the suite waits on the real command, servers and timers
    // rather than computing, and vitest's default (one less than the cores) is one file at a time on
    // a 2-core machine — 565–580 s for the suite there, against about 320 s with two.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    include: ['test/**/*.test.ts'],
    // dist/ built once, the commands run from it (see the file); one real PostgreSQL server for the run
    // (the store suite runs on both engines).
    globalSetup: ['test/setup/compiled.ts', 'test/setup/postgres.ts'],
    // No test reads the developer's settings from the environment (issue 38): see the file.
    setupFiles: ['test/setup/hermetic.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    teardownTimeout: 10_000,
  },
});
