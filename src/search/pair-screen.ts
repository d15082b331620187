/**
 * The loop's four operators' distance bounds for a pair (u, v), in one place: which of relocate /
 * or-opt, swap, 2-opt* and 2-opt could improve. A pair that none could improve is skipped without
 * calling the operators, and of the others only those that could are called; the search is the
 * same: each bound here is the operator's own (the same terms, in the same order, so the same
 * number to the last bit), and an operator passes whenever it would go on to a segment check.
 *
 * Why: in the local search after a recreate about four pairs in five fail every bound (the 500-order
 * city: 3,914 pairs an iteration, 836 with a segment check), and four operator calls cost several
 * times what the bounds themselves do (the calls are polymorphic, and each reads its routes anew).
 * What depends on u alone (its route, its arcs, the removal side of relocate) is read once per u.
 */
import type { SearchSolution } from '../route/search-solution.js';
import type { SearchRoute } from '../route/search-route.js';
import type { Operator } from './operator.js';
import { Relocate, removalSide } from './operators/relocate.js';
import { Swap, swapDistanceDelta } from './operators/swap.js';
import { TwoOpt, twoOptDistanceDelta } from './operators/two-opt.js';
import { TwoOptStar, twoOptStarDistanceDelta } from './operators/two-opt-star.js';

export class PairScreen {
  /** Relocate's longest segment (or-opt). */
  private readonly maxLen: number;
  /** u's numbers, read once per u (and again when its route changes). */
  private u = -1;
  private r: SearchRoute | null = null;
  private version = -1;
  private readonly rem: Float64Array;

  /** Each operator's bit in a mask: 1 << its index in the operator list. */
  private readonly relocateBit: number;
  private readonly swapBit: number;
  private readonly twoOptStarBit: number;
  private readonly twoOptBit: number;

  private constructor(maxLen: number, bits: number[]) {
    this.maxLen = maxLen;
    this.rem = new Float64Array(maxLen + 1);
    [this.relocateBit, this.swapBit, this.twoOptStarBit, this.twoOptBit] = bits;
  }

  /**
   * A screen for exactly these operators (the loop's default four: relocate with or-opt, swap,
   * 2-opt*, 2-opt, in any order), or null: other operator sets are not screened.
   */
  static for(operators: Operator[]): PairScreen | null {
    if (operators.length !== 4) return null;
    let maxLen = 0;
    const bits = [0, 0, 0, 0];
    operators.forEach((op, x) => {
      const kind = [Relocate, Swap, TwoOptStar, TwoOpt].findIndex((k) => op.constructor === k);
      if (kind >= 0) bits[kind] = 1 << x;
      if (kind === 0) maxLen = (op as Relocate).maxLen;
    });
    return bits.every((b) => b !== 0) ? new PairScreen(maxLen, bits) : null;
  }

  /** Whether the screen applies to sol's cost model: the bounds hold only for distance costs. */
  static active(sol: SearchSolution): boolean {
    return sol.costs.perDuration === 0;
  }

  /**
   * The operators that could find a move below `limit` for (u, v), both routed: bit 1 << x for
   * operator x of the list; 0 when none could.
   */
  mask(sol: SearchSolution, u: number, v: number, limit: number): number {
    const p = sol.p;
    const D = p.dist;
    const n = p.nLoc;
    const sym = p.symmetric;
    const c = sol.costs;
    const perDistance = c.perDistance;
    const noVehicle = c.perVehicle * 0;
    const routes = sol.routes;
    const routeOf = sol.routeOf;
    const posOf = sol.posOf;
    const r = routes[routeOf[u]];
    const s = routes[routeOf[v]];
    const i = posOf[u];
    const j = posOf[v];
    const L = r.loc;
    const S = s.loc;
    const rem = this.rem;
    if (u !== this.u || r !== this.r || r.version !== this.version) {
      // relocate's removal side, as Relocate computes it
      this.u = u;
      this.r = r;
      this.version = r.version;
      removalSide(rem, r, i, this.maxLen, D, n);
    }
    let shed = 0;
    shed += r.penalty;
    if (s !== r) shed += s.penalty;
    // relocate's own, tighter shed (Relocate.evaluate): of the cost of kept orders away from their
    // vehicle only what the moved segment carries
    // (the same terms in the same order as there, so the same number to the last bit)
    const perMoved = c.perMoved;
    const unitsMax = sol.p.keptUnitsMax;
    let relShed = 0;
    relShed += r.penalty - perMoved * r.moved;
    if (s !== r) relShed += s.penalty - perMoved * s.moved;

    // relocate / or-opt (Relocate.evaluate): u's segment after or before v
    const first = L[i];
    const sv = S[j];
    const after = S[j + 1];
    const before = S[j - 1];
    const svFirst = sym ? D[first * n + sv] : D[sv * n + first];
    const beforeFirst = sym ? D[first * n + before] : D[before * n + first];
    const svAfter = s.arcDist[j + 1];
    const beforeSv = s.arcDist[j];
    let mask = 0;
    for (let len = 1; len <= this.maxLen; len++) {
      const last = i + len - 1;
      if (last > r.size) break;
      const removal = rem[len];
      const lastLoc = L[last];
      const lastSv = len === 1 && sym ? svFirst : D[lastLoc * n + sv];
      const shedLen = s !== r && perMoved !== 0 ? relShed + perMoved * Math.min(len * unitsMax, r.moved) : relShed;
      if (
        // the whole of r onto s: no bound (the operator checks it in full)
        (r !== s && len === r.size) ||
        perDistance * (removal + svFirst + D[lastLoc * n + after] - svAfter) + noVehicle - shedLen < limit ||
        perDistance * (removal + beforeFirst + lastSv - beforeSv) + noVehicle - shedLen < limit
      ) {
        mask = this.relocateBit;
        break;
      }
    }

    // swap (Swap.evaluate): next to each other in one route, no bound
    if (r === s && Math.abs(i - j) <= 1) mask |= this.swapBit;
    else if (!(perDistance * swapDistanceDelta(p, r, i, s, j) + noVehicle - shed >= limit)) mask |= this.swapBit;

    if (r !== s) {
      // 2-opt* (TwoOptStar.evaluate)
      if (j === 1 && i === r.size) return mask | this.twoOptStarBit;
      return perDistance * twoOptStarDistanceDelta(p, r, i, s, j) + noVehicle - shed >= limit ? mask : mask | this.twoOptStarBit;
    }

    // 2-opt (TwoOpt.evaluate), one route
    const x = Math.min(i, j);
    const y = Math.max(i, j);
    if (y - x < 2) return mask;
    if (!sym) return mask | this.twoOptBit;
    return perDistance * twoOptDistanceDelta(p, r, x, y) + noVehicle - shed >= limit ? mask : mask | this.twoOptBit;
  }
}
