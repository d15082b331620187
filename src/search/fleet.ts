/**
 * Fleet minimisation by ruin and recreate with absence counters (Christiaens & Vanden Berghe,
 * "Slack induction by string removals", Transportation Science 2020, section 5): take a route out,
 * forbid new routes, and let ruin-and-recreate work its orders back into the others. An order
 * the recreate cannot place stays out; every iteration adds one to the absence counter of each
 * order left out, and a candidate is accepted when it leaves fewer orders out, or orders whose
 * absences add up to less. The counters make the search work on the orders that keep failing:
 * an order hard to place becomes expensive to leave out, so the ruins around it that let it in
 * are kept. Once every order is in again, the smaller fleet is recorded and the next route goes.
 *
 * Strict search only (no penalties): every accepted state is feasible except for the orders left
 * out, so the best is always a feasible solution serving every order.
 *
 * On the short-route classes of Gehring-Homberger (C1, R1, RC1: about 10 orders a route) the
 * distance search keeps 1-6 routes more than the best-known solutions. A smaller fleet found here
 * pays for distance on C1 but not on R1 and RC1 (bench/RESULTS.md, session 13), so the solver
 * uses it under the vehicles objective on large instances, and for distance only when asked.
 */
import type { SearchSolution, Snapshot } from '../route/search-solution.js';
import { RouteCopies } from '../route/route-copies.js';
import type { Random, RuinRecreate } from './perturb.js';

export interface FleetResult {
  /** Routes used before and after. */
  before: number;
  after: number;
  iterations: number;
}

export interface FleetHooks {
  /** Called on each smaller fleet before the next route goes (a local search on distance). */
  polish?: () => void;
  /** Called once per iteration (iteration budgets). */
  tick?: () => void;
  /**
   * How much more the routes may cost in a candidate that leaves out orders with fewer absences
   * (default Infinity: any cost, as in SISR, which lets the routes drift far from short).
   */
  slack?: number;
}

/**
 * Tries to serve every order with fewer routes until `timeUp`. `sol` must serve every order
 * feasibly; it ends as the feasible solution with the fewest routes found (the start if none).
 * Costs must be unpenalised (strict search).
 */
export function minimiseFleet(sol: SearchSolution, rr: RuinRecreate, rng: Random, timeUp: () => boolean, hooks: FleetHooks = {}): FleetResult {
  const p = sol.p;
  const before = sol.usedVehicles();
  const result: FleetResult = { before, after: before, iterations: 0 };
  if (sol.unassignedCount() > 0 || before < 2 || sol.costs.penalised) return result;
  const slack = hooks.slack ?? Infinity;
  const absences = new Float64Array(p.nOrders);
  let best: Snapshot = sol.snapshot();
  const current = new RouteCopies(sol);
  let out: number[] = [];
  let outCost = 0;
  const allowNew = sol.allowNewRoutes;
  sol.allowNewRoutes = false;
  const sum = (orders: number[]) => {
    let s = 0;
    for (const o of orders) s += absences[o];
    return s;
  };
  try {
    while (!timeUp()) {
      if (out.length === 0) {
        // every order is in: a fleet one route smaller stands; take the next route out
        if (sol.usedVehicles() < result.after) {
          hooks.polish?.();
          best = sol.snapshot();
          result.after = sol.usedVehicles();
        }
        if (result.after < 2) break;
        out = rr.recreate(rng, removeRoute(sol, rng));
        current.save();
        outCost = sol.routingCost();
        continue;
      }
      result.iterations++;
      hooks.tick?.();
      // ruin around an order left out half of the time (room where it is needed), else anywhere
      const seed = rng.next() < 0.5 ? out[rng.int(out.length)] : -1;
      // the orders out are on no route, so the ruin never takes them: all go back in the recreate
      const removed = rr.ruin(rng, undefined, seed);
      for (const o of out) removed.push(o);
      const left = rr.recreate(rng, removed);
      for (const o of left) absences[o]++;
      const cost = sol.routingCost();
      const a = sum(left);
      const b = sum(out);
      // fewer orders out; or no more of them, with fewer absences, at a routing cost at most
      // `slack` above (without a cap on their number the out set grows to hundreds of orders on
      // the capacity-bound C1_10_8 and every recreate crawls); or the same orders out for less
      if (left.length < out.length || (left.length === out.length && (a < b ? cost <= outCost + slack : cost < outCost))) {
        current.save();
        out = left;
        outCost = cost;
      } else current.restore(() => {});
    }
    // a smaller fleet reached by the last iteration before the time ran out
    if (out.length === 0 && sol.usedVehicles() < result.after) {
      best = sol.snapshot();
      result.after = sol.usedVehicles();
    }
  } finally {
    sol.allowNewRoutes = allowNew;
    sol.restore(best);
  }
  return result;
}

/**
 * Takes the smallest route out (near-ties broken at random: a route of 3 orders is easier to
 * spread over the others than one of 15); returns its orders.
 */
function removeRoute(sol: SearchSolution, rng: Random): number[] {
  let pick = -1;
  let pickKey = Infinity;
  for (const r of sol.routes) {
    if (r.nOrd === 0) continue;
    const key = r.nOrd + rng.next() * 2;
    if (key < pickKey) {
      pickKey = key;
      pick = r.index;
    }
  }
  const r = sol.routes[pick];
  const orders: number[] = [];
  for (let i = 1; i <= r.size; i++) if (r.ord[i] < sol.p.nOrders) orders.push(r.ord[i]);
  sol.setRoute(r, []);
  return orders;
}
