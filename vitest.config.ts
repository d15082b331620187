import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // most of the suite's time is spent waiting (child processes, leases running out, retries,
    // time budgets), not computing: three files at a time on two cores overlap the waits
    maxWorkers: 3,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
