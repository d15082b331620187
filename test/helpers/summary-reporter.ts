import type { Reporter, TestModule } from 'vitest/node';
import { CHROMIUM, chromiumAvailable, reachable, REDIS_HOST, REDIS_PORT } from './environment.js';
import { probePostgres } from './postgres-probe.js';

/**
 * Prints one plain closing line, `vitest: N passed, N failed[, N skipped]`, after the run, so
 * that any reader of the log (CI included) sees the count without parsing vitest's own summary.
 * When the PostgreSQL suites were skipped for want of a server, the line says so:
 * `vitest: N passed, N failed, N skipped (PostgreSQL suites skipped: no PostgreSQL at URL ...)`;
 * likewise for Redis (the request-limit tests across processes) and Chromium (the dispatcher page).
 */
export default class SummaryReporter implements Reporter {
  private postgres: Promise<{ available: boolean; reason: string }> | undefined;

  onInit(): void {
    this.postgres = probePostgres();
  }

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): Promise<void> {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const module of testModules) {
      let failedHere = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failedHere++;
        else skipped++;
      }
      // a file that failed with no failed test (it did not load, or a hook failed) counts once
      failed += failedHere > 0 ? failedHere : module.state() === 'failed' ? 1 : 0;
    }
    const tail = skipped > 0 ? `, ${skipped} skipped` : '';
    const pg = await (this.postgres ?? probePostgres());
    const ranPostgres = testModules.some((m) => /postgres/i.test(m.moduleId));
    const ran = (pattern: RegExp) => testModules.some((m) => pattern.test(m.moduleId));
    const notes: string[] = [];
    // the PostgreSQL suites run inside most HTTP and e2e files (one describe per store)
    if (!pg.available && (ran(/postgres/i) || ran(/test\/(http|e2e|store)\//))) notes.push(`PostgreSQL suites ${pg.reason}`);
    if (ran(/redis/i) && !(await reachable(REDIS_PORT, REDIS_HOST))) notes.push(`Redis suites skipped: no Redis at ${REDIS_HOST}:${REDIS_PORT}`);
    if (ran(/dispatcher-page/) && !chromiumAvailable()) notes.push(`browser test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);
    const note = notes.length > 0 ? ` (${notes.join('; ')})` : '';
    process.stdout.write(`\nvitest: ${passed} passed, ${failed} failed${tail}${note}\n`);
  }
}
