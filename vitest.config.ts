import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    pool: 'forks',
    include: ['test/**/*.test.ts'],
    // One real PostgreSQL server for the run (the store suite runs on both engines).
    globalSetup: ['test/setup/postgres.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    teardownTimeout: 10_000,
  },
});
