/**
 * A route under search: its orders plus prefix and suffix caches (distance, load, duration
 * segments) so that any move touching it is judged in O(1) by `RouteProbe`.
 *
 * Positions: 0 is the start depot, 1..size the orders, size + 1 the end depot.
 *
 * Trips: when the problem has reload nodes (vehicles with maxTrips > 1), some of positions
 * 1..size may be reload nodes (index >= p.nOrders). Each one closes a trip: the load resets, and
 * the trip's excess over the capacity is banked. `cumR`, `lastR`, `nextR`, `xW`, `xV` let the
 * probe concatenate trip-aware load segments in O(1), like PyVRP's finalised LoadSegment.
 *
 * Breaks: break nodes (index >= p.nBreakFirst) sit among the orders like reload nodes, but have no
 * place of their own: `loc` of a break is the location before it (no travel in), and the drive
 * of the arc it sits on (to the next order or depot) may come before it, so its window opens
 * earlier by that drive (a break on the road is a break at the stop before it, started up to one
 * drive earlier). Only the last break of a run on one arc gets that allowance (the earlier ones
 * are taken at the stop), which keeps the schedule realisable. The segments stay O(1) to join:
 * a break's numbers depend on its two neighbours only, and RouteProbe joins pieces at breaks by
 * holding them until the next arc is known.
 */
import { HORIZON, type CostModel, type Problem } from '../model/problem.js';
import { NO_ROAD } from '../model/matrix.js';

export const EPS = 1e-6;

/**
 * The first value of a number field decides how V8 stores it: 0 makes a small-integer field, and
 * the first fraction written there later changes the class's layout (the map is deprecated), which
 * throws away every optimised function that has seen the class, 15 or so at a time in the first
 * second of a solve, each compiled again. Fields that will hold fractions start as -0 (a double,
 * not a small integer) and are set to 0 in the constructor, so they are doubles from the start.
 */
export const DOUBLE = -0;

export class SearchRoute {
  size = 0;
  ord: Int32Array;
  loc: Int32Array;
  cumDist: Float64Array;
  /**
   * Distance of the arc into position i from position i - 1 (1..size + 1): the matrix entry itself,
   * so moves price the arcs they remove from this sequential array instead of the matrix.
   */
  arcDist: Float64Array;
  cumW: Float64Array;
  cumV: Float64Array;
  /** Forward segments: positions 0..i, start depot included. */
  fD: Float64Array;
  fT: Float64Array;
  fE: Float64Array;
  fL: Float64Array;
  /** Backward segments: positions i..size + 1, end depot included. */
  gD: Float64Array;
  gT: Float64Array;
  gE: Float64Array;
  gL: Float64Array;
  /** Backward segments without the end depot: orders i..size (i = size + 1 is empty). */
  bD: Float64Array;
  bT: Float64Array;
  bE: Float64Array;
  bL: Float64Array;
  /**
   * The backward caches are filled lazily: g* holds the right numbers at positions above `gStale`
   * only, b* above `bStale`; `fillG(i)` / `fillB(i)` fill them down to position i when a probe
   * needs them. Ruin and recreate changes a route many times between the probes that read its
   * suffixes (each insertion, each restore), and only `range` up to the route's end reads b*.
   * The recurrence is the same, in the same order, so the numbers are those an eager pass gives.
   */
  gStale = 0;
  bStale = 0;

  /** Trip caches (only filled when p.hasReloads): reload and break nodes among positions 1..i. */
  cumR: Int32Array;
  /** Position of the last reload node at or before i (0: the start depot). */
  lastR: Int32Array;
  /** Position of the first reload node at or after i (size + 1 when none). */
  nextR: Int32Array;
  /** Excess weight / volume of the trips closed at or before position i (size + 1: every trip). */
  xW: Float64Array;
  xV: Float64Array;
  /**
   * A day in progress (only filled when p.nKept > 0): the move units (Problem.oKeptUnits) of the
   * kept orders among positions 1..i, and `homeAt[i * nVehicles + v]` those of them whose own
   * vehicle is v, so a stretch's orders that would be away from any vehicle are counted in O(1)
   * (RouteProbe's `moved`).
   */
  cumKept: Int32Array;
  homeAt: Int32Array;
  /** Move units of the kept orders on this route away from their own vehicle. */
  moved = 0;
  /** Reload nodes on the route, and its real orders (size less reload and break nodes). */
  reloads = 0;
  nOrd = 0;
  /** Sum over trips of the load above capacity (trips: per trip; else the whole route). */
  excessW = DOUBLE;
  excessV = DOUBLE;

  distance = DOUBLE;
  duration = DOUBLE;
  timeWarp = DOUBLE;
  weight = DOUBLE;
  volume = DOUBLE;
  cost = DOUBLE;
  /**
   * What a move could shed of `cost` at most beyond its distance: the infeasible search's penalty
   * (0 when the route is feasible) plus the cost of kept orders away from their vehicle.
   */
  penalty = DOUBLE;
  /** Bumped on every change; lets the search skip pairs of routes unchanged since last tested. */
  version = 0;

  constructor(
    readonly p: Problem,
    readonly costs: CostModel,
    readonly vehicle: number,
    readonly index: number,
  ) {
    const cap = 16;
    this.ord = new Int32Array(cap);
    this.loc = new Int32Array(cap);
    this.cumDist = new Float64Array(cap);
    this.arcDist = new Float64Array(cap);
    this.cumW = new Float64Array(cap);
    this.cumV = new Float64Array(cap);
    this.fD = new Float64Array(cap);
    this.fT = new Float64Array(cap);
    this.fE = new Float64Array(cap);
    this.fL = new Float64Array(cap);
    this.gD = new Float64Array(cap);
    this.gT = new Float64Array(cap);
    this.gE = new Float64Array(cap);
    this.gL = new Float64Array(cap);
    this.bD = new Float64Array(cap);
    this.bT = new Float64Array(cap);
    this.bE = new Float64Array(cap);
    this.bL = new Float64Array(cap);
    this.cumR = new Int32Array(cap);
    this.lastR = new Int32Array(cap);
    this.nextR = new Int32Array(cap);
    this.xW = new Float64Array(cap);
    this.xV = new Float64Array(cap);
    this.cumKept = new Int32Array(p.nKept > 0 ? cap : 0);
    this.homeAt = new Int32Array(p.nKept > 0 ? cap * p.nVehicles : 0);
    this.excessW = this.excessV = 0;
    this.update();
  }

  private grow(need: number): void {
    if (need <= this.ord.length) return;
    let cap = this.ord.length;
    while (cap < need) cap *= 2;
    // the caches are kept (updates are incremental), so a grown array keeps its contents
    const g32 = (a: Int32Array) => {
      const b = new Int32Array(cap);
      b.set(a);
      return b;
    };
    const g64 = (a: Float64Array) => {
      const b = new Float64Array(cap);
      b.set(a);
      return b;
    };
    this.ord = g32(this.ord);
    this.loc = g32(this.loc);
    this.cumDist = g64(this.cumDist);
    this.arcDist = g64(this.arcDist);
    this.cumW = g64(this.cumW);
    this.cumV = g64(this.cumV);
    this.fD = g64(this.fD);
    this.fT = g64(this.fT);
    this.fE = g64(this.fE);
    this.fL = g64(this.fL);
    this.gD = g64(this.gD);
    this.gT = g64(this.gT);
    this.gE = g64(this.gE);
    this.gL = g64(this.gL);
    this.bD = g64(this.bD);
    this.bT = g64(this.bT);
    this.bE = g64(this.bE);
    this.bL = g64(this.bL);
    this.cumR = g32(this.cumR);
    this.lastR = g32(this.lastR);
    this.nextR = g32(this.nextR);
    this.xW = g64(this.xW);
    this.xV = g64(this.xV);
    if (this.p.nKept > 0) {
      this.cumKept = g32(this.cumKept);
      const h = new Int32Array(cap * this.p.nVehicles);
      h.set(this.homeAt);
      this.homeAt = h;
    }
  }

  /** Order at position i (1..size). */
  at(i: number): number {
    return this.ord[i];
  }

  orders(): number[] {
    // a plain loop: Array.from over a typed subarray goes through the iterator
    const ord = this.ord;
    const k = this.size;
    const out: number[] = [];
    for (let i = 1; i <= k; i++) out.push(ord[i]);
    return out;
  }

  /**
   * Replaces the orders. Only what changed is recomputed: the forward caches from the first
   * position that differs, the backward caches down from the last one (the unchanged tail keeps
   * its backward values, shifted when the length changes). A move touches a stretch of a route,
   * so this is about half the work of a full rebuild, with the same numbers.
   */
  setOrders(list: ArrayLike<number>): void {
    const k0 = this.size;
    const k1 = list.length;
    const ord = this.ord;
    const m = Math.min(k0, k1);
    let a = 0; // common head: positions 1..a
    while (a < m && ord[a + 1] === list[a]) a++;
    if (a === k0 && a === k1) return this.touchUnchanged();
    let b = 0; // common tail, not overlapping the head
    while (b < m - a && ord[k0 - b] === list[k1 - 1 - b]) b++;
    this.grow(k1 + 2);
    this.shiftTail(k0, k1, b);
    const o = this.ord;
    for (let i = a; i < k1 - b; i++) o[i + 1] = list[i];
    this.size = k1;
    this.rebuild(a + 1, k1 - b);
  }

  /** Inserts order o so that it lands at position pos + 1 (after position pos). */
  insertAfter(pos: number, o: number): void {
    const k0 = this.size;
    this.grow(k0 + 3);
    this.shiftTail(k0, k0 + 1, k0 - pos);
    this.ord[pos + 1] = o;
    this.size = k0 + 1;
    this.rebuild(pos + 1, pos + 1);
  }

  removeAt(pos: number): number {
    const o = this.ord[pos];
    const k0 = this.size;
    this.shiftTail(k0, k0 - 1, k0 - pos);
    this.size = k0 - 1;
    this.rebuild(pos, pos - 1);
    return o;
  }

  /**
   * Moves the last `tail` orders (and the end depot) of a route of k0 orders to the end of a route
   * of k1, with their locations and backward caches (which depend only on what follows them).
   */
  private shiftTail(k0: number, k1: number, tail: number): void {
    if (k0 === k1) return;
    const from = k0 - tail + 1;
    const to = k1 - tail + 1;
    const end = k0 + 2;
    // stale positions in the tail move with it; those before it are rebuilt (rebuild's bwdFrom is to - 1)
    this.gStale = this.gStale >= from ? this.gStale + to - from : 0;
    this.bStale = this.bStale >= from ? this.bStale + to - from : 0;
    this.ord.copyWithin(to, from, end);
    this.loc.copyWithin(to, from, end);
    this.gD.copyWithin(to, from, end);
    this.gT.copyWithin(to, from, end);
    this.gE.copyWithin(to, from, end);
    this.gL.copyWithin(to, from, end);
    this.bD.copyWithin(to, from, end);
    this.bT.copyWithin(to, from, end);
    this.bE.copyWithin(to, from, end);
    this.bL.copyWithin(to, from, end);
  }

  /** setOrders with the same orders: nothing to recompute, but it counts as a change. */
  private touchUnchanged(): void {
    this.version++;
  }

  /** Rebuilds every cache from `ord`: O(size). */
  update(): void {
    this.grow(this.size + 2);
    this.rebuild(1, this.size);
  }

  /**
   * Recomputes the forward caches of positions fwdFrom..size + 1 and marks the backward caches of
   * positions bwdFrom down to 1 stale (filled on demand: fillG, fillB); the caches outside those
   * ranges (and `loc` of the positions outside fwdFrom..bwdFrom) must already be right.
   */
  private rebuild(fwdFrom: number, bwdFrom: number): void {
    const p = this.p;
    const v = this.vehicle;
    const n = p.nLoc;
    const dist = p.dist;
    const dur = p.dur;
    const k = this.size;
    const ord = this.ord;
    const loc = this.loc;
    const oLoc = p.oLoc;
    ord[0] = -1;
    ord[k + 1] = -1;
    loc[0] = p.vStartLoc[v];
    loc[k + 1] = p.vEndLoc[v];
    const lo = Math.max(1, Math.min(fwdFrom, bwdFrom));
    const hi = Math.min(k, Math.max(fwdFrom, bwdFrom));
    // break nodes from B on (none: B = nNodes, so the tests below never hold); their loc is set
    // by the forward pass below
    const B = p.hasBreaks ? p.nBreakFirst : p.nNodes;
    for (let i = lo; i <= hi; i++) if (ord[i] < B) loc[i] = oLoc[ord[i]];

    const s0 = p.vShiftStart[v];
    const s1 = p.vShiftEnd[v];
    // a break's numbers depend on both its neighbours: the forward ones of breaks just before the
    // change and the backward ones of breaks just after it are rebuilt too
    while (bwdFrom < k && ord[bwdFrom + 1] >= B) bwdFrom++;
    while (fwdFrom > 1 && fwdFrom <= k + 1 && ord[fwdFrom - 1] >= B) fwdFrom--;
    // forward
    const cumDist = this.cumDist;
    const arcDist = this.arcDist;
    const cumW = this.cumW;
    const cumV = this.cumV;
    const fD = this.fD;
    const fT = this.fT;
    const fE = this.fE;
    const fL = this.fL;
    cumDist[0] = 0;
    cumW[0] = 0;
    cumV[0] = 0;
    fD[0] = 0;
    fT[0] = 0;
    fE[0] = s0;
    fL[0] = p.vDepartLate[v];
    const f = Math.max(1, fwdFrom);
    let d = fD[f - 1],
      tw = fT[f - 1],
      e = fE[f - 1],
      l = fL[f - 1];
    let cd = cumDist[f - 1],
      cw = cumW[f - 1],
      cv = cumV[f - 1];
    let prev = loc[f - 1];
    if (f <= k) {
      const oW = p.oW;
      const oV = p.oV;
      const oService = p.oService;
      const oEarly = p.oEarly;
      const oLate = p.oLate;
      for (let i = f; i <= k; i++) {
        const o = ord[i];
        if (o >= B) loc[i] = prev; // a break: where the driver is
        const here = loc[i];
        const arc = prev * n + here;
        prev = here;
        const ad = dist[arc];
        arcDist[i] = ad;
        cd = cd + ad;
        cumDist[i] = cd;
        cw = cw + oW[o];
        cv = cv + oV[o];
        cumW[i] = cw;
        cumV[i] = cv;
        const bd = oService[o];
        const be = o >= B && (i === k || ord[i + 1] < B) ? oEarly[o] - dur[here * n + loc[i + 1]] : oEarly[o];
        const bl = oLate[o];
        const t = dur[arc];
        const delta = d - tw + t;
        const wait = Math.max(be - delta - l, 0);
        const warp = Math.max(e + delta - bl, 0);
        const ne = Math.max(be - delta, e) - wait;
        const nl = Math.min(bl - delta, l) + warp;
        d = d + bd + t + wait;
        tw = tw + warp;
        e = ne;
        l = nl;
        fD[i] = d;
        fT[i] = tw;
        fE[i] = e;
        fL[i] = l;
      }
    }
    {
      // the end depot (f <= k + 1 always)
      const i = k + 1;
      const arc = prev * n + loc[i];
      const ad = dist[arc];
      arcDist[i] = ad;
      cumDist[i] = cd + ad;
      cumW[i] = cw;
      cumV[i] = cv;
      const bd = 0;
      const be = s0;
      const bl = s1;
      const t = dur[arc];
      const delta = d - tw + t;
      const wait = Math.max(be - delta - l, 0);
      const warp = Math.max(e + delta - bl, 0);
      const ne = Math.max(be - delta, e) - wait;
      const nl = Math.min(bl - delta, l) + warp;
      fD[i] = d + bd + t + wait;
      fT[i] = tw + warp;
      fE[i] = ne;
      fL[i] = nl;
    }
    // backward, with and without the end depot: the ends here, the rest on demand (fillG, fillB)
    this.gD[k + 1] = 0;
    this.gT[k + 1] = 0;
    this.gE[k + 1] = s0;
    this.gL[k + 1] = s1;
    this.bD[k + 1] = 0;
    this.bT[k + 1] = 0;
    this.bE[k + 1] = -HORIZON;
    this.bL[k + 1] = HORIZON;
    const bFrom = Math.min(k, bwdFrom);
    if (bFrom > this.gStale) this.gStale = bFrom;
    if (bFrom > this.bStale) this.bStale = bFrom;
    this.distance = cumDist[k + 1];
    this.duration = fD[k + 1];
    this.timeWarp = fT[k + 1];
    this.weight = cumW[k];
    this.volume = cumV[k];
    if (p.nKept > 0) this.updateKept(Math.max(1, fwdFrom));
    if (p.hasReloads) this.updateTrips();
    else {
      this.reloads = 0;
      this.nOrd = k;
    }
    this.recost();
    this.version++;
  }

  /** Fills the backward caches with the end depot (g*) at positions gStale down to i. */
  fillG(i: number): void {
    this.fillBackward(this.gStale, i, this.gD, this.gT, this.gE, this.gL, false);
    this.gStale = i - 1;
  }

  /** Fills the backward caches without the end depot (b*) at positions bStale down to i. */
  fillB(i: number): void {
    this.fillBackward(this.bStale, i, this.bD, this.bT, this.bE, this.bL, true);
    this.bStale = i - 1;
  }

  /** Fills every lazy cache (tests compare whole arrays). */
  fillAll(): void {
    if (this.gStale >= 1) this.fillG(1);
    if (this.bStale >= 1) this.fillB(1);
  }

  private fillBackward(from: number, to: number, D: Float64Array, T: Float64Array, E: Float64Array, L: Float64Array, noEnd: boolean): void {
    const p = this.p;
    const n = p.nLoc;
    const dur = p.dur;
    const ord = this.ord;
    const loc = this.loc;
    const oService = p.oService;
    const oEarly = p.oEarly;
    const oLate = p.oLate;
    const B = p.hasBreaks ? p.nBreakFirst : p.nNodes;
    const k = this.size;
    let i = from;
    if (noEnd && i === k && i >= to) {
      // the last order alone (a break last: RouteProbe.range does not read these numbers)
      const o = ord[i];
      D[i] = oService[o];
      T[i] = 0;
      E[i] = oEarly[o];
      L[i] = oLate[o];
      i--;
    }
    if (i < to) return;
    let bd = D[i + 1],
      btw = T[i + 1],
      be = E[i + 1],
      bl = L[i + 1];
    let next = loc[i + 1];
    for (; i >= to; i--) {
      const o = ord[i];
      const here = loc[i];
      const t = dur[here * n + next];
      const ad = oService[o],
        ae = o >= B && (i === k || ord[i + 1] < B) ? oEarly[o] - t : oEarly[o],
        al = oLate[o];
      next = here;
      const delta = ad + t;
      const wait = Math.max(be - delta - al, 0);
      const warp = Math.max(ae + delta - bl, 0);
      const ne = Math.max(be - delta, ae) - wait;
      const nl = Math.min(bl - delta, al) + warp;
      bd = ad + bd + t + wait;
      btw = btw + warp;
      be = ne;
      bl = nl;
      D[i] = bd;
      T[i] = btw;
      E[i] = be;
      L[i] = bl;
    }
  }

  /** The kept-order counts from position f on: O(nVehicles) a position. */
  private updateKept(f: number): void {
    const p = this.p;
    const nV = p.nVehicles;
    const k = this.size;
    const ord = this.ord;
    const cum = this.cumKept;
    const home = this.homeAt;
    const oKept = p.oKept;
    const units = p.oKeptUnits;
    if (f === 1) {
      cum[0] = 0;
      home.fill(0, 0, nV);
    }
    for (let i = f; i <= k; i++) {
      home.copyWithin(i * nV, (i - 1) * nV, i * nV);
      const o = ord[i];
      const h = o >= 0 && o < p.nOrders ? oKept[o] : -1;
      const u = h >= 0 ? units[o] : 0;
      cum[i] = cum[i - 1] + u;
      if (h >= 0) home[i * nV + h] += u;
    }
    this.moved = cum[k] - home[k * nV + this.vehicle];
  }

  /** Move units of the kept orders at positions i..j that would be away from vehicle v (i <= j + 1). */
  movedIn(i: number, j: number, v: number): number {
    const nV = this.p.nVehicles;
    return this.cumKept[j] - this.cumKept[i - 1] - (this.homeAt[j * nV + v] - this.homeAt[(i - 1) * nV + v]);
  }

  /** The trip caches: O(size). */
  private updateTrips(): void {
    const p = this.p;
    const v = this.vehicle;
    const k = this.size;
    const N = p.nOrders;
    // reload nodes are N..B-1; break nodes (B on) are counted out of the orders but close no trip
    const B = p.nBreakFirst;
    const capW = p.vCapW[v];
    const capV = p.vCapV[v];
    const ord = this.ord;
    const cumW = this.cumW;
    const cumV = this.cumV;
    let last = 0;
    let xw = 0;
    let xv = 0;
    let cr = 0;
    let reloads = 0;
    this.cumR[0] = 0;
    this.lastR[0] = 0;
    this.xW[0] = 0;
    this.xV[0] = 0;
    for (let i = 1; i <= k; i++) {
      if (ord[i] >= N) cr++;
      if (ord[i] >= N && ord[i] < B) {
        xw += Math.max(0, cumW[i] - cumW[last] - capW);
        xv += Math.max(0, cumV[i] - cumV[last] - capV);
        reloads++;
        last = i;
      }
      this.cumR[i] = cr;
      this.lastR[i] = last;
      this.xW[i] = xw;
      this.xV[i] = xv;
    }
    // the end depot closes the last trip
    this.cumR[k + 1] = cr;
    this.lastR[k + 1] = last;
    this.xW[k + 1] = xw + Math.max(0, cumW[k] - cumW[last] - capW);
    this.xV[k + 1] = xv + Math.max(0, cumV[k] - cumV[last] - capV);
    this.nextR[k + 1] = k + 1;
    for (let i = k; i >= 0; i--) this.nextR[i] = i >= 1 && ord[i] >= N && ord[i] < B ? i : this.nextR[i + 1];
    this.reloads = reloads;
    this.nOrd = k - cr;
    this.excessW = this.xW[k + 1];
    this.excessV = this.xV[k + 1];
  }

  /** Recomputes cost and penalty after the cost weights changed (the route itself did not). */
  recost(): void {
    const p = this.p;
    const v = this.vehicle;
    const c = this.costs;
    const k = this.nOrd;
    this.cost = k === 0 ? 0 : c.perDistance * this.distance + c.perDuration * this.duration + c.perVehicle + c.perMoved * this.moved;
    // the cost of kept orders away from their vehicle counts as a penalty too: a move can shed
    // it, so the distance bounds subtract it (distanceBound and its inline copies)
    const moved = k === 0 ? 0 : c.perMoved * this.moved;
    this.penalty = moved;
    if (c.penalised && k > 0) {
      const penalty =
        c.penaltyTime * (this.timeWarp + Math.max(0, this.duration - p.vMaxDur[v]) + Math.max(0, this.distance - p.vMaxDist[v])) +
        c.penaltyLoad *
          (p.hasReloads ? this.excessW + this.excessV : Math.max(0, this.weight - p.vCapW[v]) + Math.max(0, this.volume - p.vCapV[v]));
      this.penalty = moved + penalty;
      this.cost += penalty;
    }
  }

  /** Whether the route as cached breaks no constraint. */
  feasible(): boolean {
    const p = this.p;
    const v = this.vehicle;
    if (this.nOrd === 0) return true;
    const loadOk = p.hasReloads
      ? this.excessW <= EPS && this.excessV <= EPS
      : this.weight <= p.vCapW[v] + EPS && this.volume <= p.vCapV[v] + EPS;
    return (
      this.timeWarp <= EPS &&
      loadOk &&
      this.distance <= p.vMaxDist[v] + EPS &&
      this.distance < NO_ROAD / 2 &&
      this.duration <= p.vMaxDur[v] + EPS &&
      this.nOrd <= p.vMaxOrders[v]
    );
  }
}
