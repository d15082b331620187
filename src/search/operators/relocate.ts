/** Relocate: move order u just after or just before its neighbour v (any route, v's included). */
import { BaseOperator } from '../operator.js';
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
    const after = evalMoveSegment(sol, this.a, this.b, r, i, this.len, s, j, limit);
    const before = evalMoveSegment(sol, this.a, this.b, r, i, this.len, s, j - 1, limit);
    this.q = after <= before ? j : j - 1;
    return Math.min(after, before);
  }

  apply(sol: SearchSolution, u: number, v: number): void {
    this.applications++;
    const r = sol.routes[sol.routeOf[u]];
    const s = sol.routes[sol.routeOf[v]];
    applyMoveSegment(sol, r, sol.posOf[u], this.len, s, this.q);
  }
}
