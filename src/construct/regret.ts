/**
 * Regret insertion of leftover orders: repeatedly place the order whose best insertion beats its
 * second best (in another route) by the most, at its best position. Per (order, route) results are
 * cached against the route's version, so each round only re-examines the route that changed.
 * Orders with no feasible position anywhere stay out and are returned.
 */
import { RouteProbe } from '../route/probe.js';
import { bestInRoute, insertAt, newChoice } from '../route/insertion.js';
import type { SearchRoute } from '../route/search-route.js';
import type { SearchSolution } from '../route/search-solution.js';

export function regretInsert(
  sol: SearchSolution,
  orders: number[],
  probe = new RouteProbe(sol.p, sol.costs),
  regretWeight = 1,
  /** Checked every round: when it says stop, the orders not yet placed are returned as they are. */
  timeUp?: () => boolean,
): number[] {
  const R = sol.routes.length;
  const remaining = orders.slice();
  const cacheDelta = new Float64Array(sol.p.nOrders * R);
  const cachePos = new Int32Array(sol.p.nOrders * R);
  const cacheReload = new Uint8Array(sol.p.nOrders * R);
  const cacheVer = new Float64Array(sol.p.nOrders * R).fill(-1);
  const choice = newChoice();
  const cands: SearchRoute[] = [];
  const out: number[] = [];
  while (remaining.length > 0) {
    if (timeUp !== undefined && timeUp()) return out.concat(remaining);
    sol.candidateRoutes(cands);
    let pick = -1;
    let pickScore = -Infinity;
    let pickRoute: SearchRoute | null = null;
    let pickPos = -1;
    let pickReload = 0;
    for (let idx = 0; idx < remaining.length; idx++) {
      const o = remaining[idx];
      let best = Infinity;
      let second = Infinity;
      let bestR: SearchRoute | null = null;
      let bestPos = -1;
      let bestReload = 0;
      for (const r of cands) {
        const key = o * R + r.index;
        if (cacheVer[key] !== r.version) {
          bestInRoute(sol, probe, o, r, choice);
          cacheDelta[key] = choice.delta;
          cachePos[key] = choice.pos;
          cacheReload[key] = choice.reload;
          cacheVer[key] = r.version;
        }
        const d = cacheDelta[key];
        if (d < best) {
          second = best;
          best = d;
          bestR = r;
          bestPos = cachePos[key];
          bestReload = cacheReload[key];
        } else if (d < second) second = d;
      }
      if (bestR === null) continue;
      // An order with a single option goes first: it has the most to lose.
      const score = second === Infinity ? 1e300 - best : regretWeight * (second - best) - best;
      if (score > pickScore) {
        pickScore = score;
        pick = idx;
        pickRoute = bestR;
        pickPos = bestPos;
        pickReload = bestReload;
      }
    }
    if (pick < 0) {
      out.push(...remaining);
      break;
    }
    const o = remaining[pick];
    remaining.splice(pick, 1);
    insertAt(sol, o, pickRoute!, pickPos, pickReload);
  }
  return out;
}
