/**
 * Builds a candidate route out of cached pieces (a prefix of one route, single orders, ranges,
 * a suffix) and judges it: cost and feasibility, without re-simulating the whole route. Prefix
 * and suffix pieces are O(1); middle ranges cost O(length) (only intra-route moves need them).
 * One probe is reused for every evaluation, so evaluating a move allocates nothing.
 *
 * Trips (problems with reload nodes): `w`, `vol` are the load of the open trip, `xw`, `xv` the
 * excess of the trips already closed by a reload; every piece stays O(1) through the route's trip
 * caches (see SearchRoute). Without reload nodes the arithmetic is exactly the one-trip one.
 *
 * Breaks (see SearchRoute): a break node's numbers depend on the arc it sits on, which is known
 * only once the next piece comes. So a break that ends a piece is held (`held`) and joined, at
 * the location before it, when the next order, range, suffix or depot arrives; a suffix or range
 * that starts with breaks holds them the same way. Each join stays O(1) (a route holds a few).
 */
import type { CostModel, Problem } from '../model/problem.js';
import type { SearchRoute } from './search-route.js';

// Local copies of EPS and NO_ROAD / 2: hot code reads no cross-module bindings.
const EPS = 1e-6;
const ROADLESS = 2 ** 39;

export class RouteProbe {
  // Fields that hold fractions start as -0 (a double: see DOUBLE in search-route.ts), reset to 0 in the constructor.
  d = -0;
  tw = -0;
  e = -0;
  l = -0;
  dist = -0;
  w = -0;
  vol = -0;
  /** Real orders (reload nodes do not count towards maxOrders). */
  cnt = 0;
  /** Move units (Problem.oKeptUnits) of kept orders away from the probe's vehicle (a day in progress). */
  moved = 0;
  /** Excess weight / volume of the closed trips. */
  xw = -0;
  xv = -0;
  last = 0;
  vehicle = 0;
  /** Set by `finish*`. */
  cost = -0;
  /** The penalty part of `cost` (infeasible search only). */
  penalty = -0;
  feasible = false;
  private readonly n: number;
  /** Whether the problem has reload nodes (trip-aware loads). */
  private readonly trips: boolean;
  /** Indices from here on are reload nodes. */
  private readonly nReal: number;
  /** Indices from here on are break nodes (p.nNodes when there are none). */
  private readonly brk: number;
  /** Whether some order is kept (a day in progress): `moved` is counted. */
  private readonly kept: boolean;
  /** Break nodes waiting for the next arc (see the file comment). */
  private readonly held: Int32Array;
  private nHeld = 0;

  constructor(
    readonly p: Problem,
    readonly costs: CostModel,
  ) {
    this.n = p.nLoc;
    this.trips = p.hasReloads;
    this.nReal = p.nOrders;
    this.brk = p.hasBreaks ? p.nBreakFirst : p.nNodes;
    this.kept = p.nKept > 0;
    let most = 0;
    for (let v = 0; v < p.nVehicles; v++) most = Math.max(most, p.vBreakCount[v]);
    this.held = new Int32Array(most + 1);
    this.d = this.tw = this.e = this.l = this.dist = this.w = this.vol = this.xw = this.xv = this.cost = this.penalty = 0;
  }

  /**
   * Joins the held breaks before an arc of drive time t from the current location: all at that
   * location, the last one with its window opened earlier by t (taken on the road).
   */
  private release(t: number): void {
    const p = this.p;
    const at = this.last * this.n + this.last;
    for (let h = 0; h < this.nHeld; h++) {
      const b = this.held[h];
      const early = h === this.nHeld - 1 ? p.oEarly[b] - t : p.oEarly[b];
      this.merge(p.dur[at], p.oService[b], 0, early, p.oLate[b]);
      this.dist += p.dist[at];
    }
    this.nHeld = 0;
  }

  /** Closes the open trip (a reload): its excess is banked, the load starts again from zero. */
  private closeTrip(): void {
    const v = this.vehicle;
    this.xw += Math.max(0, this.w - this.p.vCapW[v]);
    this.xv += Math.max(0, this.vol - this.p.vCapV[v]);
    this.w = 0;
    this.vol = 0;
  }

  /** Weight above capacity over all trips so far (the open one included). */
  excessWeight(): number {
    return this.xw + Math.max(0, this.w - this.p.vCapW[this.vehicle]);
  }

  excessVolume(): number {
    return this.xv + Math.max(0, this.vol - this.p.vCapV[this.vehicle]);
  }

  private merge(t: number, bd: number, btw: number, be: number, bl: number): void {
    const delta = this.d - this.tw + t;
    const wait = Math.max(be - delta - this.l, 0);
    const warp = Math.max(this.e + delta - bl, 0);
    const e = Math.max(be - delta, this.e) - wait;
    const l = Math.min(bl - delta, this.l) + warp;
    this.d = this.d + bd + t + wait;
    this.tw = this.tw + btw + warp;
    this.e = e;
    this.l = l;
  }

  /** Starts with positions 0..i of route r (its start depot and first i orders). */
  prefix(r: SearchRoute, i: number): this {
    this.nHeld = 0;
    if (r.ord[i] >= this.brk) {
      // ends with breaks: the prefix before them, the breaks held
      let j = i;
      while (r.ord[j] >= this.brk) j--;
      this.prefix(r, j);
      for (let k = j + 1; k <= i; k++) this.held[this.nHeld++] = r.ord[k];
      return this;
    }
    this.vehicle = r.vehicle;
    this.d = r.fD[i];
    this.tw = r.fT[i];
    this.e = r.fE[i];
    this.l = r.fL[i];
    this.dist = r.cumDist[i];
    this.last = r.loc[i];
    if (this.trips) {
      const a = r.lastR[i];
      this.w = r.cumW[i] - r.cumW[a];
      this.vol = r.cumV[i] - r.cumV[a];
      this.xw = r.xW[i];
      this.xv = r.xV[i];
      this.cnt = i - r.cumR[i];
      if (this.kept) this.moved = r.movedIn(1, i, r.vehicle);
      return this;
    }
    this.w = r.cumW[i];
    this.vol = r.cumV[i];
    this.cnt = i;
    if (this.kept) this.moved = r.movedIn(1, i, r.vehicle);
    return this;
  }

  /** Starts an empty route of vehicle v at its start depot. */
  depot(v: number): this {
    const p = this.p;
    this.nHeld = 0;
    this.vehicle = v;
    this.d = 0;
    this.tw = 0;
    this.e = p.vShiftStart[v];
    this.l = p.vDepartLate[v];
    this.dist = 0;
    this.w = 0;
    this.vol = 0;
    this.xw = 0;
    this.xv = 0;
    this.cnt = 0;
    this.moved = 0;
    this.last = p.vStartLoc[v];
    return this;
  }

  order(o: number): this {
    const p = this.p;
    if (o >= this.brk) {
      this.held[this.nHeld++] = o;
      return this;
    }
    const to = p.oLoc[o];
    const arc = this.last * this.n + to;
    if (this.nHeld > 0) this.release(p.dur[arc]);
    this.merge(p.dur[arc], p.oService[o], 0, p.oEarly[o], p.oLate[o]);
    this.dist += p.dist[arc];
    this.last = to;
    if (o >= this.nReal) {
      this.closeTrip();
      return this;
    }
    this.w += p.oW[o];
    this.vol += p.oV[o];
    this.cnt++;
    if (this.kept && p.oKept[o] >= 0 && p.oKept[o] !== this.vehicle) this.moved += p.oKeptUnits[o];
    return this;
  }

  /** Appends orders at positions i..j (1 <= i <= j <= size) of route r, in order. */
  range(r: SearchRoute, i: number, j: number): this {
    if (i > j) return this;
    if (this.brk < this.p.nNodes) return this.rangeWithBreaks(r, i, j);
    return this.rangePlain(r, i, j);
  }

  private rangePlain(r: SearchRoute, i: number, j: number): this {
    if (this.kept) this.moved += r.movedIn(i, j, this.vehicle);
    const arc = this.last * this.n + r.loc[i];
    this.dist += this.p.dist[arc] + r.cumDist[j] - r.cumDist[i];
    if (this.trips) this.rangeLoad(r, i, j);
    else {
      this.w += r.cumW[j] - r.cumW[i - 1];
      this.vol += r.cumV[j] - r.cumV[i - 1];
      this.cnt += j - i + 1;
    }
    if (j === r.size) {
      if (r.bStale >= i) r.fillB(i);
      this.merge(this.p.dur[arc], r.bD[i], r.bT[i], r.bE[i], r.bL[i]);
      this.last = r.loc[j];
      return this;
    }
    const p = this.p;
    let t = p.dur[arc];
    for (let k = i; k <= j; k++) {
      const o = r.ord[k];
      this.merge(t, p.oService[o], 0, p.oEarly[o], p.oLate[o]);
      if (k < j) t = p.dur[r.loc[k] * this.n + r.loc[k + 1]];
    }
    this.last = r.loc[j];
    return this;
  }

  /**
   * `range` with break nodes about: a route's last stretch is O(1) from its backward caches (the
   * breaks in it priced on their arcs) unless it ends with a break; any other stretch goes order by
   * order, as the plain code does.
   */
  private rangeWithBreaks(r: SearchRoute, i: number, j: number): this {
    const B = this.brk;
    const k = r.size;
    if (j === k && r.ord[k] < B) {
      while (r.ord[i] >= B) this.order(r.ord[i++]);
      if (this.nHeld > 0) this.release(this.p.dur[this.last * this.n + r.loc[i]]);
      return this.rangePlain(r, i, j);
    }
    for (let x = i; x <= j; x++) this.order(r.ord[x]);
    return this;
  }

  /** Trip-aware load of positions i..j of r (i <= j): O(1) from r's trip caches. */
  private rangeLoad(r: SearchRoute, i: number, j: number): void {
    this.cnt += j - i + 1 - (r.cumR[j] - r.cumR[i - 1]);
    const a = r.nextR[i];
    if (a > j) {
      this.w += r.cumW[j] - r.cumW[i - 1];
      this.vol += r.cumV[j] - r.cumV[i - 1];
      return;
    }
    // up to the first reload of the range, the trips wholly inside it, then the open tail
    this.w += r.cumW[a] - r.cumW[i - 1];
    this.vol += r.cumV[a] - r.cumV[i - 1];
    this.closeTrip();
    const b = r.lastR[j];
    this.xw += r.xW[b] - r.xW[a];
    this.xv += r.xV[b] - r.xV[a];
    this.w = r.cumW[j] - r.cumW[b];
    this.vol = r.cumV[j] - r.cumV[b];
  }

  /** Appends orders at positions j down to i (i <= j) of route r: the range reversed. */
  reversed(r: SearchRoute, i: number, j: number): this {
    for (let k = j; k >= i; k--) this.order(r.ord[k]);
    return this;
  }

  /** Ends with positions i..size + 1 of route r, its own end depot included: O(1). */
  finishSuffix(r: SearchRoute, i: number): this {
    // a suffix that starts with breaks: they join the held ones, the suffix starts after them
    while (r.ord[i] >= this.brk) this.held[this.nHeld++] = r.ord[i++];
    if (r.gStale >= i) r.fillG(i);
    const arc = this.last * this.n + r.loc[i];
    if (this.nHeld > 0) this.release(this.p.dur[arc]);
    this.merge(this.p.dur[arc], r.gD[i], r.gT[i], r.gE[i], r.gL[i]);
    this.dist += this.p.dist[arc] + r.cumDist[r.size + 1] - r.cumDist[i];
    const k = r.size;
    if (this.kept && i <= k) this.moved += r.movedIn(i, k, this.vehicle);
    if (i <= k) {
      if (this.trips) {
        this.cnt += k - i + 1 - (r.cumR[k] - r.cumR[i - 1]);
        const a = r.nextR[i];
        this.w += r.cumW[Math.min(a, k)] - r.cumW[i - 1];
        this.vol += r.cumV[Math.min(a, k)] - r.cumV[i - 1];
        if (a <= k) {
          // the first reload closes the open trip; the suffix's own trips are banked already
          this.closeTrip();
          this.xw += r.xW[k + 1] - r.xW[a];
          this.xv += r.xV[k + 1] - r.xV[a];
        }
      } else {
        this.w += r.cumW[k] - r.cumW[i - 1];
        this.vol += r.cumV[k] - r.cumV[i - 1];
        this.cnt += k - i + 1;
      }
    }
    return this.judge();
  }

  /** Ends at the end depot of the probe's vehicle. */
  finish(): this {
    const p = this.p;
    const v = this.vehicle;
    const to = p.vEndLoc[v];
    const arc = this.last * this.n + to;
    if (this.nHeld > 0) this.release(p.dur[arc]);
    this.merge(p.dur[arc], 0, 0, p.vShiftStart[v], p.vShiftEnd[v]);
    this.dist += p.dist[arc];
    return this.judge();
  }

  private judge(): this {
    const p = this.p;
    const v = this.vehicle;
    const c = this.costs;
    if (this.cnt === 0) {
      this.cost = 0;
      this.penalty = 0;
      this.feasible = true;
      return this;
    }
    this.cost = c.perDistance * this.dist + c.perDuration * this.d + c.perVehicle + c.perMoved * this.moved;
    if (this.trips) return this.judgeTrips();
    if (c.penalised) {
      this.penalty =
        c.penaltyTime * (this.tw + Math.max(0, this.d - p.vMaxDur[v]) + Math.max(0, this.dist - p.vMaxDist[v])) +
        c.penaltyLoad * (Math.max(0, this.w - p.vCapW[v]) + Math.max(0, this.vol - p.vCapV[v]));
      this.cost += this.penalty;
      this.feasible = this.dist < ROADLESS && this.cnt <= p.vMaxOrders[v];
      return this;
    }
    this.penalty = 0;
    this.feasible =
      this.tw <= EPS &&
      this.w <= p.vCapW[v] + EPS &&
      this.vol <= p.vCapV[v] + EPS &&
      this.dist <= p.vMaxDist[v] + EPS &&
      this.dist < ROADLESS &&
      this.d <= p.vMaxDur[v] + EPS &&
      this.cnt <= p.vMaxOrders[v];
    return this;
  }

  /** `judge` with trips: the load terms are the excess summed over the trips. */
  private judgeTrips(): this {
    const p = this.p;
    const v = this.vehicle;
    const c = this.costs;
    const exW = this.excessWeight();
    const exV = this.excessVolume();
    if (c.penalised) {
      this.penalty =
        c.penaltyTime * (this.tw + Math.max(0, this.d - p.vMaxDur[v]) + Math.max(0, this.dist - p.vMaxDist[v])) + c.penaltyLoad * (exW + exV);
      this.cost += this.penalty;
      this.feasible = this.dist < ROADLESS && this.cnt <= p.vMaxOrders[v];
      return this;
    }
    this.penalty = 0;
    this.feasible =
      this.tw <= EPS &&
      exW <= EPS &&
      exV <= EPS &&
      this.dist <= p.vMaxDist[v] + EPS &&
      this.dist < ROADLESS &&
      this.d <= p.vMaxDur[v] + EPS &&
      this.cnt <= p.vMaxOrders[v];
    return this;
  }
}
