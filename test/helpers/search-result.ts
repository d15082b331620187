/**
 * A search solution as the engine's result, so the independent checker can judge solutions built
 * inside the search (construction, local search, ruin-and-recreate) without going through solve.
 */
import type { ProblemInput, SolveResult } from '../../src/model/input.js';
import type { SearchSolution } from '../../src/route/search-solution.js';
import { exportRoutes } from '../../src/solver/result.js';
import { assertFeasible } from './checker.js';

export function resultOf(input: ProblemInput, sol: SearchSolution): SolveResult {
  const routes = exportRoutes(sol.p, sol);
  return {
    routes,
    distance: routes.reduce((a, r) => a + r.distance, 0),
    duration: routes.reduce((a, r) => a + r.duration, 0),
    vehicles: routes.length,
    // the reason is not under test here; the checker counts each unassigned order once
    unassigned: sol.unassigned().map((o) => ({ orderId: input.orders[o].id, reason: 'capacity' as const })),
    stats: { elapsedMs: 0, iterations: 0 },
  };
}

/** Throws unless the search solution passes the independent checker. */
export function assertSearchFeasible(input: ProblemInput, sol: SearchSolution): void {
  assertFeasible(input, resultOf(input, sol));
}
