import { describe, expect, it } from 'vitest';
import { solveParallel } from '../../src/index.js';
import { assertFeasible } from '../helpers/checker.js';
import { solomon } from '../helpers/problems.js';

describe('solveParallel', () => {
  it('runs two worker threads, returns a feasible solution, reproducible under an iteration budget', async () => {
    const p = solomon('RC105');
    const a = await solveParallel(p, { threads: 2, iterations: 4000, seed: 4 });
    const b = await solveParallel(p, { threads: 2, iterations: 4000, seed: 4 });
    assertFeasible(p, a);
    expect(a.unassigned).toEqual([]);
    expect(a.routes.map((r) => r.stops.map((s) => s.orderId))).toEqual(b.routes.map((r) => r.stops.map((s) => s.orderId)));
    expect(a.distance).toBe(b.distance);
  });

  it('keeps to a time limit and answers', async () => {
    const p = solomon('R201');
    const r = await solveParallel(p, { threads: 2, timeLimit: 1, seed: 1 });
    assertFeasible(p, r);
    expect(r.unassigned).toEqual([]);
  });
});
