import { afterAll, describe, expect, it } from 'vitest';
import type { JobResult } from '../../src/jobs/ports.js';
import { SolverPool } from '../../src/pool/pool.js';
import { cityStore, loadCity } from '../../bench/jobs-city.js';
import { checkJob, makeService, plan } from './world.js';

const pool = new SolverPool({ threads: 2 });
afterAll(() => pool.destroy());

const city = loadCity();

describe('time budget and the main thread', () => {
  it('the solver keeps its deadline on a job that could use far more time: done, not aborted', async () => {
    const store = cityStore(city, 150);
    const service = makeService(store, pool, { timeBudgetSec: 0.5, abortGraceSec: 20 });
    // the main thread stays free while the worker solves: timers keep firing
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const done = await plan(service, { external_ids: city.orders.slice(0, 150).map((o) => o.externalId!) });
    clearInterval(timer);
    expect(done.error).toBe('');
    checkJob(store, done, city.company.timezone);
    const result = done.result as JobResult;
    expect(result.summary.unassigned_count + store.listRoutes(1).reduce((s, r) => s + r.stops.length - 2, 0)).toBe(150);
    expect(ticks).toBeGreaterThan(0);
  });
});
