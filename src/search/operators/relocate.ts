/**
 * Relocate and or-opt: move the segment of 1 to `maxLen` consecutive orders starting at u to just
 * after or just before its neighbour v (any route, v's included). All variants of a pair share the
 * matrix reads around u and v; the best feasible one is kept.
 */
import { BaseOperator, probesStale } from '../operator.js';
import type { SearchSolution } from '../../route/search-solution.js';
import type { SearchRoute } from '../../route/search-route.js';
import { applyMoveSegment, evalMoveSegment } from './move-segment.js';
import type { MatrixArray } from '../../model/matrix.js';

export class Relocate extends BaseOperator {
  readonly name: string;
  private q = -1;
  private len = 1;
  /**
   * The removal side of the distance bound (the arcs around the segment of each length), which
   * depends only on u: the local search tries u against its neighbours one after another, so it
   * is computed once per u and kept while u's route is unchanged (same route, same version).
   */
  private remU = -1;
  private remRoute: SearchRoute | null = null;
  private remVersion = -1;
  private readonly removal: Float64Array;

  /** maxLen > 1 adds or-opt: segments of up to maxLen orders starting at u move too. */
  constructor(readonly maxLen = 1) {
    super();
    this.removal = new Float64Array(maxLen + 1);
    this.name = maxLen === 1 ? 'relocate' : `relocate-or-opt-${maxLen}`;
  }

  evaluate(sol: SearchSolution, u: number, v: number, limit = Infinity): number {
    this.evaluations++;
    if (probesStale(this.a, sol)) this.newProbes(sol);
    const r = sol.routes[sol.routeOf[u]];
    const s = sol.routes[sol.routeOf[v]];
    const i = sol.posOf[u];
    const j = sol.posOf[v];
    const p = sol.p;
    const D = p.dist;
    const n = p.nLoc;
    const L = r.loc;
    const S = s.loc;
    const first = L[i];
    const sv = S[j];
    const after = S[j + 1];
    const before = S[j - 1];
    const bounded = limit !== Infinity;
    // the arcs shared by every variant: the arcs around v (the routes' own arcs from arcDist: the
    // same matrix entries; with a symmetric matrix the new ones from u's row, which stays in cache
    // over u's neighbours); the arcs around u's segments are in the removal cache below
    const sym = p.symmetric;
    const svFirst = bounded ? (sym ? D[first * n + sv] : D[sv * n + first]) : 0;
    const beforeFirst = bounded ? (sym ? D[first * n + before] : D[before * n + first]) : 0;
    const svAfter = bounded ? s.arcDist[j + 1] : 0;
    const beforeSv = bounded ? s.arcDist[j] : 0;
    // distanceBound(sol, x, 0, r, s) is perDistance * x + perVehicle * 0 - shed, -Infinity with a
    // duration weight: its terms read once here, the same arithmetic below
    const c = sol.costs;
    const byDistance = c.perDuration === 0;
    const perDistance = c.perDistance;
    const noVehicle = c.perVehicle * 0;
    // what a move could shed: the routes' time and load penalties, and of their cost of kept orders
    // away from their vehicle only what the moved segment carries (at most keptUnitsMax a moved order,
    // none within a route): relocateShed
    const perMoved = c.perMoved;
    const unitsMax = sol.p.keptUnitsMax;
    let shed = 0;
    shed += r.penalty - perMoved * r.moved;
    if (s !== r) shed += s.penalty - perMoved * s.moved;
    const rem = this.removal;
    if (bounded && byDistance && (u !== this.remU || r !== this.remRoute || r.version !== this.remVersion)) {
      this.remU = u;
      this.remRoute = r;
      this.remVersion = r.version;
      removalSide(rem, r, i, this.maxLen, D, n);
    }
    let best = Infinity;
    for (let len = 1; len <= this.maxLen; len++) {
      const last = i + len - 1;
      if (last > r.size) break;
      let tryAfter = true;
      let tryBefore = true;
      if (bounded && !(r !== s && len === r.size)) {
        // O(1) price of each side from the six arcs that change
        const cap = Math.min(limit, best);
        if (byDistance) {
          const shedLen = s !== r && perMoved !== 0 ? shed + perMoved * Math.min(len * unitsMax, r.moved) : shed;
          const removal = rem[len];
          const lastLoc = L[last];
          tryAfter = perDistance * (removal + svFirst + D[lastLoc * n + after] - svAfter) + noVehicle - shedLen < cap;
          // a single order, symmetric matrix: D[first * n + sv] is svFirst, already read
          const lastSv = len === 1 && sym ? svFirst : D[lastLoc * n + sv];
          tryBefore = perDistance * (removal + beforeFirst + lastSv - beforeSv) + noVehicle - shedLen < cap;
        } else {
          tryAfter = -Infinity < cap;
          tryBefore = -Infinity < cap;
        }
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

/**
 * The removal side of relocate's distance bound for the segments starting at position i of r:
 * rem[len] is the arc that closes the gap less the two arcs around the segment of len orders
 * (the routes' own arcs from arcDist), for len = 1..maxLen while the segment fits the route.
 */
export function removalSide(rem: Float64Array, r: SearchRoute, i: number, maxLen: number, D: MatrixArray, n: number): void {
  const L = r.loc;
  const ad = r.arcDist;
  const prevI = L[i - 1];
  const inPrev = ad[i];
  for (let len = 1; len <= maxLen; len++) {
    const last = i + len - 1;
    if (last > r.size) break;
    rem[len] = D[prevI * n + L[last + 1]] - inPrev - ad[last + 1];
  }
}
