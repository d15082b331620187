/**
 * The oracle the insertion scans are checked against: the cheapest place for one order, found by
 * trying every position of every candidate route (insert, read the route's cost, remove).
 */
import type { SearchRoute } from '../../src/route/search-route.js';
import type { SearchSolution } from '../../src/route/search-solution.js';

/**
 * Cheapest insertion of order `o` into `cands` by trial. `feasibleOnly`: a position that leaves
 * its route infeasible does not count (the scan of a model without penalties).
 */
export function cheapestByTrial(sol: SearchSolution, o: number, cands: readonly SearchRoute[], feasibleOnly = false): { delta: number; route: SearchRoute | null } {
  let delta = Infinity;
  let route: SearchRoute | null = null;
  for (const r of cands) {
    if (!sol.compatible(o, r) || r.nOrd + 1 > sol.p.vMaxOrders[r.vehicle]!) continue;
    for (let pos = 0; pos <= r.size; pos++) {
      const before = r.cost;
      sol.insert(o, r, pos);
      const d = !feasibleOnly || r.feasible() ? r.cost - before : Infinity;
      sol.remove(o);
      if (d < delta) {
        delta = d;
        route = r;
      }
    }
  }
  return { delta, route };
}
