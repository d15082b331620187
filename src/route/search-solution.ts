/**
 * The mutable solution the search works on: one SearchRoute per vehicle (empty ones included),
 * where each order is, and which orders are unassigned. `snapshot` / `restore` give the plain
 * copies the metaheuristic keeps as its current and best solutions.
 */
import type { CostModel, Problem } from '../model/problem.js';
import { SearchRoute } from './search-route.js';
import type { RouteProbe } from './probe.js';

export type Snapshot = number[][];

export class SearchSolution {
  readonly routes: SearchRoute[];
  /** Route index of each order, -1 when unassigned. */
  readonly routeOf: Int32Array;
  /** Position of each order within its route. */
  readonly posOf: Int32Array;
  /** When false, insertions and moves never put orders on an unused vehicle (fleet minimisation). */
  allowNewRoutes = true;

  constructor(
    readonly p: Problem,
    readonly costs: CostModel,
  ) {
    this.routes = [];
    for (let v = 0; v < p.nVehicles; v++) this.routes.push(new SearchRoute(p, costs, v, v));
    // reload nodes (nOrders..nNodes-1) are tracked like orders
    this.routeOf = new Int32Array(p.nNodes).fill(-1);
    this.posOf = new Int32Array(p.nNodes).fill(-1);
    this.classSeen = new Uint8Array(p.nVehicles);
    this.candUsed = new Uint8Array(p.nVehicles).fill(2);
  }

  /** Re-indexes the orders of route r after it changed. */
  refresh(r: SearchRoute, from = 1): void {
    for (let i = from; i <= r.size; i++) {
      const o = r.ord[i];
      this.routeOf[o] = r.index;
      this.posOf[o] = i;
    }
  }

  insert(o: number, r: SearchRoute, afterPos: number): void {
    r.insertAfter(afterPos, o);
    // the orders before it keep their positions
    this.refresh(r, afterPos + 1);
  }

  remove(o: number): void {
    const ri = this.routeOf[o];
    if (ri < 0) return;
    const r = this.routes[ri];
    const pos = this.posOf[o];
    r.removeAt(pos);
    this.routeOf[o] = -1;
    this.posOf[o] = -1;
    this.refresh(r, pos);
  }

  setRoute(r: SearchRoute, orders: ArrayLike<number>): void {
    for (let i = 1; i <= r.size; i++) {
      const o = r.ord[i];
      if (this.routeOf[o] === r.index) {
        this.routeOf[o] = -1;
        this.posOf[o] = -1;
      }
    }
    r.setOrders(orders);
    this.refresh(r);
  }

  unassigned(): number[] {
    const out: number[] = [];
    for (let o = 0; o < this.p.nOrders; o++) if (this.routeOf[o] < 0) out.push(o);
    return out;
  }

  unassignedCount(): number {
    let served = 0;
    for (const r of this.routes) served += r.nOrd;
    return this.p.nOrders - served;
  }

  usedVehicles(): number {
    let c = 0;
    for (const r of this.routes) if (r.nOrd > 0) c++;
    return c;
  }

  /** `tidyReloads` on every route (nothing to do without reload nodes). */
  tidyAllReloads(probe: RouteProbe): number {
    if (!this.p.hasReloads) return 0;
    let n = 0;
    for (const r of this.routes) n += this.tidyReloads(r, probe);
    return n;
  }

  /** A reload node of route r's vehicle that is on no route, or -1 (all its trips in use). */
  spareReload(r: SearchRoute): number {
    const p = this.p;
    const v = r.vehicle;
    const first = p.vReloadFirst[v];
    const end = first + p.vMaxTrips[v] - 1;
    for (let x = first; x < end; x++) if (this.routeOf[x] < 0) return x;
    return -1;
  }

  /**
   * Takes out reload nodes that do not pay: an empty trip (next to a depot or another reload),
   * or one whose removal keeps the route feasible and costs no more. Returns how many went.
   */
  tidyReloads(r: SearchRoute, probe: RouteProbe): number {
    const p = this.p;
    if (!p.hasReloads || r.reloads === 0) return 0;
    let removed = 0;
    for (let i = r.size; i >= 1; i--) {
      const x = r.ord[i];
      if (x < p.nOrders) continue;
      const empty = r.nOrd === 0 || i === 1 || i === r.size || r.ord[i - 1] >= p.nOrders;
      if (!empty) {
        // cost includes any penalty in the infeasible search; strict search needs feasibility
        probe.prefix(r, i - 1).finishSuffix(r, i + 1);
        if (!probe.feasible || probe.cost > r.cost + 1e-9) continue;
      }
      this.remove(x);
      removed++;
    }
    return removed;
  }

  /** What the routes cost (with any penalties they pay), without the unassigned-order penalty. */
  routingCost(): number {
    let c = 0;
    for (const r of this.routes) c += r.cost;
    return c;
  }

  /** Routing cost plus the unassigned-order penalty. */
  cost(): number {
    return this.routingCost() + this.costs.perUnassigned * this.unassignedCount();
  }

  distance(): number {
    let d = 0;
    for (const r of this.routes) if (r.nOrd > 0) d += r.distance;
    return d;
  }

  feasible(): boolean {
    for (const r of this.routes) if (!r.feasible()) return false;
    return true;
  }

  snapshot(): Snapshot {
    return this.routes.map((r) => r.orders());
  }

  restore(s: Snapshot): void {
    this.routeOf.fill(-1);
    this.posOf.fill(-1);
    for (let i = 0; i < this.routes.length; i++) {
      const r = this.routes[i];
      r.setOrders(s[i]);
      this.refresh(r);
    }
  }

  /** Whether order o may ride on the vehicle of route r. */
  compatible(o: number, r: SearchRoute): boolean {
    return this.p.compat[o * this.p.nVehicles + r.vehicle] === 1;
  }

  /**
   * Routes worth trying for an insertion: every non-empty route, plus the first empty route of
   * each vehicle class (empty routes of one class are interchangeable).
   */
  candidateRoutes(out: SearchRoute[]): SearchRoute[] {
    // cached until some route's size goes to or from zero
    let stale = this.candList.length === 0 || this.candAllowNew !== this.allowNewRoutes;
    this.candAllowNew = this.allowNewRoutes;
    for (const r of this.routes) {
      const used = r.nOrd > 0 ? 1 : 0;
      if (this.candUsed[r.index] !== used) {
        this.candUsed[r.index] = used;
        stale = true;
      }
    }
    if (stale) {
      this.candList.length = 0;
      this.classSeen.fill(0);
      for (const r of this.routes) {
        if (r.nOrd > 0) this.candList.push(r);
        else if (this.allowNewRoutes && this.classSeen[this.p.vClass[r.vehicle]] === 0) {
          this.classSeen[this.p.vClass[r.vehicle]] = 1;
          this.candList.push(r);
        }
      }
    }
    out.length = this.candList.length;
    for (let i = 0; i < this.candList.length; i++) out[i] = this.candList[i];
    return out;
  }

  /** True when some vehicle is unused. */
  hasEmptyRoute(): boolean {
    if (!this.allowNewRoutes) return false;
    for (const r of this.routes) if (r.nOrd === 0) return true;
    return false;
  }

  private candUsed = new Uint8Array(0);
  private candAllowNew = true;
  private candList: SearchRoute[] = [];
  private classSeen = new Uint8Array(0);
}

/**
 * A lower bound on a move's cost delta from its distance delta alone: exact when cost depends on
 * distance and vehicles only (duration weight 0), less the penalties the touched routes pay now
 * (a move can at best shed them all); -Infinity when duration has a weight (no pruning). The
 * local search's moves, the insertion scan and the move to an empty route all prune with it.
 */
export function distanceBound(sol: SearchSolution, distDelta: number, vehicleDelta: number, r?: SearchRoute, s?: SearchRoute): number {
  const c = sol.costs;
  if (c.perDuration !== 0) return -Infinity;
  let shed = 0;
  if (r !== undefined) shed += r.penalty;
  if (s !== undefined && s !== r) shed += s.penalty;
  return c.perDistance * distDelta + c.perVehicle * vehicleDelta - shed;
}
