import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // every serve, worker and demo the suite starts shuts down when its parent dies: a killed test
    // run leaves no server behind (src/cli/lifecycle.ts)
    env: { DP_EXIT_WITH_PARENT: '1' },
    // most of the suite's time is spent waiting (child processes, leases running out, retries,
    // time budgets), not computing: three files at a time on two cores overlap the waits
    maxWorkers: 3,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
