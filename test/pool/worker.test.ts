/**
 * The solver worker's two task fields beyond the solve itself (src/pool/worker.ts), on real
 * threads: `key` (a thread keeps the model of its last keyed task for the next task of the same
 * key: the epochs of `solveParallel`) and `deadline` (an absolute cap on the time limit).
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { SolveOptions } from '../../src/model/input.js';
import { SolverPool } from '../../src/pool/pool.js';
import { solve } from '../../src/solver/solve.js';
import { assertFeasible } from '../helpers/checker.js';
import { randomProblem } from '../helpers/problems.js';

const pool = new SolverPool({ threads: 1 });
afterAll(() => pool.destroy());

describe('the solver worker', () => {
  it('keyed tasks of one solve: the model is reused, and each answer is the one of a solve of its own (fixed iterations), warm starts included', async () => {
    const p = randomProblem({ orders: 40, vehicles: 5, seed: 12, windows: true });
    const q = randomProblem({ orders: 30, vehicles: 4, seed: 13, windows: true });
    const first: SolveOptions = { iterations: 200, seed: 4, validate: false };
    const a = await pool.run({ problem: p, options: first, key: 'solve-a' });
    const second: SolveOptions = { iterations: 200, seed: 5, validate: false, initialRoutes: a.routes.map((r) => ({ vehicleId: r.vehicleId, orderIds: r.stops.map((s) => s.orderId) })) };
    const b = await pool.run({ problem: p, options: second, key: 'solve-a' });
    // another key on the same thread builds its own model: a different problem answers for itself
    const c = await pool.run({ problem: q, options: first, key: 'solve-b' });
    for (const [input, options, r] of [[p, first, a], [p, second, b], [q, first, c]] as const) {
      assertFeasible(input, r);
      const own = solve(input, options);
      expect(r.routes).toEqual(own.routes);
      expect(r.distance).toBe(own.distance);
    }
  });

  it('a task whose absolute deadline has passed stops at once, whatever its time limit, with a feasible answer', async () => {
    const p = randomProblem({ orders: 60, vehicles: 6, seed: 3, windows: true });
    // without the deadline this task would search for ten minutes (the test's timeout is one)
    const r = await pool.run({ problem: p, options: { timeLimit: 600, seed: 1 }, deadline: Date.now() - 1_000 });
    assertFeasible(p, r);
    expect(r.stats.elapsedMs).toBeLessThan(600_000);
  });
});
