/**
 * The shared check of a local-search operator: random (u, v) pairs on a solution, each evaluated
 * pruned and in full, the improving and feasible ones applied; after each move the cost computed
 * from scratch moved by exactly the predicted delta, and every order is on exactly one route.
 */
import { expect } from 'vitest';
import type { SearchSolution } from '../../src/route/search-solution.js';
import type { Operator } from '../../src/search/operator.js';
import type { Rng } from '../../src/solver/rng.js';

/** The solution's cost with every route rebuilt from its orders. */
export function fromScratchCost(sol: SearchSolution): number {
  let c = 0;
  for (const r of sol.routes) {
    r.update();
    c += r.cost;
  }
  return c;
}

/** Runs up to 3,000 pairs or 60 applied moves; returns how many were evaluated and applied. */
export function exerciseOperator(
  sol: SearchSolution,
  op: Operator,
  rng: Rng,
  options: { penalised?: boolean; prunedDigits: number },
): { evaluated: number; applied: number } {
  const p = sol.p;
  let applied = 0;
  let evaluated = 0;
  for (let t = 0; t < 3000 && applied < 60; t++) {
    const u = rng.int(p.nOrders);
    const v = rng.int(p.nOrders);
    if (u === v || sol.routeOf[u] < 0 || sol.routeOf[v] < 0) continue;
    const before = fromScratchCost(sol);
    // the pruned evaluation the search uses agrees with the full one below its limit
    const pruned = op.evaluate(sol, u, v, 0);
    const delta = op.evaluate(sol, u, v);
    if (delta < -1e-9) expect(pruned).toBeCloseTo(delta, options.prunedDigits);
    else expect(pruned >= -1e-9).toBe(true); // no improvement claimed where there is none
    evaluated++;
    if (!Number.isFinite(delta)) continue;
    op.apply(sol, u, v);
    applied++;
    expect(fromScratchCost(sol) - before).toBeCloseTo(delta, 6);
    if (!options.penalised) expect(sol.feasible()).toBe(true);
    // every order exactly once, indexes consistent
    const seen = new Array(p.nOrders).fill(0);
    for (const r of sol.routes)
      for (let i = 1; i <= r.size; i++) {
        seen[r.ord[i]]++;
        expect(sol.routeOf[r.ord[i]]).toBe(r.index);
        expect(sol.posOf[r.ord[i]]).toBe(i);
      }
    for (let o = 0; o < p.nOrders; o++) expect(seen[o] + (sol.routeOf[o] < 0 ? 1 : 0)).toBe(1);
  }
  return { evaluated, applied };
}
