/**
 * Builds a candidate route out of cached pieces (a prefix of one route, single orders, ranges,
 * a suffix) and judges it: cost and feasibility, without re-simulating the whole route. Prefix
 * and suffix pieces are O(1); middle ranges cost O(length) (only intra-route moves need them).
 * One probe is reused for every evaluation, so evaluating a move allocates nothing.
 */
import type { CostModel, Problem } from '../model/problem.js';
import type { SearchRoute } from './search-route.js';

// Local copies of EPS and NO_ROAD / 2: hot code reads no cross-module bindings.
const EPS = 1e-6;
const ROADLESS = 5e11;

export class RouteProbe {
  d = 0;
  tw = 0;
  e = 0;
  l = 0;
  dist = 0;
  w = 0;
  vol = 0;
  cnt = 0;
  last = 0;
  vehicle = 0;
  /** Set by `finish*`. */
  cost = 0;
  /** The penalty part of `cost` (infeasible search only). */
  penalty = 0;
  feasible = false;
  private readonly n: number;

  constructor(
    readonly p: Problem,
    readonly costs: CostModel,
  ) {
    this.n = p.nLoc;
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
    this.vehicle = r.vehicle;
    this.d = r.fD[i];
    this.tw = r.fT[i];
    this.e = r.fE[i];
    this.l = r.fL[i];
    this.dist = r.cumDist[i];
    this.w = r.cumW[i];
    this.vol = r.cumV[i];
    this.cnt = i;
    this.last = r.loc[i];
    return this;
  }

  /** Starts an empty route of vehicle v at its start depot. */
  depot(v: number): this {
    const p = this.p;
    this.vehicle = v;
    this.d = 0;
    this.tw = 0;
    this.e = p.vShiftStart[v];
    this.l = p.vShiftEnd[v];
    this.dist = 0;
    this.w = 0;
    this.vol = 0;
    this.cnt = 0;
    this.last = p.vStartLoc[v];
    return this;
  }

  order(o: number): this {
    const p = this.p;
    const to = p.oLoc[o];
    const arc = this.last * this.n + to;
    this.merge(p.dur[arc], p.oService[o], 0, p.oEarly[o], p.oLate[o]);
    this.dist += p.dist[arc];
    this.w += p.oW[o];
    this.vol += p.oV[o];
    this.cnt++;
    this.last = to;
    return this;
  }

  /** Appends orders at positions i..j (1 <= i <= j <= size) of route r, in order. */
  range(r: SearchRoute, i: number, j: number): this {
    if (i > j) return this;
    const arc = this.last * this.n + r.loc[i];
    this.dist += this.p.dist[arc] + r.cumDist[j] - r.cumDist[i];
    this.w += r.cumW[j] - r.cumW[i - 1];
    this.vol += r.cumV[j] - r.cumV[i - 1];
    this.cnt += j - i + 1;
    if (j === r.size) {
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

  /** Appends orders at positions j down to i (i <= j) of route r: the range reversed. */
  reversed(r: SearchRoute, i: number, j: number): this {
    for (let k = j; k >= i; k--) this.order(r.ord[k]);
    return this;
  }

  /** Ends with positions i..size + 1 of route r, its own end depot included: O(1). */
  finishSuffix(r: SearchRoute, i: number): this {
    const arc = this.last * this.n + r.loc[i];
    this.merge(this.p.dur[arc], r.gD[i], r.gT[i], r.gE[i], r.gL[i]);
    this.dist += this.p.dist[arc] + r.cumDist[r.size + 1] - r.cumDist[i];
    const k = r.size;
    if (i <= k) {
      this.w += r.cumW[k] - r.cumW[i - 1];
      this.vol += r.cumV[k] - r.cumV[i - 1];
      this.cnt += k - i + 1;
    }
    return this.judge();
  }

  /** Ends at the end depot of the probe's vehicle. */
  finish(): this {
    const p = this.p;
    const v = this.vehicle;
    const to = p.vEndLoc[v];
    const arc = this.last * this.n + to;
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
    this.cost = c.perDistance * this.dist + c.perDuration * this.d + c.perVehicle;
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
}
