/**
 * The solver worker's two task fields beyond the solve itself (src/pool/worker.ts), on real
 * threads: `key` (a thread keeps the model of its last keyed task for the next task of the same
 * key: the epochs of `solveParallel`) and `deadline` (an absolute cap on the time limit); and
 * `cpuClock` (the time limit counts the thread's CPU time: benchmarks on a busy machine), with the
 * CPU time every answer reports (`cpuMs`).
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { SolveOptions } from '../../src/model/input.js';
import type { SolveTaskResult } from '../../src/pool/messages.js';
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

  it('a task on a CPU clock: its solve stops on its CPU time, scaled by the share, and the answer names the CPU time its thread spent', async () => {
    const p = randomProblem({ orders: 60, vehicles: 6, seed: 5, windows: true });
    // a deadline long past is not applied to a task on a CPU clock. The budget (0.4 s on the
    // clock, 200 ms of the thread's CPU) leaves room for iterations after the start of a cold
    // thread (its construction on code not yet compiled): with 0.05 s (25 ms of CPU) a cold
    // worker at load 15 ended inside its construction, with no iteration
    const r = (await pool.run({ problem: p, options: { timeLimit: 0.4, seed: 1 }, cpuClock: 0.5, deadline: Date.now() - 1_000 })) as SolveTaskResult;
    assertFeasible(p, r);
    expect(r.stats.iterations).toBeGreaterThan(0);
    // the solve's clock is the thread's CPU time / 0.5: it ran until that clock passed 400 ms,
    // which is at least 200 ms of the thread's CPU (each reading of the clock lags by at most 1 ms)
    expect(r.stats.elapsedMs).toBeGreaterThanOrEqual(400);
    expect(r.cpuMs).toBeGreaterThanOrEqual(r.stats.elapsedMs * 0.5 - 2);
    // and a task on the wall clock reports its CPU time too
    const w = (await pool.run({ problem: p, options: { iterations: 20, seed: 1 } })) as SolveTaskResult;
    expect(w.cpuMs).toBeGreaterThan(0);
  });

  it('a task asked to stop before its thread began it (a spare seed or warm-up a solve overtook) fails at once, and the thread serves the next task', async () => {
    const p = randomProblem({ orders: 40, vehicles: 5, seed: 21, windows: true });
    const flag = new Int32Array(new SharedArrayBuffer(4));
    Atomics.store(flag, 0, 1);
    // ten minutes of search if it ran (the test's timeout is one)
    await expect(pool.run({ problem: p, options: { timeLimit: 600, seed: 1 }, stop: flag.buffer as SharedArrayBuffer })).rejects.toThrow(/stopped before it began/);
    const r = await pool.run({ problem: p, options: { iterations: 50, seed: 1 } });
    assertFeasible(p, r);
    expect(r.unassigned).toHaveLength(0);
  });
});
