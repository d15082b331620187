/**
 * Relocate and or-opt: move the segment of 1 to `maxLen` consecutive orders starting at u to just
 * after or just before its neighbour v (any route, v's included). All variants of a pair share the
 * matrix reads around u and v; the best feasible one is kept.
 */
import { BaseOperator, distanceBound } from '../operator.js';
import type { SearchSolution } from '../../route/search-solution.js';
import { applyMoveSegment, evalMoveSegment } from './move-segment.js';

export class Relocate extends BaseOperator {
  readonly name: string;
  private q = -1;
  private len = 1;

  /** maxLen > 1 adds or-opt: segments of up to maxLen orders starting at u move too. */
  constructor(readonly maxLen = 1) {
    super();
    this.name = maxLen === 1 ? 'relocate' : `relocate-or-opt-${maxLen}`;
  }

  evaluate(sol: SearchSolution, u: number, v: number, limit = Infinity): number {
    this.evaluations++;
    this.probes(sol);
    const r = sol.routes[sol.routeOf[u]];
    const s = sol.routes[sol.routeOf[v]];
    const i = sol.posOf[u];
    const j = sol.posOf[v];
    const p = sol.p;
    const D = p.dist;
    const n = p.nLoc;
    const L = r.loc;
    const S = s.loc;
    const prevI = L[i - 1];
    const first = L[i];
    const sv = S[j];
    const after = S[j + 1];
    const before = S[j - 1];
    const bounded = limit !== Infinity;
    // the arcs shared by every variant: u's old predecessor, the arcs around v
    const inPrev = bounded ? D[prevI * n + first] : 0;
    const svFirst = bounded ? D[sv * n + first] : 0;
    const beforeFirst = bounded ? D[before * n + first] : 0;
    const svAfter = bounded ? D[sv * n + after] : 0;
    const beforeSv = bounded ? D[before * n + sv] : 0;
    let best = Infinity;
    for (let len = 1; len <= this.maxLen; len++) {
      const last = i + len - 1;
      if (last > r.size) break;
      let tryAfter = true;
      let tryBefore = true;
      if (bounded && !(r !== s && len === r.size)) {
        // O(1) price of each side from the six arcs that change
        const lastLoc = L[last];
        const nextJ = L[last + 1];
        const removal = D[prevI * n + nextJ] - inPrev - D[lastLoc * n + nextJ];
        const cap = Math.min(limit, best);
        tryAfter = distanceBound(sol, removal + svFirst + D[lastLoc * n + after] - svAfter, 0, r, s) < cap;
        tryBefore = distanceBound(sol, removal + beforeFirst + D[lastLoc * n + sv] - beforeSv, 0, r, s) < cap;
      }
      if (tryAfter) {
        const d = evalMoveSegment(sol, this.a, this.b, r, i, len, s, j);
        if (d < best) {
          best = d;
          this.q = j;
          this.len = len;
        }
      }
      if (tryBefore) {
        const d = evalMoveSegment(sol, this.a, this.b, r, i, len, s, j - 1);
        if (d < best) {
          best = d;
          this.q = j - 1;
          this.len = len;
        }
      }
    }
    return best;
  }

  apply(sol: SearchSolution, u: number, v: number): void {
    this.applications++;
    const r = sol.routes[sol.routeOf[u]];
    const s = sol.routes[sol.routeOf[v]];
    applyMoveSegment(sol, r, sol.posOf[u], this.len, s, this.q);
  }
}
