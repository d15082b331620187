/**
 * 2-opt*: exchange route tails. Route of u keeps its head up to u and continues with v and the
 * rest of v's route; v's route keeps its head before v and continues with u's old tail. Each
 * route keeps its own vehicle and end depot. Makes u -> v adjacent.
 */
import { BaseOperator, distanceBound, rangeCompatible, probesStale } from '../operator.js';
import type { Problem } from '../../model/problem.js';
import type { SearchRoute } from '../../route/search-route.js';
import type { SearchSolution } from '../../route/search-solution.js';

export class TwoOptStar extends BaseOperator {
  readonly name = 'two-opt-star';

  evaluate(sol: SearchSolution, u: number, v: number, limit = Infinity): number {
    this.evaluations++;
    const r = sol.routes[sol.routeOf[u]];
    const s = sol.routes[sol.routeOf[v]];
    if (r === s) return Infinity;
    if (probesStale(this.a, sol)) this.newProbes(sol);
    const i = sol.posOf[u];
    const j = sol.posOf[v];
    if (limit !== Infinity && !(j === 1 && i === r.size)) {
      if (distanceBound(sol, twoOptStarDistanceDelta(sol.p, r, i, s, j), 0, r, s) >= limit) return Infinity;
    }
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

/** The distance change of the tail exchange after u (position i of r) and before v (position j of s). */
export function twoOptStarDistanceDelta(p: Problem, r: SearchRoute, i: number, s: SearchRoute, j: number): number {
  const D = p.dist;
  const n = p.nLoc;
  const endR = p.vEndLoc[r.vehicle];
  const endS = p.vEndLoc[s.vehicle];
  const newR = r.cumDist[i] + D[r.loc[i] * n + s.loc[j]] + s.cumDist[s.size] - s.cumDist[j] + D[s.loc[s.size] * n + endR];
  const newS =
    i < r.size
      ? s.cumDist[j - 1] + D[s.loc[j - 1] * n + r.loc[i + 1]] + r.cumDist[r.size] - r.cumDist[i + 1] + D[r.loc[r.size] * n + endS]
      : s.cumDist[j - 1] + D[s.loc[j - 1] * n + endS];
  return newR + newS - r.distance - s.distance;
}
