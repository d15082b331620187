/**
 * Granular local search, first improvement. For each order u (in random order) and each of its k
 * neighbours v, every operator evaluates its move; the first that improves is applied. A pair is
 * skipped when neither route changed since u was last examined (HGS "whenLastModified"), so later
 * passes only revisit what moved. Stops at a local optimum or when time is up.
 */
import type { SearchSolution } from '../route/search-solution.js';
import { RouteProbe } from '../route/probe.js';
import type { SearchRoute } from '../route/search-route.js';
import type { Operator } from './operator.js';
import { defaultOperators } from './operators/index.js';

export interface LocalSearchEnv {
  neighbours: { k: number; list: Int32Array };
  /** Use only the first `use` neighbours of each order (default all k). */
  use?: number;
  shuffle(a: number[]): number[];
  timeUp(): boolean;
}

const IMPROVES = -1e-7;

export class LocalSearch {
  readonly operators: Operator[];
  private probe: RouteProbe;
  private lastTested: Float64Array;
  private modifiedAt: Float64Array;
  private seenVersion: Float64Array;
  private order: number[] = [];
  private inList: Float64Array;
  private stamp = 0;
  private lastPass = -1;
  private clock = 1;
  private cands: SearchRoute[] = [];
  moves = 0;

  constructor(
    private readonly sol: SearchSolution,
    operators: Operator[] = defaultOperators(),
  ) {
    this.operators = operators.filter((o) => o.supports(sol.p));
    this.probe = new RouteProbe(sol.p, sol.costs);
    this.lastTested = new Float64Array(sol.p.nOrders).fill(-1);
    this.modifiedAt = new Float64Array(sol.routes.length);
    this.seenVersion = new Float64Array(sol.routes.length).fill(-1);
    this.inList = new Float64Array(sol.p.nOrders);
  }

  /** Routes changed outside the local search (perturbation, restore) count as modified. */
  private noticeChanges(): void {
    for (const r of this.sol.routes)
      if (r.version !== this.seenVersion[r.index]) {
        this.seenVersion[r.index] = r.version;
        this.modifiedAt[r.index] = ++this.clock;
      }
  }

  /** Marks every route as changed, e.g. after a perturbation rebuilt the solution. */
  touchAll(): void {
    this.clock++;
    this.modifiedAt.fill(this.clock);
  }

  touch(routeIndex: number): void {
    this.modifiedAt[routeIndex] = ++this.clock;
    this.seenVersion[routeIndex] = this.sol.routes[routeIndex].version;
  }

  /** Runs to a local optimum; returns whether anything improved. */
  run(env: LocalSearchEnv): boolean {
    const sol = this.sol;
    const { k, list } = env.neighbours;
    const use = Math.min(k, env.use ?? k);
    const order = this.order;
    this.noticeChanges();
    let any = false;
    let improved = true;
    let counter = 0;
    while (improved) {
      improved = false;
      // Only orders on routes changed since the last pass, and their neighbours, can gain.
      const since = this.lastPass;
      this.lastPass = this.clock;
      const stamp = ++this.stamp;
      order.length = 0;
      for (const r of sol.routes) {
        if (this.modifiedAt[r.index] <= since) continue;
        for (let i = 1; i <= r.size; i++) {
          const x = r.ord[i];
          if (this.inList[x] !== stamp) {
            this.inList[x] = stamp;
            order.push(x);
          }
          for (let t = 0; t < use; t++) {
            const y = list[x * k + t];
            if (this.inList[y] !== stamp) {
              this.inList[y] = stamp;
              order.push(y);
            }
          }
        }
      }
      env.shuffle(order);
      for (const u of order) {
        if ((++counter & 31) === 0 && env.timeUp()) return any;
        if (sol.routeOf[u] < 0) continue;
        const testedAt = this.lastTested[u];
        this.lastTested[u] = ++this.clock;
        for (let t = 0; t < use; t++) {
          const v = list[u * k + t];
          if (sol.routeOf[v] < 0) continue;
          if (testedAt > this.modifiedAt[sol.routeOf[u]] && testedAt > this.modifiedAt[sol.routeOf[v]]) continue;
          for (const op of this.operators) {
            const delta = op.evaluate(sol, u, v, IMPROVES);
            if (delta < IMPROVES) {
              const r1 = sol.routeOf[u];
              const r2 = sol.routeOf[v];
              op.apply(sol, u, v);
              this.touch(r1);
              this.touch(r2);
              this.moves++;
              improved = any = true;
              if (sol.routeOf[u] < 0 || sol.routeOf[v] < 0) break;
            }
          }
          if (sol.routeOf[u] < 0) break;
        }
        if (this.relocateToEmpty(u)) improved = any = true;
      }
    }
    return any;
  }

  /** Moving u alone onto an unused vehicle: sometimes the cheapest fix. */
  private relocateToEmpty(u: number): boolean {
    const sol = this.sol;
    const r = sol.routes[sol.routeOf[u]];
    if (r.size === 1) return false;
    const i = sol.posOf[u];
    const probe = this.probe;
    const c = sol.costs;
    const p = sol.p;
    if (c.perDuration === 0 && p.singleDepot && r.penalty === 0) {
      // lower bound: a new route costs at least its vehicle and the depot round trip
      const D = p.dist;
      const n = p.nLoc;
      const L = r.loc;
      const gain = D[L[i - 1] * n + L[i]] + D[L[i] * n + L[i + 1]] - D[L[i - 1] * n + L[i + 1]];
      const trip = D[L[0] * n + L[i]] + D[L[i] * n + L[r.size + 1]];
      if (c.perVehicle + c.perDistance * (trip - gain) >= IMPROVES) return false;
    }
    if (!sol.hasEmptyRoute()) return false;
    sol.candidateRoutes(this.cands);
    let best: SearchRoute | null = null;
    let bestDelta = IMPROVES;
    let removal = NaN;
    for (const s of this.cands) {
      if (s.size > 0 || !sol.compatible(u, s)) continue;
      if (Number.isNaN(removal)) {
        probe.prefix(r, i - 1).finishSuffix(r, i + 1);
        if (!probe.feasible) return false;
        removal = probe.cost - r.cost;
      }
      probe.prefix(s, 0).order(u).finishSuffix(s, 1);
      if (!probe.feasible) continue;
      const delta = removal + probe.cost;
      if (delta < bestDelta) {
        bestDelta = delta;
        best = s;
      }
    }
    if (best === null) return false;
    sol.remove(u);
    sol.insert(u, best, 0);
    this.touch(r.index);
    this.touch(best.index);
    this.moves++;
    return true;
  }
}
