/**
 * Vehicle reassignment for mixed fleets: moves a whole route, stops in the same order, onto an
 * unused vehicle of another class, or swaps the routes of two vehicles of different classes (a
 * van's route onto a truck from the other depot, the truck's onto the van). The other operators
 * move orders between routes but never change which vehicle drives a route, so on a fleet with
 * several depots or sizes a good route can stay on the wrong vehicle. Each candidate is judged
 * in O(route length) by the probe; with one vehicle class (Solomon, Homberger) there is nothing
 * to do and the move costs nothing.
 */
import type { SearchSolution } from '../route/search-solution.js';
import type { RouteProbe } from '../route/probe.js';
import type { SearchRoute } from '../route/search-route.js';

const IMPROVES = -1e-7;

export class VehicleReassign {
  /** Whether the fleet has more than one vehicle class (otherwise `run` returns at once). */
  readonly active: boolean;
  moves = 0;

  /**
   * `allowed(a, v)` remembered per route and vehicle with the route's version (any change of a
   * route bumps it): between two runs only the routes an iteration changed are checked again.
   */
  private readonly allowedAt: Float64Array;
  private readonly allowedIs: Uint8Array;

  constructor(
    private readonly sol: SearchSolution,
    private readonly probe: RouteProbe,
  ) {
    this.active = sol.p.mixedFleet;
    const cells = this.active ? sol.routes.length * sol.p.nVehicles : 0;
    this.allowedAt = new Float64Array(cells).fill(-1);
    this.allowedIs = new Uint8Array(cells);
  }

  /** Whether every order of route a may ride on vehicle v (features). */
  private allowed(a: SearchRoute, v: number): boolean {
    const p = this.sol.p;
    const cell = a.index * p.nVehicles + v;
    if (this.allowedAt[cell] === a.version) return this.allowedIs[cell] === 1;
    let ok = true;
    for (let i = 1; i <= a.size; i++)
      if (p.compat[a.ord[i] * p.nVehicles + v] !== 1) {
        ok = false;
        break;
      }
    this.allowedAt[cell] = a.version;
    this.allowedIs[cell] = ok ? 1 : 0;
    return ok;
  }

  /** Cost of route a's stops driven by vehicle v, or Infinity when infeasible there. */
  private costOn(a: SearchRoute, v: number): number {
    if (a.size === 0) return 0;
    if (!this.allowed(a, v)) return Infinity;
    const probe = this.probe.depot(v).range(a, 1, a.size).finish();
    return probe.feasible ? probe.cost : Infinity;
  }

  /**
   * Applies improving reassignments (first improvement, repeated until none is left); returns
   * the indexes of the routes it changed, or an empty list.
   */
  run(changed: number[] = []): number[] {
    changed.length = 0;
    if (!this.active) return changed;
    const sol = this.sol;
    const cls = sol.p.vClass;
    const routes = sol.routes;
    let improved = true;
    while (improved) {
      improved = false;
      for (const a of routes) {
        if (a.size === 0) continue;
        for (const b of routes) {
          if (b === a || cls[b.vehicle] === cls[a.vehicle]) continue;
          // an empty b is a free vehicle; a used b with fewer stops is tried from its own side
          if (b.size > 0 && b.index < a.index) continue;
          const aOnB = this.costOn(a, b.vehicle);
          if (aOnB === Infinity) continue;
          const bOnA = this.costOn(b, a.vehicle);
          if (bOnA === Infinity) continue;
          if (aOnB + bOnA - a.cost - b.cost >= IMPROVES) continue;
          const aOrders = a.orders();
          const bOrders = b.orders();
          sol.setRoute(a, bOrders);
          sol.setRoute(b, aOrders);
          this.moves++;
          if (!changed.includes(a.index)) changed.push(a.index);
          if (!changed.includes(b.index)) changed.push(b.index);
          improved = true;
          break;
        }
      }
    }
    return changed;
  }
}
