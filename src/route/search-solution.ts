/**
 * The mutable solution the search works on: one SearchRoute per vehicle (empty ones included),
 * where each order is, and which orders are unassigned. `snapshot` / `restore` give the plain
 * copies the metaheuristic keeps as its current and best solutions.
 */
import type { CostModel, Problem } from '../model/problem.js';
import { SearchRoute } from './search-route.js';
import { RouteProbe } from './probe.js';

export type Snapshot = number[][];

/**
 * A day in progress: a kept order left out counts as this many new ones per order of the
 * problem, so the search gives up every new order before one that is on a route now.
 */
export const KEPT_WEIGHT_PER_ORDER = 1;

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
    this.breakProbe = p.hasBreaks ? new RouteProbe(p, costs) : null;
    // every route holds its vehicle's breaks from the start, in window order
    if (p.hasBreaks) for (const r of this.routes) this.setRoute(r, []);
  }

  /** Judges where a missing break goes (problems with breaks only). */
  private readonly breakProbe: RouteProbe | null;

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
    if (this.breakProbe !== null) this.keepBreaks(r, this.breakProbe);
  }

  /**
   * Puts back the breaks of r's vehicle that a new order list left out (a route always holds
   * them; they cost nothing while it has no order), each where it breaks least, then cheapest.
   */
  private keepBreaks(r: SearchRoute, probe: RouteProbe): void {
    const p = this.p;
    const v = r.vehicle;
    const end = p.vBreakFirst[v] + p.vBreakCount[v];
    for (let b = p.vBreakFirst[v]; b < end; b++) {
      if (this.routeOf[b] === r.index) continue;
      let best = 0;
      let bestScore = Infinity;
      for (let pos = 0; pos <= r.size; pos++) {
        probe.prefix(r, pos).order(b).finishSuffix(r, pos + 1);
        const score = breakScore(p, probe);
        if (score < bestScore) {
          bestScore = score;
          best = pos;
        }
      }
      this.insert(b, r, best);
    }
  }

  /**
   * Moves each break of route r one stop earlier or later while that makes the route cheaper (or
   * less infeasible): the search moves orders around the breaks, this lets a break follow the
   * day. O(1) a step. Returns how many steps were taken.
   */
  shiftBreaks(r: SearchRoute, probe: RouteProbe): number {
    const p = this.p;
    const v = r.vehicle;
    if (!p.hasBreaks || p.vBreakCount[v] === 0 || r.nOrd === 0) return 0;
    const end = p.vBreakFirst[v] + p.vBreakCount[v];
    let steps = 0;
    for (let b = p.vBreakFirst[v]; b < end; b++) {
      for (let guard = 0; guard < r.size; guard++) {
        const i = this.posOf[b];
        const now = breakScore(p, probe.prefix(r, r.size).finish());
        let dir = 0;
        let best = now - 1e-9;
        if (i > 1) {
          probe.prefix(r, i - 2).order(b).order(r.ord[i - 1]).finishSuffix(r, i + 1);
          const sc = breakScore(p, probe);
          if (sc < best) {
            best = sc;
            dir = -1;
          }
        }
        if (i < r.size) {
          probe.prefix(r, i - 1).order(r.ord[i + 1]).order(b).finishSuffix(r, i + 2);
          if (breakScore(p, probe) < best) dir = 1;
        }
        if (dir === 0) break;
        const list = r.orders();
        const j = i - 1 + dir; // list index of the neighbour
        list[i - 1] = list[j];
        list[j] = b;
        this.setRoute(r, list);
        steps++;
      }
    }
    return steps;
  }

  unassigned(): number[] {
    const out: number[] = [];
    for (let o = 0; o < this.p.nOrders; o++) if (this.routeOf[o] < 0) out.push(o);
    return out;
  }

  unassignedCount(): number {
    let served = 0;
    for (const r of this.routes) served += r.nOrd;
    const p = this.p;
    let out = p.nOrders - served;
    if (p.nKept > 0) for (let o = 0; o < p.nOrders; o++) if (p.oKept[o] >= 0 && this.routeOf[o] < 0) out += KEPT_WEIGHT_PER_ORDER * p.nOrders;
    return out;
  }

  usedVehicles(): number {
    let c = 0;
    for (const r of this.routes) if (r.nOrd > 0) c++;
    return c;
  }

  /** `tidyReloads` and `shiftBreaks` on every route (nothing to do without reload or break nodes). */
  tidyAllReloads(probe: RouteProbe): number {
    if (!this.p.hasReloads) return 0;
    let n = 0;
    for (const r of this.routes) n += this.tidyReloads(r, probe);
    if (this.p.hasBreaks) for (const r of this.routes) n += this.shiftBreaks(r, probe);
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
      // orders and breaks stay
      if (x < p.nOrders || x >= p.nBreakFirst) continue;
      // (break nodes do not make a trip: look past them)
      let before = i - 1;
      let after = i + 1;
      if (p.hasBreaks) {
        while (r.ord[before] >= p.nBreakFirst) before--;
        while (r.ord[after] >= p.nBreakFirst) after++;
      }
      const empty = r.nOrd === 0 || before === 0 || after === r.size + 1 || r.ord[before] >= p.nOrders;
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

/** How a break placement ranks, lower first: what it breaks (time warp, excess duration), then cost. */
function breakScore(p: Problem, probe: RouteProbe): number {
  const over = probe.tw + Math.max(0, probe.d - p.vMaxDur[probe.vehicle]);
  return over > 1e-6 ? 1e12 * (1 + over) : probe.cost;
}
