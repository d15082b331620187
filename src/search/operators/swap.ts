/** Swap: orders u and v exchange places (between routes or inside one). */
import { BaseOperator, distanceBound, probesStale } from '../operator.js';
import type { Problem } from '../../model/problem.js';
import type { SearchRoute } from '../../route/search-route.js';
import type { SearchSolution } from '../../route/search-solution.js';

export class Swap extends BaseOperator {
  readonly name = 'swap';

  evaluate(sol: SearchSolution, u: number, v: number, limit = Infinity): number {
    this.evaluations++;
    if (probesStale(this.a, sol)) this.newProbes(sol);
    const p = sol.p;
    const r = sol.routes[sol.routeOf[u]];
    const s = sol.routes[sol.routeOf[v]];
    const i = sol.posOf[u];
    const j = sol.posOf[v];
    const a = this.a;
    if (limit !== Infinity && (r !== s || Math.abs(i - j) > 1)) {
      if (distanceBound(sol, swapDistanceDelta(p, r, i, s, j), 0, r, s) >= limit) return Infinity;
    }
    if (r !== s) {
      if (!sol.compatible(u, s) || !sol.compatible(v, r)) return Infinity;
      const dw = p.oW[v] - p.oW[u];
      const dv = p.oV[v] - p.oV[u];
      if (!sol.costs.penalised) {
        if (r.weight + dw > p.vPreW[r.vehicle] + 1e-6 || r.volume + dv > p.vPreV[r.vehicle] + 1e-6) return Infinity;
        if (s.weight - dw > p.vPreW[s.vehicle] + 1e-6 || s.volume - dv > p.vPreV[s.vehicle] + 1e-6) return Infinity;
      }
      a.prefix(r, i - 1).order(v).finishSuffix(r, i + 1);
      if (!a.feasible) return Infinity;
      const b = this.b;
      b.prefix(s, j - 1).order(u).finishSuffix(s, j + 1);
      if (!b.feasible) return Infinity;
      return a.cost + b.cost - r.cost - s.cost;
    }
    const x = Math.min(i, j);
    const y = Math.max(i, j);
    a.prefix(r, x - 1).order(r.ord[y]).range(r, x + 1, y - 1).order(r.ord[x]).finishSuffix(r, y + 1);
    if (!a.feasible) return Infinity;
    return a.cost - r.cost;
  }

  apply(sol: SearchSolution, u: number, v: number): void {
    this.applications++;
    const r = sol.routes[sol.routeOf[u]];
    const s = sol.routes[sol.routeOf[v]];
    const i = sol.posOf[u];
    const j = sol.posOf[v];
    if (r !== s) {
      const ro = r.orders();
      const so = s.orders();
      ro[i - 1] = v;
      so[j - 1] = u;
      sol.setRoute(r, ro);
      sol.setRoute(s, so);
      return;
    }
    const ro = r.orders();
    ro[i - 1] = v;
    ro[j - 1] = u;
    sol.setRoute(r, ro);
  }
}

/**
 * The distance change of u (position i of r) and v (position j of s) trading places, when they are
 * not next to each other: the four arcs removed are the routes' own (arcDist: the same matrix
 * entries); with a symmetric matrix the new arcs come from the rows of u and its route neighbours.
 */
export function swapDistanceDelta(p: Problem, r: SearchRoute, i: number, s: SearchRoute, j: number): number {
  const D = p.dist;
  const n = p.nLoc;
  const pu = r.loc[i - 1], lu = r.loc[i], nu = r.loc[i + 1];
  const pv = s.loc[j - 1], lv = s.loc[j], nv = s.loc[j + 1];
  const sym = p.symmetric;
  return (
    D[pu * n + lv] +
    (sym ? D[nu * n + lv] : D[lv * n + nu]) -
    r.arcDist[i] -
    r.arcDist[i + 1] +
    (sym ? D[lu * n + pv] : D[pv * n + lu]) +
    D[lu * n + nv] -
    s.arcDist[j] -
    s.arcDist[j + 1]
  );
}
