/**
 * Granular local search, first improvement. For each order u (in random order) and each of its k
 * neighbours v, every operator evaluates its move; the first that improves is applied. A pair is
 * skipped when neither route changed since u was last examined (HGS "whenLastModified"), so later
 * passes only revisit what moved. Stops at a local optimum or when time is up.
 *
 * A focused run (`focus` orders given, e.g. those a ruin-and-recreate moved) examines only those
 * orders, their route neighbours and their granular neighbours, and then only the orders around
 * each applied move: on long routes (30 to 100 orders) re-examining every order of each changed
 * route cost most of an iteration for little gain.
 */
import type { SearchSolution } from '../route/search-solution.js';
import { RouteProbe } from '../route/probe.js';
import type { SearchRoute } from '../route/search-route.js';
import { distanceBound, type Operator } from './operator.js';
import { defaultOperators } from './operators/index.js';
import { PairScreen } from './pair-screen.js';

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
  /**
   * Each operator's evaluate, read once: `op.evaluate` read in the loop below would see up to seven
   * operator classes (this search's and the exhaustive one's share the code), a megamorphic read.
   * Called as `evals[x].call(ops[x], ...)`: a plain call, where a bound function goes through
   * one more builtin on every evaluation.
   */
  private readonly evals: ((this: Operator, sol: SearchSolution, u: number, v: number, limit?: number) => number)[];
  private probe: RouteProbe;
  /** The operators' bounds in one place, when they are the default four (see pair-screen.ts). */
  private readonly screen: PairScreen | null;
  /** Per operator, the evaluations the screen saved since they were last counted. */
  private readonly skipped: Int32Array;
  private lastTested: Float64Array;
  private modifiedAt: Float64Array;
  private seenVersion: Float64Array;
  private order: number[] = [];
  private inList: Float64Array;
  private stamp = 0;
  private lastPass = -1;
  private clock = 1;
  private cands: SearchRoute[] = [];
  /** Orders around the moves applied in the current pass (focused runs). */
  private dirty: number[] = [];
  moves = 0;

  constructor(
    private readonly sol: SearchSolution,
    operators: Operator[] = defaultOperators(),
  ) {
    this.operators = operators.filter((o) => o.supports(sol.p));
    this.evals = this.operators.map((o) => o.evaluate);
    this.screen = PairScreen.for(this.operators);
    // integers: a count added from a Float64Array would turn each operator's `evaluations` into a double field (V8 map change, deoptimisations)
    this.skipped = new Int32Array(this.operators.length);
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

  /** Adds x, its route neighbours and its first `use` granular neighbours to the pass list. */
  private enlist(x: number, use: number, stamp: number, withRouteNeighbours: boolean): void {
    const { k, list } = this.neighbourList!;
    // reload nodes have no neighbour list: they move with the orders around them
    if (x >= this.sol.p.nOrders) return;
    const order = this.order;
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
    if (!withRouteNeighbours) return;
    const ri = this.sol.routeOf[x];
    if (ri < 0) return;
    const r = this.sol.routes[ri];
    const i = this.sol.posOf[x];
    if (i > 1) this.enlist(r.ord[i - 1], use, stamp, false);
    if (i < r.size) this.enlist(r.ord[i + 1], use, stamp, false);
  }

  private neighbourList: { k: number; list: Int32Array } | null = null;

  /** Remembers u and v (and, through enlist, what is next to them) for the next focused pass. */
  private markDirty(u: number, v: number): void {
    this.dirty.push(u, v);
  }

  /** Remembers the orders next to x now (before a move takes x away from them). */
  private markAround(x: number): void {
    const ri = this.sol.routeOf[x];
    if (ri < 0) return;
    const r = this.sol.routes[ri];
    const i = this.sol.posOf[x];
    if (i > 1) this.dirty.push(r.ord[i - 1]);
    if (i < r.size) this.dirty.push(r.ord[i + 1]);
  }

  /**
   * Runs to a local optimum; returns whether anything improved. With `focus`, only the given
   * orders and what is near them are examined (see the file comment).
   */
  run(env: LocalSearchEnv, focus?: ArrayLike<number>): boolean {
    const sol = this.sol;
    const { k, list } = env.neighbours;
    this.neighbourList = env.neighbours;
    const use = Math.min(k, env.use ?? k);
    const order = this.order;
    const ops = this.operators;
    const evals = this.evals;
    const nOps = evals.length;
    this.noticeChanges();
    const screen = this.screen !== null && PairScreen.active(sol) ? this.screen : null;
    const skipped = this.skipped;
    let any = false;
    let improved = true;
    let counter = 0;
    let first = true;
    while (improved) {
      improved = false;
      const since = this.lastPass;
      this.lastPass = this.clock;
      const stamp = ++this.stamp;
      order.length = 0;
      if (focus !== undefined) {
        // the given orders first, then only those around the moves of the last pass
        if (first) for (let j = 0; j < focus.length; j++) this.enlist(focus[j], use, stamp, true);
        else for (const x of this.dirty) this.enlist(x, use, stamp, true);
        this.dirty.length = 0;
      } else {
        // Only orders on routes changed since the last pass, and their neighbours, can gain.
        for (const r of sol.routes) {
          if (this.modifiedAt[r.index] <= since) continue;
          for (let i = 1; i <= r.size; i++) this.enlist(r.ord[i], use, stamp, false);
        }
      }
      first = false;
      env.shuffle(order);
      // (the arrays in locals: the evaluate calls below would make the loop reload them)
      const routeOf = sol.routeOf;
      const modifiedAt = this.modifiedAt;
      const lastTested = this.lastTested;
      for (const u of order) {
        if ((++counter & 7) === 0 && env.timeUp()) {
          this.countSkipped();
          return any;
        }
        if (routeOf[u] < 0) continue;
        const testedAt = lastTested[u];
        lastTested[u] = ++this.clock;
        for (let t = 0; t < use; t++) {
          const v = list[u * k + t];
          if (routeOf[v] < 0) continue;
          if (testedAt > modifiedAt[routeOf[u]] && testedAt > modifiedAt[routeOf[v]]) continue;
          // the operators that could improve (every one without a screen, or once a move of
          // this pair has changed the routes)
          let could = -1;
          if (screen !== null) {
            could = screen.mask(sol, u, v, IMPROVES);
            if (could === 0) {
              for (let x = 0; x < nOps; x++) skipped[x]++;
              continue;
            }
          }
          for (let x = 0; x < nOps; x++) {
            if ((could & (1 << x)) === 0) {
              skipped[x]++;
              continue;
            }
            const delta = evals[x].call(ops[x], sol, u, v, IMPROVES);
            if (delta < IMPROVES) {
              const op = ops[x];
              const r1 = sol.routeOf[u];
              const r2 = sol.routeOf[v];
              if (focus !== undefined) {
                this.markAround(u);
                this.markAround(v);
              }
              op.apply(sol, u, v);
              this.touch(r1);
              this.touch(r2);
              this.markDirty(u, v);
              this.moves++;
              improved = any = true;
              could = -1;
              if (sol.routeOf[u] < 0 || sol.routeOf[v] < 0) break;
            }
          }
          if (sol.routeOf[u] < 0) break;
        }
        if (this.relocateToEmpty(u)) {
          this.markDirty(u, u);
          improved = any = true;
        }
      }
    }
    this.dirty.length = 0;
    this.countSkipped();
    return any;
  }

  /**
   * Adds the evaluations the screen saved to each operator's count, as if each had been called
   * (the exhaustive search's share is measured in evaluations: improve.ts).
   */
  private countSkipped(): void {
    for (let x = 0; x < this.operators.length; x++) {
      this.operators[x].evaluations += this.skipped[x];
      this.skipped[x] = 0;
    }
  }

  private shortestRoundTrip: Float64Array | null = null;

  /** Per order, its shortest round trip over the vehicles' depots (a bound on any route of its own). */
  private roundTrip(): Float64Array {
    if (this.shortestRoundTrip !== null) return this.shortestRoundTrip;
    const p = this.sol.p;
    const D = p.dist;
    const n = p.nLoc;
    const trip = new Float64Array(p.nOrders).fill(Infinity);
    for (let o = 0; o < p.nOrders; o++) {
      const L = p.oLoc[o];
      for (let v = 0; v < p.nVehicles; v++) trip[o] = Math.min(trip[o], D[p.vStartLoc[v] * n + L] + D[L * n + p.vEndLoc[v]]);
    }
    return (this.shortestRoundTrip = trip);
  }

  /** Moving u alone onto an unused vehicle: sometimes the cheapest fix. */
  private relocateToEmpty(u: number): boolean {
    const sol = this.sol;
    const r = sol.routes[sol.routeOf[u]];
    if (r.nOrd === 1) return false;
    const i = sol.posOf[u];
    const probe = this.probe;
    const c = sol.costs;
    const p = sol.p;
    // lower bound (distance costs): a new route costs at least its vehicle and the round trip
    // from its depot, less what taking u out of r saves (its arcs and at most r's penalty)
    const bounded = c.perDuration === 0;
    const D = p.dist;
    const n = p.nLoc;
    const Lu = r.loc[i];
    let gain = 0;
    if (bounded) {
      const L = r.loc;
      gain = r.arcDist[i] + r.arcDist[i + 1] - D[L[i - 1] * n + L[i + 1]];
      if (distanceBound(sol, this.roundTrip()[u] - gain, 1, r) >= IMPROVES) return false;
    }
    if (!sol.hasEmptyRoute()) return false;
    sol.candidateRoutes(this.cands);
    let best: SearchRoute | null = null;
    let bestDelta = IMPROVES;
    let removal = NaN;
    for (const s of this.cands) {
      if (s.nOrd > 0 || !sol.compatible(u, s)) continue;
      if (bounded && distanceBound(sol, D[s.loc[0] * n + Lu] + D[Lu * n + s.loc[1]] - gain, 1, r) >= bestDelta) continue;
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
    this.markAround(u);
    sol.remove(u);
    sol.insert(u, best, 0);
    this.touch(r.index);
    this.touch(best.index);
    this.moves++;
    return true;
  }
}
