/**
 * 2-opt*: exchange route tails. Route of u keeps its head up to u and continues with v and the
 * rest of v's route; v's route keeps its head before v and continues with u's old tail. Each
 * route keeps its own vehicle and end depot. Makes u -> v adjacent.
 */
import { BaseOperator, rangeCompatible } from '../operator.js';
import type { SearchSolution } from '../../route/search-solution.js';

export class TwoOptStar extends BaseOperator {
  readonly name = 'two-opt-star';

  evaluate(sol: SearchSolution, u: number, v: number): number {
    this.evaluations++;
    const r = sol.routes[sol.routeOf[u]];
    const s = sol.routes[sol.routeOf[v]];
    if (r === s) return Infinity;
    this.probes(sol);
    const i = sol.posOf[u];
    const j = sol.posOf[v];
    if (!rangeCompatible(sol, s, j, s.size, r.vehicle) || !rangeCompatible(sol, r, i + 1, r.size, s.vehicle)) return Infinity;
    const a = this.a;
    a.prefix(r, i).range(s, j, s.size).finish();
    if (!a.feasible) return Infinity;
    const b = this.b;
    b.prefix(s, j - 1).range(r, i + 1, r.size).finish();
    if (!b.feasible) return Infinity;
    return a.cost + b.cost - r.cost - s.cost;
  }

  apply(sol: SearchSolution, u: number, v: number): void {
    this.applications++;
    const r = sol.routes[sol.routeOf[u]];
    const s = sol.routes[sol.routeOf[v]];
    const i = sol.posOf[u];
    const j = sol.posOf[v];
    const ro = r.orders();
    const so = s.orders();
    sol.setRoute(r, [...ro.slice(0, i), ...so.slice(j - 1)]);
    sol.setRoute(s, [...so.slice(0, j - 1), ...ro.slice(i)]);
  }
}
