/**
 * Intra-route 2-opt: reverse the stretch between u and v so they become adjacent. With u before
 * v the orders after u up to v are reversed (u -> v); with v before u the orders after v up to u
 * are reversed (v -> u). The reversed stretch is merged visit by visit: O(its length).
 */
import { BaseOperator, distanceBound, probesStale } from '../operator.js';
import type { Problem } from '../../model/problem.js';
import type { SearchRoute } from '../../route/search-route.js';
import type { SearchSolution } from '../../route/search-solution.js';

export class TwoOpt extends BaseOperator {
  readonly name = 'two-opt';

  evaluate(sol: SearchSolution, u: number, v: number, limit = Infinity): number {
    this.evaluations++;
    const r = sol.routes[sol.routeOf[u]];
    if (sol.routeOf[v] !== sol.routeOf[u]) return Infinity;
    if (probesStale(this.a, sol)) this.newProbes(sol);
    const i = sol.posOf[u];
    const j = sol.posOf[v];
    const x = Math.min(i, j);
    const y = Math.max(i, j);
    if (y - x < 2) return Infinity;
    const p = sol.p;
    if (limit !== Infinity && p.symmetric) {
      if (distanceBound(sol, twoOptDistanceDelta(p, r, x, y), 0, r) >= limit) return Infinity;
    }
    const a = this.a;
    a.prefix(r, x).reversed(r, x + 1, y).finishSuffix(r, y + 1);
    if (!a.feasible) return Infinity;
    return a.cost - r.cost;
  }

  apply(sol: SearchSolution, u: number, v: number): void {
    this.applications++;
    const r = sol.routes[sol.routeOf[u]];
    const i = sol.posOf[u];
    const j = sol.posOf[v];
    const x = Math.min(i, j);
    const y = Math.max(i, j);
    const ro = r.orders();
    const mid = ro.slice(x, y).reverse(); // positions x+1..y
    sol.setRoute(r, [...ro.slice(0, x), ...mid, ...ro.slice(y)]);
  }
}

/**
 * The distance change of reversing positions x + 1..y of r (x < y - 1), symmetric distances only:
 * the two arcs removed are the route's own (arcDist: the same matrix entries).
 */
export function twoOptDistanceDelta(p: Problem, r: SearchRoute, x: number, y: number): number {
  const D = p.dist;
  const n = p.nLoc;
  const L = r.loc;
  return D[L[x] * n + L[y]] + D[L[x + 1] * n + L[y + 1]] - r.arcDist[x + 1] - r.arcDist[y + 1];
}
