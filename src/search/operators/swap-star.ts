/**
 * SWAP* (Vidal 2022): exchange an order u of one route with an order v of another, each going to
 * its best position in the other route rather than into the other's place. Per route pair, the
 * three cheapest insertion positions (by distance) of every order in the other route are found
 * once; every (u, v) pair is then priced in O(1) from them, and the few best candidates are
 * checked exactly (time windows, loads, limits) by a probe over the two new routes.
 * As an operator on (u, v) it works on the pair of routes holding u and v, once per change.
 */
import { BaseOperator } from '../operator.js';
import type { Problem } from '../../model/problem.js';
import type { SearchRoute } from '../../route/search-route.js';
import type { SearchSolution } from '../../route/search-solution.js';

const CANDIDATES = 4;

/** Top three insertion positions (insert after pos) and their distance costs. */
class Top3 {
  pos = new Int32Array(3);
  cost = new Float64Array(3);
  reset(): void {
    this.pos.fill(-1);
    this.cost.fill(Infinity);
  }
  add(pos: number, cost: number): void {
    if (cost >= this.cost[2]) return;
    let k = 2;
    while (k > 0 && cost < this.cost[k - 1]) {
      this.cost[k] = this.cost[k - 1];
      this.pos[k] = this.pos[k - 1];
      k--;
    }
    this.cost[k] = cost;
    this.pos[k] = pos;
  }
}

export class SwapStar extends BaseOperator {
  readonly name = 'swap-star';
  private tops: Top3[] = [];
  private testedKey = new Map<number, string>();
  // the move found by the last evaluate
  private mU = -1;
  private mV = -1;
  private mPosU = -1; // u goes after this position of s (original numbering, v removed)
  private mPosV = -1;
  private candU = new Int32Array(CANDIDATES);
  private candV = new Int32Array(CANDIDATES);
  private candPU = new Int32Array(CANDIDATES);
  private candPV = new Int32Array(CANDIDATES);
  private candD = new Float64Array(CANDIDATES);

  override supports(p: Problem): boolean {
    return p.nOrders >= 4;
  }

  private top(i: number): Top3 {
    while (this.tops.length <= i) this.tops.push(new Top3());
    return this.tops[i];
  }

  /** Top-3 positions of each order of `from` in `into` (indexed by the order's position). */
  private fillTops(sol: SearchSolution, from: SearchRoute, into: SearchRoute, offset: number): void {
    const p = sol.p;
    const D = p.dist;
    const n = p.nLoc;
    for (let i = 1; i <= from.size; i++) {
      const t = this.top(offset + i);
      t.reset();
      const L = from.loc[i];
      for (let q = 0; q <= into.size; q++) {
        const a = into.loc[q];
        const b = into.loc[q + 1];
        t.add(q, D[a * n + L] + D[L * n + b] - D[a * n + b]);
      }
    }
  }

  /** Distance cost of putting the order at position i of `from` into `into` with position j removed. */
  private bestInsert(sol: SearchSolution, t: Top3, L: number, into: SearchRoute, j: number): { cost: number; pos: number } {
    const p = sol.p;
    const D = p.dist;
    const n = p.nLoc;
    // in place of the removed order
    const a = into.loc[j - 1];
    const b = into.loc[j + 1];
    let cost = D[a * n + L] + D[L * n + b] - D[a * n + b];
    let pos = j - 1;
    for (let k = 0; k < 3; k++) {
      const q = t.pos[k];
      if (q < 0) break;
      if (q === j - 1 || q === j) continue; // next to the removed order: priced above
      if (t.cost[k] < cost) {
        cost = t.cost[k];
        pos = q;
      }
      break;
    }
    return { cost, pos };
  }

  evaluate(sol: SearchSolution, u: number, v: number, limit = Infinity): number {
    this.evaluations++;
    const r = sol.routes[sol.routeOf[u]];
    const s = sol.routes[sol.routeOf[v]];
    if (r === s) return Infinity;
    const lo = Math.min(r.index, s.index);
    const hi = Math.max(r.index, s.index);
    const pairKey = lo * sol.routes.length + hi;
    const versions = `${sol.routes[lo].version}:${sol.routes[hi].version}`;
    if (limit !== Infinity && this.testedKey.get(pairKey) === versions) return Infinity;
    this.testedKey.set(pairKey, versions);
    this.probes(sol);
    const p = sol.p;
    const D = p.dist;
    const n = p.nLoc;
    this.fillTops(sol, r, s, 0);
    this.fillTops(sol, s, r, r.size + 1);
    this.candD.fill(Infinity);
    for (let i = 1; i <= r.size; i++) {
      const Lu = r.loc[i];
      const remU = D[r.loc[i - 1] * n + r.loc[i + 1]] - D[r.loc[i - 1] * n + Lu] - D[Lu * n + r.loc[i + 1]];
      const tu = this.top(i);
      const ou = r.ord[i];
      for (let j = 1; j <= s.size; j++) {
        const ov = s.ord[j];
        if ((p.hasRequirements || p.hasReloads) && (!sol.compatible(ou, s) || !sol.compatible(ov, r))) continue;
        const Lv = s.loc[j];
        const remV = D[s.loc[j - 1] * n + s.loc[j + 1]] - D[s.loc[j - 1] * n + Lv] - D[Lv * n + s.loc[j + 1]];
        const insU = this.bestInsert(sol, tu, Lu, s, j);
        const insV = this.bestInsert(sol, this.top(r.size + 1 + j), Lv, r, i);
        const d = remU + remV + insU.cost + insV.cost;
        // keep the CANDIDATES best
        if (d >= this.candD[CANDIDATES - 1]) continue;
        let k = CANDIDATES - 1;
        while (k > 0 && d < this.candD[k - 1]) {
          this.candD[k] = this.candD[k - 1];
          this.candU[k] = this.candU[k - 1];
          this.candV[k] = this.candV[k - 1];
          this.candPU[k] = this.candPU[k - 1];
          this.candPV[k] = this.candPV[k - 1];
          k--;
        }
        this.candD[k] = d;
        this.candU[k] = i;
        this.candV[k] = j;
        this.candPU[k] = insU.pos;
        this.candPV[k] = insV.pos;
      }
    }
    let best = Infinity;
    for (let c = 0; c < CANDIDATES; c++) {
      if (this.candD[c] === Infinity) break;
      if (limit !== Infinity && sol.costs.perDuration === 0 && r.penalty === 0 && s.penalty === 0 && sol.costs.perDistance * this.candD[c] >= limit) break;
      const i = this.candU[c];
      const j = this.candV[c];
      const a = this.a;
      // r without u, with v after position candPV (numbering of r, u's slot skipped)
      this.build(a, r, i, s.ord[j], this.candPV[c]);
      if (!a.feasible) continue;
      const b = this.b;
      this.build(b, s, j, r.ord[i], this.candPU[c]);
      if (!b.feasible) continue;
      const delta = a.cost + b.cost - r.cost - s.cost;
      if (delta < best) {
        best = delta;
        this.mU = r.ord[i];
        this.mV = s.ord[j];
        this.mPosU = this.candPU[c];
        this.mPosV = this.candPV[c];
      }
    }
    return best;
  }

  /** Probes route x with the order at position i removed and order o inserted after position q. */
  private build(probe: typeof this.a, x: SearchRoute, i: number, o: number, q: number): void {
    probe.depot(x.vehicle);
    // q = i - 1 means "in place of" the removed order
    if (q < i) probe.prefix(x, q).order(o).range(x, q + 1, i - 1).finishSuffix(x, i + 1);
    else probe.prefix(x, i - 1).range(x, i + 1, q).order(o).finishSuffix(x, q + 1);
  }

  apply(sol: SearchSolution, _u: number, _v: number): void {
    this.applications++;
    const u = this.mU;
    const v = this.mV;
    const r = sol.routes[sol.routeOf[u]];
    const s = sol.routes[sol.routeOf[v]];
    const place = (x: SearchRoute, i: number, o: number, q: number): number[] => {
      const all = x.orders(); // all[k] is position k + 1
      const out: number[] = [];
      if (q === 0) out.push(o);
      for (let k = 1; k <= x.size; k++) {
        if (k !== i) out.push(all[k - 1]);
        if (k === q) out.push(o);
      }
      return out;
    };
    const newR = place(r, sol.posOf[u], v, this.mPosV);
    const newS = place(s, sol.posOf[v], u, this.mPosU);
    sol.setRoute(r, newR);
    sol.setRoute(s, newS);
  }
}
