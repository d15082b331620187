/**
 * The local-search operator interface. An operator looks at a pair (u, v) of orders, v one of u's
 * granular neighbours: `evaluate` returns the cost delta of its best variant (Infinity when no
 * variant is feasible or the move does not apply) and remembers that variant; `apply` performs the
 * move last evaluated. Evaluation reads cached route segments and allocates nothing.
 */
import type { Problem } from '../model/problem.js';
import { RouteProbe } from '../route/probe.js';
import type { SearchRoute } from '../route/search-route.js';
import type { SearchSolution } from '../route/search-solution.js';

/** The distance lower bound every operator prunes with; it lives with the solution it prices. */
export { distanceBound } from '../route/search-solution.js';

export interface Operator {
  readonly name: string;
  evaluations: number;
  applications: number;
  supports(p: Problem): boolean;
  /**
   * Delta of the best variant; Infinity when infeasible or (with `limit`) when a cheap lower
   * bound already shows the delta cannot go below `limit`.
   */
  evaluate(sol: SearchSolution, u: number, v: number, limit?: number): number;
  apply(sol: SearchSolution, u: number, v: number): void;
}

/** Shared base: two probes (one per route touched) and the counters. */
export abstract class BaseOperator implements Operator {
  abstract readonly name: string;
  evaluations = 0;
  applications = 0;
  protected a!: RouteProbe;
  protected b!: RouteProbe;

  supports(_p: Problem): boolean {
    return true;
  }

  /**
   * Makes the probes when missing or made for another problem or cost model. The hot operators
   * test `probesStale(this.a, sol)` in their own code instead: a `this.a` read here sees every
   * operator class, too many shapes for V8's inline cache (megamorphic, a slow lookup per read).
   */
  protected probes(sol: SearchSolution): void {
    if (probesStale(this.a, sol)) this.newProbes(sol);
  }

  protected newProbes(sol: SearchSolution): void {
    this.a = new RouteProbe(sol.p, sol.costs);
    this.b = new RouteProbe(sol.p, sol.costs);
  }

  abstract evaluate(sol: SearchSolution, u: number, v: number, limit?: number): number;
  abstract apply(sol: SearchSolution, u: number, v: number): void;
}

/** Whether probe a is missing or was made for another problem or cost model than sol's. */
export function probesStale(a: RouteProbe | undefined, sol: SearchSolution): boolean {
  return a === undefined || a.p !== sol.p || a.costs !== sol.costs;
}

/** Whether every order at positions i..j of route r may ride on vehicle `vehicle`. */
export function rangeCompatible(sol: SearchSolution, r: SearchRoute, i: number, j: number, vehicle: number): boolean {
  const p = sol.p;
  if (r.vehicle === vehicle) return true;
  // reload nodes ride only on their own vehicle: O(1) from the route's reload counts
  if (!p.hasRequirements) return !p.hasReloads || r.cumR[j] - r.cumR[i - 1] === 0;
  for (let k = i; k <= j; k++) if (p.compat[r.ord[k] * p.nVehicles + vehicle] !== 1) return false;
  return true;
}

