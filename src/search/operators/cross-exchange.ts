/**
 * Cross-exchange: the segment of `lu` orders starting at u and the segment of `lv` orders starting
 * at v swap routes, each keeping its direction ((2, 1) and (2, 2) by default; (1, 1) is `swap`).
 */
import { BaseOperator, distanceBound, rangeCompatible } from '../operator.js';
import type { SearchSolution } from '../../route/search-solution.js';

const EPS = 1e-6;

export class CrossExchange extends BaseOperator {
  readonly name: string;

  constructor(
    readonly lu = 2,
    readonly lv = 1,
  ) {
    super();
    this.name = `cross-exchange-${lu}-${lv}`;
  }

  evaluate(sol: SearchSolution, u: number, v: number, limit = Infinity): number {
    this.evaluations++;
    const r = sol.routes[sol.routeOf[u]];
    const s = sol.routes[sol.routeOf[v]];
    if (r === s) return Infinity;
    const i = sol.posOf[u];
    const j = sol.posOf[v];
    const ie = i + this.lu - 1;
    const je = j + this.lv - 1;
    if (ie > r.size || je > s.size) return Infinity;
    const p = sol.p;
    if (limit !== Infinity) {
      const D = p.dist;
      const n = p.nLoc;
      const R = r.loc;
      const S = s.loc;
      const dd =
        D[R[i - 1] * n + S[j]] + D[S[je] * n + R[ie + 1]] - D[R[i - 1] * n + R[i]] - D[R[ie] * n + R[ie + 1]] +
        D[S[j - 1] * n + R[i]] + D[R[ie] * n + S[je + 1]] - D[S[j - 1] * n + S[j]] - D[S[je] * n + S[je + 1]];
      if (distanceBound(sol, dd, 0, r, s) >= limit) return Infinity;
    }
    if (!rangeCompatible(sol, r, i, ie, s.vehicle) || !rangeCompatible(sol, s, j, je, r.vehicle)) return Infinity;
    const dw = s.cumW[je] - s.cumW[j - 1] - (r.cumW[ie] - r.cumW[i - 1]);
    const dv = s.cumV[je] - s.cumV[j - 1] - (r.cumV[ie] - r.cumV[i - 1]);
    if (!sol.costs.penalised) {
      if (r.weight + dw > p.vPreW[r.vehicle] + EPS || r.volume + dv > p.vPreV[r.vehicle] + EPS) return Infinity;
      if (s.weight - dw > p.vPreW[s.vehicle] + EPS || s.volume - dv > p.vPreV[s.vehicle] + EPS) return Infinity;
    }
    this.probes(sol);
    const a = this.a;
    a.prefix(r, i - 1).range(s, j, je).finishSuffix(r, ie + 1);
    if (!a.feasible) return Infinity;
    const b = this.b;
    b.prefix(s, j - 1).range(r, i, ie).finishSuffix(s, je + 1);
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
    const segU = ro.slice(i - 1, i - 1 + this.lu);
    const segV = so.slice(j - 1, j - 1 + this.lv);
    sol.setRoute(r, [...ro.slice(0, i - 1), ...segV, ...ro.slice(i - 1 + this.lu)]);
    sol.setRoute(s, [...so.slice(0, j - 1), ...segU, ...so.slice(j - 1 + this.lv)]);
  }
}
