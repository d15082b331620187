/** Relocate: move order u just after or just before its neighbour v (any route, v's included). */
import { BaseOperator, distanceBound } from '../operator.js';
import type { SearchSolution } from '../../route/search-solution.js';
import { applyMoveSegment, evalMoveSegment } from './move-segment.js';

export class Relocate extends BaseOperator {
  readonly name: string;
  private q = -1;

  /** len > 1 gives or-opt: the segment of len orders starting at u moves. */
  constructor(readonly len = 1) {
    super();
    this.name = len === 1 ? 'relocate' : `or-opt-${len}`;
  }

  evaluate(sol: SearchSolution, u: number, v: number, limit = Infinity): number {
    this.evaluations++;
    this.probes(sol);
    const r = sol.routes[sol.routeOf[u]];
    const s = sol.routes[sol.routeOf[v]];
    const i = sol.posOf[u];
    const j = sol.posOf[v];
    const last = i + this.len - 1;
    if (last > r.size) return Infinity;
    let tryAfter = true;
    let tryBefore = true;
    if (limit !== Infinity && !(r !== s && this.len === r.size)) {
      // O(1) price of each side from the six arcs that change; the three of the removal are shared
      const p = sol.p;
      const D = p.dist;
      const n = p.nLoc;
      const L = r.loc;
      const prevI = L[i - 1];
      const first = L[i];
      const lastLoc = L[last];
      const nextJ = L[last + 1];
      const removal = D[prevI * n + nextJ] - D[prevI * n + first] - D[lastLoc * n + nextJ];
      const S = s.loc;
      const sv = S[j];
      const after = S[j + 1];
      const before = S[j - 1];
      tryAfter = distanceBound(sol, removal + D[sv * n + first] + D[lastLoc * n + after] - D[sv * n + after], 0, r, s) < limit;
      tryBefore = distanceBound(sol, removal + D[before * n + first] + D[lastLoc * n + sv] - D[before * n + sv], 0, r, s) < limit;
    }
    const afterDelta = tryAfter ? evalMoveSegment(sol, this.a, this.b, r, i, this.len, s, j) : Infinity;
    const beforeDelta = tryBefore ? evalMoveSegment(sol, this.a, this.b, r, i, this.len, s, j - 1) : Infinity;
    this.q = afterDelta <= beforeDelta ? j : j - 1;
    return Math.min(afterDelta, beforeDelta);
  }

  apply(sol: SearchSolution, u: number, v: number): void {
    this.applications++;
    const r = sol.routes[sol.routeOf[u]];
    const s = sol.routes[sol.routeOf[v]];
    applyMoveSegment(sol, r, sol.posOf[u], this.len, s, this.q);
  }
}
